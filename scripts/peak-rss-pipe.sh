#!/usr/bin/env bash
# Peak memory of `solve` reading one million puzzles through a pipe, from a .zst file and
# with --no-mmap, and one 100 MB line through a pipe (issue 10): fails loudly (exit 1) when a
# run's peak RSS reaches 64 MiB.
#
#   scripts/peak-rss-pipe.sh [COUNT]        # default 1000000; needs python3, zstd, GNU time
#
# The puzzles are 17-clue isomorphs made by ../shared/scripts/expand_isomorphs.py (seeded),
# kept in target/peak-rss/ between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
limit_kib=$((64 * 1024))
dir=target/peak-rss
mkdir -p "$dir"
input="$dir/17_clue_$count.txt"
if [ ! -s "$input" ]; then
    python3 ../shared/scripts/expand_isomorphs.py ../shared/data/17_clue.txt "$count" "$input" --seed 10
fi
[ -s "$input.zst" ] || zstd -q -f "$input" -o "$input.zst"
cargo build --release --quiet
bin=target/release/sudoku-batch
fail=0
check() { # name, then the command whose peak RSS is measured
    local name=$1
    shift
    /usr/bin/time -f '%M' -o "$dir/rss" "$@"
    local kib
    kib=$(tail -n 1 "$dir/rss")
    if [ "$kib" -ge "$limit_kib" ]; then
        echo "FAIL: $name: peak RSS $((kib / 1024)) MiB >= 64 MiB" >&2
        fail=1
    else
        echo "ok: $name: peak RSS $((kib / 1024)) MiB (< 64 MiB)"
    fi
}
check "pipe (cat | solve -)" sh -c "cat '$input' | $bin solve -q -j 2 --first - -o /dev/null"
check "zstd file" "$bin" solve -q -j 2 --first "$input.zst" -o /dev/null
check "zstdcat | solve -" sh -c "zstdcat '$input.zst' | $bin solve -q -j 2 --first - -o /dev/null"
check "--no-mmap" "$bin" solve -q -j 2 --first --no-mmap "$input" -o /dev/null
# One 100 MB line without a line end: one invalid record (exit 1), read in bounded memory.
check "one 100 MB line | solve -" sh -c \
    "head -c 100000000 /dev/zero | tr '\\0' 1 | $bin solve -q - -o /dev/null 2>/dev/null || [ \$? -eq 1 ]"
exit $fail
