"""The package and the CLI give the same results on the same rows: the shared Kaggle
sample, a fault case with bad rows, and the Dask example's Parquet output."""

from __future__ import annotations

import csv
import sys

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import PYTHON_DIR, REPO, kaggle_rows, run_cli, shared


def cli_solve(cli, path, tmp_path, *extra: str) -> tuple[list[dict], list[dict]]:
    """The CLI's solve table and per-record stats for ``path``."""
    out, stats = tmp_path / "cli.csv", tmp_path / "stats.csv"
    done = run_cli(cli, "solve", str(path), "-o", str(out), "--stats", str(stats), "-q", *extra)
    assert done.returncode in (0, 1), done.stderr
    with open(out, newline="") as f:
        table = list(csv.DictReader(f))
    with open(stats, newline="") as f:
        per_record = list(csv.DictReader(f))
    return table, per_record


def test_same_results_as_the_cli_on_the_shared_kaggle_sample(cli, tmp_path):
    path = shared("data/kaggle_1m_sample.csv")
    puzzles, _ = kaggle_rows(path)
    table, stats = cli_solve(cli, path, tmp_path)
    found = sb.solve(puzzles)
    assert len(table) == len(puzzles) == len(found)
    assert [r["quizzes"] for r in table] == puzzles
    assert sb.to_strings(found.solutions, blank="0") == [r["solution"] for r in table]
    assert found.status_names().tolist() == [r["status"] for r in table]
    assert found.counts.tolist() == [int(r["solutions"]) for r in stats]
    assert found.guesses.tolist() == [int(r["guesses"]) for r in stats]


def test_same_statuses_as_the_cli_on_bad_rows(cli, tmp_path):
    path = shared("cases/inputs/c39_order_and_bad_rows.txt")
    table, _ = cli_solve(cli, path, tmp_path, "--output-format", "csv")
    (batch,) = list(sb.read(path))
    found = sb.solve(batch["puzzles"])
    status = np.where(batch["valid"], found.status, sb.INVALID)
    assert [sb.STATUS_NAMES[s] for s in status] == [r["status"] for r in table]
    assert batch["line"].tolist() == [int(r["line"]) for r in table]
    solved = [r["solution"] for r in table]
    ours = sb.to_strings(found.solutions, blank="0")
    assert [s if ok and c else "" for s, ok, c in zip(ours, batch["valid"], found.counts)] == solved


def test_dask_example_matches_the_cli(cli, tmp_path):
    pytest.importorskip("dask.dataframe")
    sys.path.insert(0, str(PYTHON_DIR / "examples"))
    try:
        from dask_solve import solve_parquet
        from make_parquet import make_parquet
    finally:
        sys.path.pop(0)
    import dask.dataframe as dd

    src_csv = REPO / "data" / "sample_kaggle.csv"
    src = tmp_path / "sample.parquet"
    rows = make_parquet(str(src_csv), str(src), row_group_size=300)
    dst = tmp_path / "solved"
    solve_parquet(str(src), str(dst))
    got = dd.read_parquet(str(dst)).compute().reset_index(drop=True)
    table, _ = cli_solve(cli, src_csv, tmp_path)
    assert len(got) == rows == len(table)
    assert got["quizzes"].tolist() == [r["quizzes"] for r in table]
    assert got["solutions"].tolist() == [r["solutions"] for r in table]
    assert got["solution"].tolist() == [r["solution"] for r in table]
    assert got["status"].tolist() == [r["status"] for r in table]
    assert (got["status_code"].to_numpy() == sb.SOLVED).all()
