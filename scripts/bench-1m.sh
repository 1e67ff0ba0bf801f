#!/usr/bin/env bash
# The million-puzzle runs behind BENCHMARKS.md (issues 2, 3 and 4, targets 3 and 4).
#
# usage: scripts/bench-1m.sh [WORKDIR]   (default: target/bench-1m; needs ../shared, hyperfine, bc and python3)
#
# 1. Makes the 1M-puzzle files with ../shared/scripts/expand_isomorphs.py (seed 1):
#    k1m.csv (Kaggle layout, from kaggle_1m_sample.csv) and c17_1m.txt (from 17_clue.txt),
#    and c17_10m.txt (c17_1m.txt ten times) for the memory check.
# 2. solve -j 2 with --stats and --report on both 1M files; every solution checked by
#    scripts/check_solutions.py (independent of our Rust code).
# 3. Side by side: solve vs verify on k1m.csv (hyperfine); solve --first -j 1 and -j 2 on
#    c17_1m.txt against the peer harness (single thread, solve only) on the same file, in
#    alternating rounds (scripts/alternate.py; ROUNDS=11 by default).
# 4. Peak anonymous memory (heap and stacks, not the mapped file) of solve on 1M and 10M puzzles.
set -euo pipefail
cd "$(dirname "$0")/.."
shared=../shared
work="${1:-target/bench-1m}"
mkdir -p "$work"
cargo build --release --quiet
bin="$PWD/target/release/sudoku-batch"
peer_target="$PWD/target/peer"
(cd "$shared/tools/peer-rust-sudoku" && cargo build --release --quiet --target-dir "$peer_target")
peer="$peer_target/release/peer-rust-sudoku"

[ -s "$work/k1m.csv" ] || python3 "$shared/scripts/expand_isomorphs.py" "$shared/data/kaggle_1m_sample.csv" 1000000 "$work/k1m.csv" --format csv
[ -s "$work/c17_1m.txt" ] || python3 "$shared/scripts/expand_isomorphs.py" "$shared/data/17_clue.txt" 1000000 "$work/c17_1m.txt"
[ -s "$work/c17_10m.txt" ] || for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$work/c17_1m.txt"; done > "$work/c17_10m.txt"

echo "## solve -j 2 on the 1M files, every solution checked"
for f in k1m.csv c17_1m.txt; do
  out="$work/$f.out"
  "$bin" solve -j 2 "$work/$f" -o "$out" --stats "$work/$f.stats.csv" --report "$work/$f.report.json"
  python3 scripts/check_solutions.py "$work/$f" "$out"
done

echo "## verify vs solve on k1m.csv"
hyperfine -w 1 -r 5 --export-markdown "$work/verify_vs_solve.md" \
  "$bin solve -q -j 2 $work/k1m.csv -o $work/k1m.solve.csv" \
  "$bin verify -q -j 2 $work/k1m.csv"

echo "## 17-clue 1M: peer single thread vs ours -j 1 and -j 2 (first solution, writing solutions and stats)"
# Alternating rounds with per-round ratios (scripts/alternate.py): on a shared machine a
# change of load mid-run would otherwise fall on one command only.
# The first row is the peer timed by its own report (parse and solve, not reading the
# file): the strictest reading of "solve-only time"; the second is its whole process.
python3 scripts/alternate.py --rounds "${ROUNDS:-11}" --markdown "$work/c17_scaling.md" \
  --time-from 'peer, own timer=solved, ([0-9.]+) s' \
  "peer, own timer=$peer $work/c17_1m.txt" \
  "peer, whole process=$peer $work/c17_1m.txt" \
  "ours -j 1=$bin solve -q -j 1 --first $work/c17_1m.txt -o $work/c17.j1.out --stats $work/c17.j1.stats.csv" \
  "ours -j 2=$bin solve -q -j 2 --first $work/c17_1m.txt -o $work/c17.j2.out --stats $work/c17.j2.stats.csv"

echo "## peak memory besides the mapped input: RssAnon (heap + stacks) sampled every 20 ms"
for f in c17_1m.txt c17_10m.txt; do
  size=$(stat -L -c %s "$work/$f")
  start=$(date +%s.%N)
  "$bin" solve -q -j 2 --first "$work/$f" -o /dev/null &
  pid=$!
  peak=0
  while kill -0 "$pid" 2>/dev/null; do
    anon=$(awk '/^RssAnon/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${anon:-0}" -gt "$peak" ] && peak=$anon
    sleep 0.02
  done
  wait "$pid"
  end=$(date +%s.%N)
  echo "$f: input $size bytes, peak RssAnon $peak KiB, wall $(echo "$end - $start" | bc) s"
done
