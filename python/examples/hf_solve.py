"""Solves the puzzle column of a Parquet dataset with Hugging Face ``datasets``
(``Dataset.map(batched=True)``, Arrow batches) and writes solutions and status to Parquet.

    pip install datasets
    python examples/hf_solve.py IN.parquet OUT.parquet [--column quizzes]

Works the same on a hub dataset (``load_dataset("name", split="train")``) once it is
downloaded. Output columns: the input's, plus ``solution`` (81 digits, empty when none was
found), ``status`` (the CLI's words) and ``status_code`` (uint8).
"""

from __future__ import annotations

import argparse

import numpy as np
import pyarrow as pa
from datasets import Dataset

import sudoku_batch as sb


def solve_batch(batch: pa.Table, column: str = "quizzes") -> pa.Table:
    """One batch (``format="arrow"``): the puzzle column goes to ``solve`` as Arrow strings;
    the batch comes back with the new columns appended."""
    found = sb.solve(batch.column(column))
    solutions = np.array(sb.to_strings(found.solutions, blank="0"), dtype=object)
    solutions[found.counts == 0] = ""
    return (
        batch.append_column("solution", pa.array(solutions, pa.string()))
        .append_column("status", pa.array(found.status_names(), pa.string()))
        .append_column("status_code", pa.array(found.status))
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--column", default="quizzes")
    ap.add_argument("--batch-size", type=int, default=65536)
    args = ap.parse_args()
    ds = Dataset.from_parquet(args.src).with_format("arrow")
    solved = ds.map(
        solve_batch, batched=True, batch_size=args.batch_size, fn_kwargs={"column": args.column}
    )
    solved.with_format(None).to_parquet(args.dst)


if __name__ == "__main__":
    main()
