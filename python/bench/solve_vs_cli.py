"""Throughput of ``sudoku_batch.solve`` (numpy in, numpy out) against the CLI's ``solve`` on
the same puzzles, the per-call overhead for 1 puzzle and for N, and the Dask example
against the CLI on the same Parquet file. Runs alternate ours/CLI; the machine is noisy, so
compare the ratios printed side by side.

    python python/bench/solve_vs_cli.py ../shared/data/kaggle_1m_sample.csv --rows 1000000 --rounds 3

The CSV's rows are repeated up to ``--rows``; the CLI reads that CSV from a temporary
file (its time includes reading and writing, which the CLI does as it solves).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import sudoku_batch as sb
from sudoku_batch import _native

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CLI = REPO / "target" / "release" / "sudoku-batch"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dask", action="store_true", help="also time the Dask example")
    args = ap.parse_args()

    with open(args.csv) as f:
        header = f.readline()
        lines = f.read().splitlines()
    reps = -(-args.rows // len(lines))
    lines = (lines * reps)[: args.rows]
    puzzles = sb.from_strings([line.split(",")[0] for line in lines])
    # The package's global pool has RAYON_NUM_THREADS threads, else one per CPU; the CLI
    # gets the same count with -j.
    threads = os.environ.get("RAYON_NUM_THREADS", str(os.cpu_count()))
    print(f"{len(puzzles)} puzzles, RAYON_NUM_THREADS={threads}, kernel {_native.SOLVER_KERNEL}")

    tmp = Path(tempfile.mkdtemp())
    try:
        big = tmp / "big.csv"
        big.write_text(header + "\n".join(lines) + "\n")
        ours, core, cli = [], [], []
        for _ in range(args.rounds):
            t = time.perf_counter()
            out = sb.solve(puzzles)
            ours.append(time.perf_counter() - t)
            core.append(_native.time_core(puzzles, 2, None) / 1e9)
            t = time.perf_counter()
            subprocess.run([str(CLI), "solve", str(big), "-o", str(tmp / "cli.csv"), "-q", "-j", threads], check=False)
            cli.append(time.perf_counter() - t)
        assert (out.status == sb.SOLVED).all()
        n = len(puzzles)
        o, c, k = statistics.median(ours), statistics.median(cli), statistics.median(core)
        print(f"python solve (numpy in/out): {o:.3f} s  {n / o:,.0f} puzzles/s")
        print(f"CLI solve (CSV file in/out):  {c:.3f} s  {n / c:,.0f} puzzles/s")
        print(f"ratio python/CLI throughput:  {c / o:.2f}x")
        print(f"core solve_cells alone:       {k:.3f} s; python overhead for {n}: {(o - k) * 1e3:.1f} ms")

        one = puzzles[:1]
        calls = 20000
        for _ in range(200):
            sb.solve(one)
        t = time.perf_counter()
        for _ in range(calls):
            r = sb.solve(one)
        per_call = (time.perf_counter() - t) / calls
        t = time.perf_counter()
        for _ in range(calls):
            _native.time_core(one, 2, None)
        per_core_call = (time.perf_counter() - t) / calls
        print(
            f"1 puzzle: {per_call * 1e6:.1f} us per solve() call; solver {int(r.nanos[0]) / 1e3:.1f} us; "
            f"bare native call {per_core_call * 1e6:.1f} us"
        )

        if args.dask:
            sys.path.insert(0, str(REPO / "python" / "examples"))
            from dask_solve import solve_parquet
            from make_parquet import make_parquet

            pq = tmp / "big.parquet"
            make_parquet(str(big), str(pq), row_group_size=65536)
            dk, cl = [], []
            for i in range(args.rounds):
                t = time.perf_counter()
                solve_parquet(str(pq), str(tmp / f"dask{i}"))
                dk.append(time.perf_counter() - t)
                t = time.perf_counter()
                subprocess.run([str(CLI), "solve", str(big), "-o", str(tmp / "cli.csv"), "-q", "-j", threads], check=False)
                cl.append(time.perf_counter() - t)
            d, c2 = statistics.median(dk), statistics.median(cl)
            print(f"dask example (parquet in/out): {d:.3f} s; CLI (CSV in/out) {c2:.3f} s; ratio {c2 / d:.2f}x")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
