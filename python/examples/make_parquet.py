"""Writes a Kaggle-layout CSV (``quizzes,solutions``) as Parquet with pyarrow, the input
of the Dask, Ray and HF examples.

    python examples/make_parquet.py ../data/sample_kaggle.csv sample.parquet [--row-group-size N] [--repeat R]

Puzzle columns are read as strings: left to type inference, ``004300209...`` would become
an integer and lose its leading zeros.
"""

from __future__ import annotations

import argparse

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq


def make_parquet(csv_path: str, parquet_path: str, row_group_size: int = 4096, repeat: int = 1) -> int:
    """Writes ``csv_path`` (``repeat`` times over) to ``parquet_path``; returns the row count."""
    with open(csv_path, newline="") as f:
        header = f.readline().strip().split(",")
    table = pacsv.read_csv(
        csv_path,
        convert_options=pacsv.ConvertOptions(column_types={name: pa.string() for name in header}),
    )
    if repeat > 1:
        table = pa.concat_tables([table] * repeat)
    pq.write_table(table, parquet_path, row_group_size=row_group_size)
    return table.num_rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("parquet")
    ap.add_argument("--row-group-size", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=1, help="write the rows this many times (benchmarks)")
    args = ap.parse_args()
    rows = make_parquet(args.csv, args.parquet, args.row_group_size, args.repeat)
    print(f"{args.parquet}: {rows} rows")


if __name__ == "__main__":
    main()
