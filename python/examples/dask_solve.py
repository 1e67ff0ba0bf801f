"""Solves the puzzle column of a Parquet dataset with Dask, one ``sudoku_batch.solve`` call
per partition, and writes each row's solution and status back to Parquet.

    python examples/dask_solve.py IN.parquet OUT_DIR [--column quizzes] [--scheduler threads]

Local and threaded by default (``dask.config.set(scheduler="threads")``); the same
``map_partitions`` runs unchanged on a ``dask.distributed`` cluster. Output columns: the
input's, plus ``solution`` (81 digits, empty when none was found), ``status`` (``solved``,
``multiple``, ``unsolvable``, ``invalid``: the CLI's words) and ``status_code`` (uint8,
``sudoku_batch.SOLVED`` ...).
"""

from __future__ import annotations

import argparse

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pyarrow as pa

import sudoku_batch as sb


def solve_partition(df: pd.DataFrame, column: str = "quizzes") -> pd.DataFrame:
    """One partition: its puzzle column solved, as new columns beside the input's."""
    found = sb.solve(pa.array(df[column], type=pa.string()))
    solutions = np.array(sb.to_strings(found.solutions, blank="0"), dtype=object)
    solutions[found.counts == 0] = ""
    out = df.copy()
    out["solution"] = pd.array(solutions, dtype="string")
    out["status"] = pd.array(found.status_names(), dtype="string")
    out["status_code"] = found.status
    return out


def solve_parquet(src: str, dst: str, column: str = "quizzes", scheduler: str = "threads") -> None:
    """Reads ``src``, solves ``column`` partition by partition, writes ``dst`` (a directory)."""
    df = dd.read_parquet(src)
    meta = solve_partition(df._meta, column)
    solved = df.map_partitions(solve_partition, column, meta=meta)
    with dask.config.set(scheduler=scheduler):
        solved.to_parquet(dst, write_index=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--column", default="quizzes")
    ap.add_argument("--scheduler", default="threads")
    args = ap.parse_args()
    solve_parquet(args.src, args.dst, args.column, args.scheduler)


if __name__ == "__main__":
    main()
