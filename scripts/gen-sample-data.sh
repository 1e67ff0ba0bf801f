#!/usr/bin/env bash
# Regenerates the sample in data/ with our own seeded generator (examples/generate.rs):
# minimal puzzles with unique solutions, as a lines file and a Kaggle-layout CSV.
# Deterministic for a seed: running it again gives the same bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
seed="${1:-2026}"
count="${2:-2000}"
cargo run --release --quiet --example generate -- "$seed" "$count" data/sample.txt data/sample_kaggle.csv
echo "wrote $count puzzles (seed $seed) to data/sample.txt and data/sample_kaggle.csv"
