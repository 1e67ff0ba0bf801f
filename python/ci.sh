#!/usr/bin/env bash
# CI of the Python package (issue 31): a venv under target/, the extension built in release
# by maturin, then pytest (which compares against the release CLI, so `cargo test --release`
# or `cargo build --release` runs first). Exits non-zero on any failure, including pytest
# collecting no test (its exit 5).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=${SUDOKU_BATCH_VENV:-$root/target/python-venv}
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r python/requirements-ci.txt
# The CLI the equivalence tests run (already built by `cargo test --release`).
cargo build --release --quiet --bin sudoku-batch
# The extension shares target/ so the dependencies built for the CLI are reused.
VIRTUAL_ENV=$venv PATH="$venv/bin:$PATH" CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target} \
    maturin develop --release --quiet -m python/Cargo.toml
cd python
status=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider tests || status=$?
if [ "$status" -eq 5 ]; then
    echo "python/ci.sh: pytest collected no test" >&2
    exit 1
fi
exit "$status"
