"""canonical against the shared minlex reference; augment, apply_transforms and invert
round trips; rate, overlap and dedupe on isomorphs."""

from __future__ import annotations

import csv

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import REPO, assert_solution, kaggle_rows, shared, read_puzzles


def test_canonical_matches_minlex_reference():
    path = shared("data/canon/minlex_reference.csv")
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows, "the reference has rows"
    puzzles = [r["puzzle"] for r in rows]
    forms = sb.canonical(puzzles)
    assert forms.shape == (len(rows), 81) and forms.dtype == np.uint8
    assert sb.to_strings(forms) == [r["minlex"] for r in rows]


def test_augment_round_trip_and_canonical_invariance():
    puzzles, solutions = kaggle_rows(REPO / "data" / "sample_kaggle.csv", 200)
    p = sb.from_strings(puzzles)
    s = sb.from_strings(solutions)
    k = 4
    aug = sb.augment(p, s, k=k, seed=7)
    assert aug.puzzles.shape == (200 * k, 81) and aug.solutions.shape == (200 * k, 81)
    assert aug.transforms.shape == (200 * k,) and aug.transforms.dtype == np.dtype("S31")
    assert (aug.source == np.repeat(np.arange(200), k)).all()
    for i in range(0, 200 * k, 37):
        assert_solution(aug.puzzles[i], aug.solutions[i])
    # The transform codes rebuild the augmented rows from the originals, and undo them.
    assert (sb.apply_transforms(p[aug.source], aug.transforms) == aug.puzzles).all()
    assert (sb.invert(aug.puzzles, aug.transforms) == p[aug.source]).all()
    assert (sb.invert(aug.solutions, aug.transforms) == s[aug.source]).all()
    # Codes given as str behave as the bytes codes.
    codes = [c.decode() for c in aug.transforms[:10]]
    assert (sb.invert(aug.puzzles[:10], codes) == p[aug.source[:10]]).all()
    # Isomorphs share the canonical form; the draws are a function of (seed, row, j).
    assert (sb.canonical(aug.puzzles) == sb.canonical(p)[aug.source]).all()
    again = sb.augment(p, s, k=k, seed=7)
    assert (again.puzzles == aug.puzzles).all()
    other = sb.augment(p, s, k=k, seed=8)
    assert not (other.puzzles == aug.puzzles).all()
    # Row i of a slice keyed key_start + i draws as row key_start + i of the whole.
    part = sb.augment(p[50:60], s[50:60], k=k, seed=7, key_start=50)
    assert (part.puzzles == aug.puzzles[50 * k : 60 * k]).all()
    # Without solutions, the puzzles are solved first.
    solved_here = sb.augment(p[:20], None, k=2, seed=7, return_transforms=False)
    assert solved_here.transforms is None
    assert (solved_here.solutions == sb.augment(p[:20], s[:20], k=2, seed=7).solutions).all()


def test_voting_over_isomorphs_recovers_the_answer():
    """The evaluation the issue describes: a model's answers on isomorphs, mapped back."""
    puzzles, solutions = kaggle_rows(REPO / "data" / "sample_kaggle.csv", 30)
    aug = sb.augment(puzzles, solutions, k=5, seed=1)
    predictions = sb.solve(aug.puzzles).solutions  # a perfect "model"
    back = sb.invert(predictions, aug.transforms).reshape(30, 5, 81)
    assert (back == sb.from_strings(solutions)[:, None, :]).all()


def test_bad_transform_codes_and_rows_raise():
    with pytest.raises(ValueError, match="transforms row 1"):
        sb.apply_transforms(np.zeros((2, 81), np.uint8), ["0-012345678-012345678-123456789", "0-012345678-012345678-123456788"])
    with pytest.raises(ValueError, match="31 characters"):
        sb.invert(np.zeros((1, 81), np.uint8), ["0-012"])
    with pytest.raises(ValueError, match="2 grids but 1"):
        sb.invert(np.zeros((2, 81), np.uint8), ["0-012345678-012345678-123456789"])
    with pytest.raises(ValueError, match="puzzles row 1"):
        sb.canonical(["." * 81, "." * 80])
    with pytest.raises(ValueError, match="no unique solution"):
        sb.augment(["." * 81], None, k=1)


def test_identity_code():
    g = sb.from_strings(kaggle_rows(REPO / "data" / "sample_kaggle.csv", 1)[0])
    assert (sb.apply_transforms(g, ["0-012345678-012345678-123456789"]) == g).all()


def test_rate_is_the_same_for_isomorphs():
    puzzles = read_puzzles(shared("data/forum_hardest_1106.txt"), 20)
    aug = sb.augment(puzzles, None, k=2, seed=3)
    base = sb.rate(puzzles, samples=4, seed=0)
    iso = sb.rate(aug.puzzles, samples=4, seed=0)
    assert base.rated.all() and base.rating.dtype == np.float64
    assert (iso.rating == base.rating[aug.source]).all()
    assert (iso.min == base.min[aug.source]).all() and (iso.max == base.max[aug.source]).all()
    assert (base.min <= base.median).all() and (base.median <= base.max).all()
    # Hard puzzles need guesses: none of these is solved by singles alone.
    assert not base.singles_only.any() and (base.rating > 0).all()
    not_unique = sb.rate(["." * 81], samples=2)
    assert not not_unique.rated[0] and np.isnan(not_unique.rating[0])


def test_overlap_and_dedupe_find_isomorphs():
    puzzles, _ = kaggle_rows(REPO / "data" / "sample_kaggle.csv", 100)
    train = puzzles[:60]
    iso = sb.augment(puzzles[50:70], None, k=1, seed=9)
    test = list(puzzles[60:100]) + sb.to_strings(iso.puzzles)
    found = sb.overlap(train, test)
    assert found.dtype == np.int64 and found.shape == (60,)
    assert (found[:40] == -1).all()  # rows 60..99 are new
    # Isomorphs of rows 50..59 are in train; those of 60..69 are not.
    assert found[40:50].tolist() == list(range(50, 60))
    assert (found[50:] == -1).all()
    firsts = sb.dedupe(list(puzzles) + sb.to_strings(iso.puzzles))
    assert (firsts[:100] == -1).all()
    assert firsts[100:].tolist() == list(range(50, 70))
