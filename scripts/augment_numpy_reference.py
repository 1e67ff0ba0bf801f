#!/usr/bin/env python3
"""The Python way of augmenting a Sudoku dataset, for `augment`'s benchmark (issue 13):
per row, K times, a random digit relabelling, band/stack and row/column permutations and a
transpose with numpy, applied to the puzzle and the solution, written as CSV. Written for
this benchmark in the manner of the ML repositories' dataset builders (one numpy transform
per pair); not their code.

usage: scripts/augment_numpy_reference.py INPUT.csv K > OUT.csv
"""
import argparse
import csv
import sys

import numpy as np


def lines(rng):
    bands = rng.permutation(3)
    return np.concatenate([b * 3 + rng.permutation(3) for b in bands])


def arguments():
    """The input CSV (header, then puzzle and solution columns) and K, from the command line;
    argparse prints the usage for --help and for missing or bad arguments."""
    parser = argparse.ArgumentParser(
        description="Augment a Sudoku CSV the numpy way (the reference for `augment`'s "
        "benchmark): K random isomorphs of each puzzle,solution row, as CSV on stdout."
    )
    parser.add_argument("input", metavar="INPUT.csv", help="CSV with a header, then puzzle,solution rows")
    parser.add_argument("k", metavar="K", type=int, help="isomorphs per row")
    return parser.parse_args()


def main():
    args = arguments()
    path, k = args.input, args.k
    rng = np.random.default_rng(0)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["source_record", "puzzle", "solution"])
    with open(path, newline="") as f:
        rows = csv.reader(f)
        next(rows)
        for record, (puzzle, solution, *_) in enumerate(rows):
            p = np.frombuffer(puzzle.encode(), dtype=np.uint8).reshape(9, 9) - ord("0")
            s = np.frombuffer(solution.encode(), dtype=np.uint8).reshape(9, 9) - ord("0")
            for _ in range(k):
                relabel = np.concatenate([[0], rng.permutation(9) + 1]).astype(np.uint8)
                r, c = lines(rng), lines(rng)
                t = rng.random() < 0.5
                pairs = []
                for g in (p, s):
                    g = g.T if t else g
                    g = relabel[g[r][:, c]]
                    pairs.append("".join(map(str, g.ravel())))
                out.writerow([record, *pairs])


if __name__ == "__main__":
    main()
