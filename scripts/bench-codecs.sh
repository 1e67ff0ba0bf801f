#!/usr/bin/env bash
# Plain file vs .gz vs .zst vs a pipe (issue 10): `solve -j 2 --first` on one million 17-clue
# isomorphs, with outputs written, in alternating rounds so that the machine's noise falls
# on every variant alike. Prints wall time and peak RSS per run, then the median wall time
# of each variant and its ratio to the plain file's.
#
#   scripts/bench-codecs.sh [ROUNDS] [COUNT]      # defaults 3 and 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
count=${2:-1000000}
dir=target/peak-rss
mkdir -p "$dir"
input="$dir/17_clue_$count.txt"
if [ ! -s "$input" ]; then
    python3 ../shared/scripts/expand_isomorphs.py ../shared/data/17_clue.txt "$count" "$input" --seed 10
fi
[ -s "$input.gz" ] || gzip -6 -c "$input" > "$input.gz"
[ -s "$input.zst" ] || zstd -q -3 -f "$input" -o "$input.zst"
# BIN=path overrides the binary (e.g. a copy kept while target/ is rebuilt).
bin=${BIN:-}
if [ -z "$bin" ]; then
    cargo build --release --quiet
    bin=target/release/sudoku-batch
fi
run() { # variant, round
    local cmd
    case $1 in
        plain) cmd="$bin solve -q -j 2 --first '$input' -o $dir/out.txt --stats $dir/stats.csv" ;;
        gz) cmd="$bin solve -q -j 2 --first '$input.gz' -o $dir/out.txt --stats $dir/stats.csv" ;;
        zst) cmd="$bin solve -q -j 2 --first '$input.zst' -o $dir/out.txt --stats $dir/stats.csv" ;;
        pipe) cmd="cat '$input' | $bin solve -q -j 2 --first - -o $dir/out.txt --stats $dir/stats.csv" ;;
    esac
    /usr/bin/time -f '%e %M' -o "$dir/time" sh -c "$cmd"
    read -r wall kib < <(tail -n 1 "$dir/time")
    echo "$1 $2 $wall $kib" | tee -a "$dir/runs"
}
: > "$dir/runs"
for r in $(seq "$rounds"); do
    for v in plain gz zst pipe; do run "$v" "$r"; done
done
python3 - "$dir/runs" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    v, _, wall, kib = line.split()
    runs.setdefault(v, []).append((float(wall), int(kib)))
base = statistics.median(w for w, _ in runs["plain"])
print("| input | median wall (s) | ratio to plain | peak RSS (MiB, max) |")
print("|---|---|---|---|")
for v, rs in runs.items():
    m = statistics.median(w for w, _ in rs)
    print(f"| {v} | {m:.2f} | {m / base:.2f}x | {max(k for _, k in rs) / 1024:.0f} |")
PY
