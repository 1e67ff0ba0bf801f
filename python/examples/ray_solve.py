"""Solves the puzzle column of a Parquet dataset with Ray Data, one ``sudoku_batch.solve``
call per Arrow batch, and writes each row's solution and status back to Parquet.

    pip install "ray[data]"
    python examples/ray_solve.py IN.parquet OUT_DIR [--column quizzes]

Starts a local Ray instance bound to 127.0.0.1 (no dashboard); on a cluster, drop the
``ray.init`` arguments. Output columns: the input's, plus ``solution`` (81 digits, empty when
none was found), ``status`` (the CLI's words) and ``status_code`` (uint8).
"""

from __future__ import annotations

import argparse

import numpy as np
import pyarrow as pa
import ray

import sudoku_batch as sb


def solve_batch(batch: pa.Table, column: str = "quizzes") -> pa.Table:
    """One Arrow batch: the puzzle column goes to ``solve`` as Arrow strings, no copy."""
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
    ray.init(address="local", include_dashboard=False, _node_ip_address="127.0.0.1")
    try:
        ds = ray.data.read_parquet(args.src)
        solved = ds.map_batches(
            solve_batch,
            fn_kwargs={"column": args.column},
            batch_format="pyarrow",
            batch_size=args.batch_size,
        )
        solved.write_parquet(args.dst)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
