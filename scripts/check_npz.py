#!/usr/bin/env python3
"""Checks with numpy that `.npz` outputs hold what the CSV outputs hold (issue 13): runs
`augment` and `rate` on a shared dataset twice, as CSV and as .npz, loads the archive with
numpy.load (no pickle) and compares every array with the CSV, value by value.

usage: scripts/check_npz.py [--bin target/release/sudoku-batch] [--input FILE]
Prints SKIPPED and exits 0 when numpy or the input is missing.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(binary, args):
    done = subprocess.run([binary, *args, "-q"], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"{args}: exit {done.returncode}: {done.stderr}")


def compare(npz_path, csv_path):
    import numpy as np

    arrays = np.load(npz_path, allow_pickle=False)
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    n = len(rows)
    for name in rows[0].keys():
        key = name + "s" if name in ("puzzle", "solution") else name
        a = arrays[key]
        assert a.shape[0] == n, (key, a.shape, n)
        for i, row in enumerate(rows):
            text, v = row[name], a[i]
            if key in ("puzzles", "solutions"):
                assert a.shape == (n, 81) and a.dtype == np.uint8, (key, a.shape, a.dtype)
                want = [int(c) for c in text] if text else [0] * 81
                assert list(v) == want, (key, i)
            elif a.dtype.kind == "S":
                assert v.decode() == text, (key, i, v, text)
            elif a.dtype.kind == "b":
                assert bool(v) == (text == "true"), (key, i)
            elif a.dtype.kind == "f":
                assert (math.isnan(v) and text == "") or f"{v:.4f}" == text, (key, i, v, text)
            else:
                assert int(v) == (int(text) if text else -1), (key, i, v, text)
    return n, sorted(arrays.files)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "target", "release", "sudoku-batch"))
    ap.add_argument("--input", default=os.path.join(HERE, "..", "..", "shared", "data", "hard20.txt"))
    args = ap.parse_args()
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("SKIPPED: numpy is not installed")
        return
    if not os.path.exists(args.input):
        print(f"SKIPPED: {args.input} is not present")
        return
    with tempfile.TemporaryDirectory() as d:
        for cmd, extra in (("augment", ["-n", "4", "--include-original", "--seed", "3"]),
                           ("rate", ["--samples", "4"])):
            c, z = os.path.join(d, cmd + ".csv"), os.path.join(d, cmd + ".npz")
            run(args.bin, [cmd, args.input, *extra, "-o", c])
            run(args.bin, [cmd, args.input, *extra, "-o", z])
            n, files = compare(z, c)
            print(f"{cmd}: {n} rows, arrays {files}: numpy.load matches the CSV")


if __name__ == "__main__":
    main()
