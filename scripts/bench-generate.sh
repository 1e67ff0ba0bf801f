#!/usr/bin/env bash
# Truly minimal puzzles with no symmetry, one thread: sudoku-batch `generate --minimal`
# against the `sudoku` crate's `generate_with_symmetry(Symmetry::None)`
# (scripts/peer-strategy's peer-generate), alternated round by round, CPU time (user +
# system) of each whole process. Prints a row per round and the ratio of the sums.
# Usage: scripts/bench-generate.sh [ROUNDS] [PUZZLES]   (defaults: 5 rounds of 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
n=${2:-10000}
cargo build --release --quiet
cargo build --release --quiet --manifest-path scripts/peer-strategy/Cargo.toml --bin peer-generate
ours=target/release/sudoku-batch
peer=scripts/peer-strategy/target/release/peer-generate
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu() { /usr/bin/time -f "%U %S" -o "$tmp/t" "$@" >/dev/null 2>&1; awk '{print $1 + $2}' "$tmp/t"; }
echo "round peer_cpu_s ours_cpu_s ours_per_cpu_s_over_peer"
sp=0; so=0
for i in $(seq "$rounds"); do
  p=$(cpu "$peer" "$n")
  o=$(cpu "$ours" generate -n "$n" --minimal -j 1 -q -o "$tmp/ours.txt" --seed "$i")
  echo "$i $p $o $(awk -v p="$p" -v o="$o" 'BEGIN { printf "%.2f", p / o }')"
  sp=$(awk -v a="$sp" -v b="$p" 'BEGIN { print a + b }')
  so=$(awk -v a="$so" -v b="$o" 'BEGIN { print a + b }')
done
awk -v p="$sp" -v o="$so" -v n="$n" -v r="$rounds" 'BEGIN {
  printf "total: peer %.2f s (%.0f puzzles/s), ours %.2f s (%.0f puzzles/s): %.2fx\n",
    p, n * r / p, o, n * r / o, p / o }'
