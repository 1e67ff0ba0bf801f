"""read: batches from every layout the CLI reads, with record and line numbers."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import REPO, kaggle_rows, shared


def test_read_kaggle_csv_in_batches():
    path = REPO / "data" / "sample_kaggle.csv"
    puzzles, solutions = kaggle_rows(path)
    batches = list(sb.read(path, batch_size=700))
    assert [len(b["record"]) for b in batches[:-1]] == [700] * (len(batches) - 1)
    record = np.concatenate([b["record"] for b in batches])
    line = np.concatenate([b["line"] for b in batches])
    assert (record == np.arange(len(puzzles))).all()
    assert (line == np.arange(len(puzzles)) + 2).all()  # line 1 is the header
    got = np.concatenate([b["puzzles"] for b in batches])
    assert (got == sb.from_strings(puzzles)).all()
    assert (np.concatenate([b["solutions"] for b in batches]) == sb.from_strings(solutions)).all()
    assert all(b["valid"].all() and not b["errors"] for b in batches)


def test_read_lines_with_bad_rows_and_gzip(tmp_path):
    src = shared("cases/inputs/c39_order_and_bad_rows.txt")
    packed = tmp_path / "c39.txt.gz"
    packed.write_bytes(gzip.compress(src.read_bytes()))
    for path in (src, packed):
        (batch,) = list(sb.read(path))
        # 12 lines, line 9 blank: 11 records.
        assert batch["line"].tolist() == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12]
        assert batch["valid"].tolist() == [True, False, True, False, True, True, False, True, True, True, True]
        assert sorted(batch["errors"]) == [1, 3, 6]
        assert "80 characters" in batch["errors"][1]
        assert batch["solutions"] is None
        # The clashing row parses (it is a puzzle, just an invalid one).
        out = sb.solve(batch["puzzles"][batch["valid"]])
        assert out.status_names().tolist() == [
            "solved", "solved", "invalid", "solved", "solved", "unsolvable", "multiple", "solved"
        ]


def test_read_named_columns(tmp_path):
    path = tmp_path / "t.tsv"
    puzzles, solutions = kaggle_rows(REPO / "data" / "sample_kaggle.csv", 5)
    path.write_text("id\tanswer\tclues\n" + "".join(f"{i}\t{s}\t{p}\n" for i, (p, s) in enumerate(zip(puzzles, solutions))))
    (batch,) = list(sb.read(path, puzzle_column="clues", solution_column="answer"))
    assert (batch["puzzles"] == sb.from_strings(puzzles)).all()
    assert (batch["solutions"] == sb.from_strings(solutions)).all()


def test_read_errors():
    with pytest.raises(OSError):
        list(sb.read(REPO / "no" / "such" / "file.txt"))
    with pytest.raises(ValueError):
        sb.read(REPO / "data" / "sample_kaggle.csv", batch_size=0)
