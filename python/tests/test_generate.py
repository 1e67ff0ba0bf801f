"""generate: every puzzle unique and (with minimal) minimal, the CLI's rows for the same
options, the same at any thread count, rating targets filled, exclusions kept out."""

from __future__ import annotations

import csv

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import assert_solution, run_cli


def removable_givens(puzzle: np.ndarray) -> int:
    """Givens whose removal leaves the puzzle with one solution (0 for a minimal puzzle)."""
    cells = np.flatnonzero(puzzle)
    less = np.repeat(puzzle[None, :], len(cells), axis=0)
    less[np.arange(len(cells)), cells] = 0
    return int((sb.solve(less).status == sb.SOLVED).sum())


def test_minimal_puzzles_are_unique_and_minimal():
    g = sb.generate(40, seed=3, minimal=True)
    assert g.complete
    assert g.puzzles.shape == (40, 81) and g.puzzles.dtype == np.uint8
    assert g.solutions.shape == (40, 81) and g.solutions.dtype == np.uint8
    assert (g.clues == (g.puzzles != 0).sum(axis=1)).all()
    assert np.isnan(g.rating).all() and (g.bin == 0).all()
    solved = sb.solve(g.puzzles)
    assert (solved.status == sb.SOLVED).all(), "every puzzle has exactly one solution"
    assert (solved.solutions == g.solutions).all()
    for p, s in zip(g.puzzles, g.solutions):
        assert_solution(p, s)
        assert removable_givens(p) == 0


def test_the_rows_of_the_cli_at_any_thread_count(cli, tmp_path):
    out = tmp_path / "g.csv"
    done = run_cli(cli, "generate", "-q", "-n", "30", "--seed", "9", "--clues", "24..30", "-o", str(out))
    assert done.returncode == 0, done.stderr
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    one = sb.generate(30, seed=9, clues=(24, 30), threads=1)
    two = sb.generate(30, seed=9, clues=(24, 30), threads=2)
    assert (one.puzzles == two.puzzles).all() and (one.seed == two.seed).all()
    assert (sb.from_strings([r["puzzle"] for r in rows]) == one.puzzles).all()
    assert (sb.from_strings([r["solution"] for r in rows]) == one.solutions).all()
    assert [int(r["seed"]) for r in rows] == one.seed.tolist()
    assert ((one.clues >= 24) & (one.clues <= 30)).all()


def test_a_rating_target_fills_each_bin():
    g = sb.generate(30, seed=1, rating="3")
    assert g.complete
    assert np.bincount(g.bin, minlength=3).tolist() == [10, 10, 10]
    # The rating of each row is rate's, and lies in its bin (three equal bins over 0..3).
    assert np.allclose(sb.rate(g.puzzles).rating, g.rating)
    lo = g.bin.astype(float)
    assert ((g.rating >= lo) & ((g.bin == 2) | (g.rating < lo + 1))).all()


def test_excluded_isomorphs_are_kept_out():
    first = sb.generate(20, seed=5)
    held_out = sb.augment(first.puzzles, first.solutions, k=1, seed=2).puzzles
    again = sb.generate(20, seed=5, exclude=held_out)
    assert (sb.overlap(held_out, again.puzzles) < 0).all()
    assert (sb.overlap(held_out, first.puzzles) >= 0).all(), "the isomorphs are of these"


def test_bad_options_name_themselves():
    with pytest.raises(ValueError, match="symmetry"):
        sb.generate(1, symmetry="spiral")
    with pytest.raises(ValueError, match="clues"):
        sb.generate(1, clues=(10, 20))
    with pytest.raises(ValueError, match="rating"):
        sb.generate(1, rating="0")
