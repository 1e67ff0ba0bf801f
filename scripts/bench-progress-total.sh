#!/usr/bin/env bash
# What the progress bar's record total costs end to end (issue 11): `solve FILE` under a
# pseudo-terminal (the bar is shown, so the records are counted first) against the same run
# with --quiet (no bar, no count), in alternating rounds on one machine; prints each
# round's wall seconds and the median ratio shown/quiet.
#
#   scripts/bench-progress-total.sh FILE [ROUNDS] [THREADS]
set -euo pipefail
file=${1:?usage: $0 FILE [ROUNDS] [THREADS]}
rounds=${2:-5}
threads=${3:-2}
bin=${BIN:-target/release/sudoku-batch}
secs() {
    local t0 t1
    t0=$(date +%s.%N)
    script -qfc "$bin solve $file -o /dev/null -j $threads $*" /dev/null >/dev/null 2>&1 || true
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc -l
}
shown=() quiet=()
for ((i = 0; i < rounds; i++)); do
    shown+=("$(secs)")
    quiet+=("$(secs --quiet)")
    printf 'round %d: shown %.3f s, quiet %.3f s\n' "$i" "${shown[-1]}" "${quiet[-1]}"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms=$(median "${shown[@]}") mq=$(median "${quiet[@]}")
printf 'median: shown %.3f s, quiet %.3f s, ratio %.3f\n' "$ms" "$mq" "$(echo "$ms / $mq" | bc -l)"
