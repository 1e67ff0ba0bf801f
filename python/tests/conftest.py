"""Shared fixtures: the repository's paths, the shared data set (``../shared`` beside the
repository, skipped with a reason when absent), the release CLI, and the Sudoku rule checks
every test uses on a solution."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]
REPO = PYTHON_DIR.parent
# `../shared` beside the repository, as in CI; SUDOKU_BATCH_SHARED points elsewhere (a worktree).
SHARED = Path(os.environ.get("SUDOKU_BATCH_SHARED", REPO.parent / "shared"))
CASES = SHARED / "cases" / "inputs"
SHARED_DATA = SHARED / "data"
CLI = Path(os.environ.get("SUDOKU_BATCH_CLI", REPO / "target" / "release" / "sudoku-batch"))


def shared(path: str) -> Path:
    """A file of the shared data, or a skip saying it is absent."""
    p = SHARED / path
    if not p.exists():
        pytest.skip(f"shared data absent: {p} (the tests expect ../shared beside the repository)")
    return p


@pytest.fixture(scope="session")
def cli() -> Path:
    """The release CLI, built by ``cargo build --release`` (``cargo test --release`` in CI)."""
    if not CLI.exists():
        pytest.skip(f"no CLI at {CLI}: run `cargo build --release` first")
    return CLI


def run_cli(cli: Path, *args: str, threads: int | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if threads is not None:
        env["RAYON_NUM_THREADS"] = str(threads)
    return subprocess.run([str(cli), *args], capture_output=True, text=True, env=env, check=False)


def kaggle_rows(path: Path, n: int | None = None) -> tuple[list[str], list[str]]:
    """Puzzles and solutions of a Kaggle-layout CSV (``quizzes,solutions``)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    body = rows[1:] if n is None else rows[1 : n + 1]
    return [r[0] for r in body], [r[1] for r in body]


UNITS = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [[(br * 3 + r) * 9 + bc * 3 + c for r in range(3) for c in range(3)] for br in range(3) for bc in range(3)]
)


def assert_solution(puzzle: np.ndarray, solution: np.ndarray) -> None:
    """``solution`` is a full valid grid (every row, column and box holds 1-9 once) that
    keeps every given of ``puzzle``."""
    puzzle = np.asarray(puzzle).reshape(81)
    solution = np.asarray(solution).reshape(81)
    for unit in UNITS:
        assert sorted(solution[unit].tolist()) == list(range(1, 10)), (solution, unit)
    givens = puzzle != 0
    assert (solution[givens] == puzzle[givens]).all(), "a given was changed"


def cells(text: str) -> np.ndarray:
    """An 81-character puzzle as 81 uint8 cells, 0 = empty."""
    return np.array([0 if ch in ".0" else int(ch) for ch in text], dtype=np.uint8)


def read_puzzles(path: Path, n: int | None = None) -> np.ndarray:
    """The first ``n`` puzzles of a file, read as the CLI reads it (comments skipped)."""
    import sudoku_batch as sb

    batches = [b["puzzles"][b["valid"]] for b in sb.read(path)]
    out = np.concatenate(batches) if batches else np.zeros((0, 81), np.uint8)
    return out if n is None else out[:n]
