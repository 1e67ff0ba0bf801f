#!/usr/bin/env bash
# `trace` against the `sudoku` crate's strategy solver (scripts/peer-strategy, the same
# techniques, no guessing), puzzles per CPU-second, side by side in alternating rounds.
#
# usage: [SHARED=DIR] scripts/trace-vs-peer.sh [ROUNDS]   (default 3; needs ../shared, or
# SHARED, and python3)
#
# Ours: `trace -j 1` to /dev/null, twice: as `.npz` (each puzzle's placements with their
# techniques, the Shah et al. rows: the trace kept in memory and written compactly, as the
# peer keeps its deductions) and as JSON Lines (every step as JSON text). Both trace every
# puzzle to its solution, guesses included, and check uniqueness. Peer: StrategySolver::solve
# on each puzzle, keeping its deductions. CPU seconds are user + system of the whole
# process, both reading the same lines file; the peer's share solved is printed beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
shared="${SHARED:-../shared}/data"
work=target/trace-vs-peer
mkdir -p "$work"
cargo build --release --quiet
bin="$PWD/target/release/sudoku-batch"
(cd scripts/peer-strategy && cargo build --release --quiet --target-dir "../../$work/peer")
peer="$work/peer/release/peer-strategy"

# Lines files: the puzzle field of each CSV (header dropped).
# The Kaggle 1M sample five times over (100,000 puzzles): one copy takes the peer a tenth of
# a second, too short to compare on a shared machine.
tail -n +2 "$shared/kaggle_1m_sample.csv" | cut -d, -f1 > "$work/kaggle_1m_once.txt"
for _ in 1 2 3 4 5; do cat "$work/kaggle_1m_once.txt"; done > "$work/kaggle_1m.txt"
# The Kaggle 3M sample five times over too: once is about 0.2 s of ours.
tail -n +2 "$shared/kaggle_3m_sample_reformatted.csv" | cut -d, -f1 > "$work/kaggle_3m_once.txt"
for _ in 1 2 3 4 5; do cat "$work/kaggle_3m_once.txt"; done > "$work/kaggle_3m.txt"
# The first 2000 of the forum set: about 3 ms a puzzle for us, a minute a round in full.
head -n 2000 "$shared/forum_hardest_1905_11plus.txt" > "$work/forum_11plus.txt"

# CPU seconds (user + system) of a command and its children, from getrusage: microseconds,
# where /usr/bin/time prints hundredths (ours takes under 0.2 s on the Kaggle 1M file). The
# difference of two readings around the run: a launcher such as pyenv's shim runs programs
# of its own before it execs Python, and their time stays in the process's children count
# (70 ms here, added to both sides).
cpu() {
    python3 -c 'import resource, subprocess, sys
def used():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
before = used()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"{used() - before:.4f}")' "$@"
}
printf "| file | puzzles | peer CPU s | ours .npz CPU s | ours JSON Lines CPU s | peer puzzles/CPU-s | ours .npz / peer | ours JSON Lines / peer | peer solved |\n|---|---|---|---|---|---|---|---|---|\n"
for f in kaggle_1m kaggle_3m forum_11plus; do
    file="$work/$f.txt"
    n=$(grep -c . "$file")
    best_npz=999999; best_jsonl=999999; best_peer=999999
    for _ in $(seq "$rounds"); do
        z=$(cpu "$bin" trace -j 1 -q "$file" -o /dev/null --output-format npz || true)
        o=$(cpu "$bin" trace -j 1 -q "$file" -o /dev/null --output-format jsonl || true)
        p=$(cpu "$peer" "$file")
        best_npz=$(echo "$z $best_npz" | awk '{print ($1 < $2) ? $1 : $2}')
        best_jsonl=$(echo "$o $best_jsonl" | awk '{print ($1 < $2) ? $1 : $2}')
        best_peer=$(echo "$p $best_peer" | awk '{print ($1 < $2) ? $1 : $2}')
    done
    solved=$("$peer" "$file" 2>&1 | sed -E 's/.* puzzles, ([0-9]+) solved.*/\1/')
    awk -v f="$f" -v n="$n" -v z="$best_npz" -v o="$best_jsonl" -v p="$best_peer" -v s="$solved" 'BEGIN {
        printf "| %s | %d | %.3f | %.3f | %.3f | %.0f | %.2fx | %.2fx | %.1f%% |\n", f, n, p, z, o, n / p, p / z, p / o, 100 * s / n }'
done
