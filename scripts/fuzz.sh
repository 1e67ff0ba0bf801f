#!/usr/bin/env bash
# Bounded fuzzing of the puzzle parser, the input readers and the solver (issue 5).
#
#   scripts/fuzz.sh            60 s per target
#   scripts/fuzz.sh SECONDS    SECONDS per target
#   scripts/fuzz.sh --smoke    about 1 minute in all (15 s per target), for CI
#
# Uses cargo-fuzz (libFuzzer), which needs a nightly toolchain: `cargo install cargo-fuzz`.
# Without cargo-fuzz or nightly, --smoke falls back to the proptest smoke
# (tests/cli/library/properties.rs), which runs in `cargo test` anyway; a longer run then fails with
# a note. Seeds come from ../shared/cases/inputs and data/ when present. A crash stops the
# run with the input saved under fuzz/artifacts/TARGET/: turn it into a regression test
# (FUZZING.md says how) before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=60
smoke=0
case "${1:-}" in
  --smoke) secs=15; smoke=1 ;;
  "") ;;
  *[!0-9]*) echo "usage: $0 [--smoke | SECONDS]" >&2; exit 2 ;;
  *) secs=$1 ;;
esac

if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  if [ "$smoke" = 1 ]; then
    echo "fuzz.sh: cargo-fuzz or a nightly toolchain is missing; running the proptest smoke instead"
    exec cargo test --release --test cli -- library::properties
  fi
  echo "fuzz.sh: needs cargo-fuzz and a nightly toolchain (cargo install cargo-fuzz)" >&2
  exit 2
fi

# Seed corpora (kept out of git by .gitignore; made once).
seed() {
  local dir=fuzz/corpus/$1
  [ -d "$dir" ] && return
  mkdir -p "$dir"
  local i=0
  case $1 in
    parse_cells)
      head -n 50 data/sample.txt | while IFS= read -r line; do
        printf '%s' "${line:0:81}" > "$dir/sample$((i++))"
      done
      printf '4.972E+80' > "$dir/scientific" ;;
    read_input)
      for f in ../shared/cases/inputs/* data/sample_kaggle.csv; do
        [ -f "$f" ] || continue
        for knob in 0 1 2 16; do
          { printf "\\$(printf '%03o' "$knob")"; head -c 4096 "$f"; } > "$dir/$(basename "$f").$knob"
        done
      done ;;
    solve)
      head -c 4096 /dev/urandom > "$dir/random" ;;
  esac
}

status=0
for target in parse_cells read_input solve; do
  seed "$target"
  case $target in
    parse_cells) max_len=256 ;;
    read_input) max_len=4096 ;;
    solve) max_len=128 ;;
  esac
  echo "== fuzz $target for ${secs}s"
  if ! cargo +nightly fuzz run "$target" -- \
      -max_total_time="$secs" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 2>&1 | tail -n 25; then
    echo "fuzz.sh: $target FAILED: see fuzz/artifacts/$target/" >&2
    status=1
  fi
done
exit $status
