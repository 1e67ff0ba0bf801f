"""trace: the CLI's summary, steps and Shah rows for the same puzzles; every status."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

import sudoku_batch as sb
from conftest import REPO, assert_solution, read_puzzles, run_cli


def test_the_cli_s_columns_steps_and_shah_rows(cli, tmp_path):
    path = REPO / "data" / "sample.txt"
    puzzles = read_puzzles(path, 150)
    src = tmp_path / "p.txt"
    src.write_text("\n".join(sb.to_strings(puzzles)) + "\n")
    out = tmp_path / "t.csv"
    done = run_cli(cli, "trace", "-q", str(src), "-o", str(out))
    assert done.returncode == 0, done.stderr
    csv.field_size_limit(1 << 30)
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    t = sb.trace(puzzles, json=True)
    assert (t.status == sb.SOLVED).all()
    for col in ("hardest_code", "steps", "placements", "eliminations", "guesses", "backtracks", "max_depth"):
        assert getattr(t, col).tolist() == [int(r[col]) for r in rows], col
    assert t.steps_json == [r["trace"] for r in rows]
    assert (sb.from_strings([r["solution"] for r in rows]) == t.solutions).all()
    for p, s in zip(puzzles, t.solutions):
        assert_solution(p, s)
    # The Shah rows equal the npz output's, and start with the number of givens.
    npz = tmp_path / "t.npz"
    assert run_cli(cli, "trace", "-q", str(src), "-o", str(npz)).returncode == 0
    assert (np.load(npz)["shah"] == t.shah).all()
    assert (t.shah[:, 0] == (puzzles != 0).sum(axis=1)).all()
    # Placements only: every step a placement or a guess that stands in the solution.
    only = sb.trace(puzzles[:20], json=True, placements_only=True)
    for steps, solution in zip(only.steps_json, only.solutions):
        for step in json.loads(steps):
            assert step["kind"] in ("placement", "guess")
            assert solution[step["cell"]] == step["digit"]


def test_every_status():
    solved = sb.from_strings(["..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"])
    rows = np.concatenate([
        solved,
        sb.from_strings(["11" + "." * 79]),  # two 1s in row 1
        sb.from_strings(["." * 81]),  # many solutions
        sb.from_strings(["12345678." + "." * 8 + "9" + "." * 63]),  # r1c9 has no candidate
    ])
    t = sb.trace(rows)
    assert t.status.tolist() == [sb.SOLVED, sb.INVALID, sb.MULTIPLE, sb.UNSOLVABLE]
    assert t.steps_json is None
    assert t.hardest_code[1] == -1 and (t.solutions[1] == 0).all()
    assert_solution(rows[0], t.solutions[0])
    assert_solution(rows[2], t.solutions[2])
    assert (t.solutions[3] == 0).all()
    assert (t.steps == t.placements + t.eliminations + t.guesses + t.backtracks).all()


def _as_json_step(step: dict) -> dict:
    """A Parquet step (a dict of every field) as the JSON Lines step: null fields and
    ``undone: false`` left out, ``removed`` pairs as ``[cell, digit]``."""
    out = {k: v for k, v in step.items() if v is not None and not (k == "undone" and v is False)}
    if "removed" in out:
        out["removed"] = [[p["cell"], p["digit"]] for p in out["removed"]]
    return out


def test_parquet_trace_column_is_a_list_of_steps(cli, tmp_path):
    """With the CLI built with ``--features parquet``, pyarrow reads the ``trace`` column as
    ``list<struct>`` whose steps are the JSON Lines steps (skipped on a build without it)."""
    pq = pytest.importorskip("pyarrow.parquet")
    src = tmp_path / "p.txt"
    src.write_text("\n".join((REPO / "data" / "sample.txt").read_text().splitlines()[:40]) + "\n")
    out = tmp_path / "t.parquet"
    done = run_cli(cli, "trace", "-q", str(src), "-o", str(out))
    if done.returncode == 2 and "writes no Parquet" in done.stderr:
        pytest.skip("the CLI is built without the `parquet` feature")
    assert done.returncode == 0, done.stderr
    jsonl = tmp_path / "t.jsonl"
    assert run_cli(cli, "trace", "-q", str(src), "-o", str(jsonl)).returncode == 0
    want = [json.loads(line)["trace"] for line in jsonl.read_text().splitlines()]
    table = pq.read_table(out)
    step_type = table.schema.field("trace").type.value_type
    assert [f.name for f in step_type] == [
        "n", "kind", "technique", "cell", "digit", "cells", "digits", "base", "cover", "removed", "depth", "undone",
    ]
    got = [[_as_json_step(s) for s in steps] for steps in table.column("trace").to_pylist()]
    assert got == want
    assert any(s["kind"] == "backtrack" for steps in got for s in steps)
