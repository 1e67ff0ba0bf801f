"""solve: every input form, solutions against the rules and the givens, statuses on the
shared fault cases, bad rows in the middle of a batch, thread counts."""

from __future__ import annotations

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import CASES, REPO, assert_solution, cells, kaggle_rows, shared, read_puzzles

PLATINUM = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"
C03_SOLUTION = "652483917978162435314975628825736149791824563436519872269348751547291386183657294"


def sample() -> tuple[list[str], list[str]]:
    return kaggle_rows(REPO / "data" / "sample_kaggle.csv")


def test_numpy_rows_solved_and_match_stored_solutions():
    puzzles, solutions = sample()
    arr = sb.from_strings(puzzles)
    assert arr.shape == (len(puzzles), 81) and arr.dtype == np.uint8
    out = sb.solve(arr)
    assert out.solutions.shape == arr.shape and out.solutions.dtype == np.uint8
    assert out.status.dtype == np.uint8 and out.counts.dtype == np.uint32
    assert (out.status == sb.SOLVED).all()
    assert (out.counts == 1).all()
    for i in range(0, len(puzzles), 97):
        assert_solution(arr[i], out.solutions[i])
    # The Kaggle set's puzzles are unique, so the solver's solution is the stored one.
    assert (out.solutions == sb.from_strings(solutions)).all()
    assert out.errors == {}


def test_every_input_form_gives_the_same_result():
    pa = pytest.importorskip("pyarrow")
    puzzles, _ = sample()
    puzzles = puzzles[:300]
    base = sb.solve(puzzles)
    arr = sb.from_strings(puzzles)
    forms = {
        "uint8": arr,
        "int64": arr.astype(np.int64),
        "9x9": arr.reshape(-1, 9, 9),
        "lists": arr.tolist(),
        "bytes": [p.encode() for p in puzzles],
        "numpy str": np.array(puzzles),
        "utf8": pa.array(puzzles, pa.string()),
        "large_utf8": pa.array(puzzles, pa.large_string()),
        "utf8_view": pa.array(puzzles, pa.string_view()),
        "chunked": pa.chunked_array([puzzles[:100], puzzles[100:]]),
        "table column": pa.table({"quizzes": puzzles})["quizzes"],
    }
    for name, form in forms.items():
        out = sb.solve(form)
        assert (out.solutions == base.solutions).all(), name
        assert (out.status == base.status).all(), name
        assert (out.guesses == base.guesses).all(), name


def test_one_puzzle_and_empty_batch():
    out = sb.solve(PLATINUM)
    assert out.status.tolist() == [sb.SOLVED]
    assert_solution(cells(PLATINUM), out.solutions[0])
    empty = sb.solve(np.zeros((0, 81), np.uint8))
    assert len(empty) == 0 and empty.solutions.shape == (0, 81)
    assert len(sb.solve([])) == 0


def test_bad_rows_in_the_middle_do_not_touch_the_others():
    puzzles, _ = sample()
    good = puzzles[:50]
    alone = sb.solve(good)
    bad = ["12" * 40, None, "x" * 81, "11" + "." * 79, 7]
    mixed = good[:20] + bad + good[20:]
    out = sb.solve(mixed)
    assert len(out) == len(good) + len(bad)
    keep = [i for i in range(len(mixed)) if not 20 <= i < 25]
    assert (out.solutions[keep] == alone.solutions).all()
    assert (out.status[keep] == alone.status).all()
    assert out.status[20:25].tolist() == [sb.INVALID] * 5
    assert (out.solutions[20:25] == 0).all()
    assert sorted(out.errors) == [20, 21, 22, 23, 24]
    assert "80 characters, expected 81" in out.errors[20]
    assert out.errors[21] == "expected a str, got NoneType"
    assert "'x'" in out.errors[22]
    assert "1 twice in row 1" in out.errors[23]
    assert out.errors[24] == "expected a str, got int"


def test_bad_cell_values_are_invalid_rows():
    arr = np.zeros((3, 81), np.int64)
    arr[0] = cells(PLATINUM)
    arr[1, 5] = 10
    arr[2] = cells(PLATINUM)
    arr[2, 0] = -1
    out = sb.solve(arr, limit=1)
    assert out.status.tolist() == [sb.SOLVED, sb.INVALID, sb.INVALID]
    assert out.errors[1].startswith("r1c6")
    assert out.errors[2].startswith("r1c1")


def test_limit_first_and_counts():
    # R2-09: exactly 5, 15, 90, 428 and 2244 solutions.
    lines = shared("cases/inputs/r2_09_counting_beyond_limit.txt").read_text().split()
    assert sb.solve(lines, limit=3000).counts.tolist() == [5, 15, 90, 428, 2244]
    capped = sb.solve(lines, limit=428)
    assert capped.counts.tolist() == [5, 15, 90, 428, 428]
    assert (capped.status == sb.MULTIPLE).all()
    first = sb.solve(lines, first=True)
    assert (first.status == sb.SOLVED).all() and (first.counts == 1).all()
    arr = sb.from_strings(lines)
    for i in range(len(lines)):
        assert_solution(arr[i], first.solutions[i])
        assert_solution(arr[i], capped.solutions[i])
    with pytest.raises(ValueError):
        sb.solve(lines, limit=0)


def case_lines(name: str) -> list[str]:
    path = shared(f"cases/inputs/{name}")
    return [line.rstrip("\r\n") for line in path.read_text(encoding="utf-8").splitlines()]


def test_shared_case_statuses():
    expect = {
        "c01_duplicate_givens.txt": [sb.INVALID],
        "c02_sparse_duplicates.txt": [sb.INVALID, sb.INVALID],
        "c06_unique_slow_check.txt": [sb.SOLVED],
        "c07_missing_clue.txt": [sb.MULTIPLE, sb.SOLVED],
        "c09_two_solutions.txt": [sb.MULTIPLE],
        "c10_invalid_board.txt": [sb.INVALID],
        "c13_already_solved.txt": [sb.SOLVED, sb.SOLVED],
        "c14_empty_grid.txt": [sb.MULTIPLE, sb.MULTIPLE],
        "c15_no_candidates.txt": [sb.UNSOLVABLE, sb.UNSOLVABLE],
        "c16_full_grid_invalid.txt": [sb.INVALID, sb.INVALID],
        "c28_many_solutions.txt": [sb.MULTIPLE],
    }
    for name, statuses in expect.items():
        lines = case_lines(name)
        out = sb.solve(lines)
        assert out.status.tolist() == statuses, name
        arr = sb.from_strings([line for line, s in zip(lines, statuses) if s != sb.INVALID] or [])
        solved = [i for i, s in enumerate(statuses) if s in (sb.SOLVED, sb.MULTIPLE)]
        valid = [i for i, s in enumerate(statuses) if s != sb.INVALID]
        for i in solved:
            assert_solution(arr[valid.index(i)], out.solutions[i])
        for i, s in enumerate(statuses):
            assert (out.errors.get(i) is not None) == (s == sb.INVALID), (name, i)
    # C07: exactly 26 solutions; C06/C07 unique solutions as published.
    assert sb.solve(case_lines("c07_missing_clue.txt")[:1], limit=100).counts.tolist() == [26]
    assert sb.to_strings(sb.solve(case_lines("c06_unique_slow_check.txt")).solutions) == [
        "321597864497816253865243197579182436642375981138964725986751342214639578753428619"
    ]


def test_c03_blank_aliases_and_bad_characters():
    lines = case_lines("c03_bad_characters.txt")
    out = sb.solve(lines)
    solved = sb.to_strings(out.solutions[:2])
    assert solved == [C03_SOLUTION, C03_SOLUTION]
    assert out.status[6] == sb.INVALID and "'a'" in out.errors[6]
    assert out.status[7] == sb.INVALID
    # Every other row is either solved with the same solution or invalid, never anything else.
    for i in range(2, 6):
        if out.status[i] == sb.SOLVED:
            assert sb.to_strings(out.solutions[i : i + 1]) == [C03_SOLUTION]
        else:
            assert out.status[i] == sb.INVALID


def test_c39_order_and_isolation():
    lines = [line for line in case_lines("c39_order_and_bad_rows.txt") if line.strip()]
    out = sb.solve(lines)
    names = out.status_names().tolist()
    assert names == [
        "solved", "invalid", "solved", "invalid", "invalid", "solved",
        "invalid", "solved", "unsolvable", "multiple", "solved",
    ]
    assert sb.to_strings(out.solutions[[0, 2]]) == [
        C03_SOLUTION,
        "864371259325849761971265843436192587198657432257483916689734125713528694542916378",
    ]


def test_threads_one_and_many_identical():
    puzzles = read_puzzles(shared("data/forum_hardest_1106.txt"), 400)
    one = sb.solve(puzzles, threads=1)
    many = sb.solve(puzzles, threads=3)
    default = sb.solve(puzzles)
    for other in (many, default):
        assert (one.solutions == other.solutions).all()
        assert (one.status == other.status).all()
        assert (one.counts == other.counts).all()
        assert (one.guesses == other.guesses).all()
    with pytest.raises(ValueError):
        sb.solve(puzzles, threads=0)


def test_wrong_argument_types_raise():
    with pytest.raises(ValueError):
        sb.solve(np.zeros((2, 80), np.uint8))
    with pytest.raises(TypeError):
        sb.solve(np.zeros((2, 81), np.float32))
    with pytest.raises(TypeError):
        sb.solve(3.5)
