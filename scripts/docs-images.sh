#!/usr/bin/env bash
# Redraws the charts the README, the guide and BENCHMARKS.md show (docs/img/) from the
# sample data and the bench-peers table, with the release build of this checkout.
# Usage: scripts/docs-images.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/sudoku-batch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" verify -q data/sample_kaggle.csv --report "$tmp/sample_kaggle.verify.json"
"$bin" rate -q data/sample_kaggle.csv -o "$tmp/sample_kaggle.ratings.csv"
"$bin" report plot "$tmp/sample_kaggle.verify.json" "$tmp/sample_kaggle.ratings.csv" \
    benches/results/peers-tdoku.csv -o docs/img
