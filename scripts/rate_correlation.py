#!/usr/bin/env python3
"""Rank correlation (Spearman) of `sudoku-batch rate`'s rating with the Sudoku Explainer
ratings (ER) of ../shared/data/forum_hardest_1106_rated.csv (issue 13).

Usage: scripts/rate_correlation.py [--bin target/release/sudoku-batch] [--samples 10] [--seed 0] [--first]

Runs `rate` on the file, joins its rows to the file's by line number, and reports Spearman's
rho over the puzzles that have an ER (scipy.stats.spearmanr when scipy is installed, else the
same statistic computed here: Pearson's r of the average ranks).
"""
import argparse
import csv
import io
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "shared", "data", "forum_hardest_1106_rated.csv")


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    try:
        from scipy.stats import spearmanr

        res = spearmanr(a, b)
        return float(res.statistic), float(res.pvalue), "scipy.stats.spearmanr"
    except ImportError:
        ra, rb = ranks(a), ranks(b)
        n = len(a)
        ma, mb = sum(ra) / n, sum(rb) / n
        cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
        va = sum((x - ma) ** 2 for x in ra) ** 0.5
        vb = sum((y - mb) ** 2 for y in rb) ** 0.5
        return cov / (va * vb), float("nan"), "average ranks (scipy not installed)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "target", "release", "sudoku-batch"))
    ap.add_argument("--samples", default="10")
    ap.add_argument("--first", action="store_true", help="rate with `rate --first`")
    ap.add_argument("--seed", default="0")
    ap.add_argument("--data", default=DATA)
    ap.add_argument("--wide", type=int, default=5000)
    args = ap.parse_args()
    if not os.path.exists(args.data):
        sys.exit(f"SKIPPED: {args.data} is not present")
    # ER by 1-based line; the file is CRLF, a title line, a '#!sudoku' header, a sample row of x.
    er = {}
    with open(args.data, newline="") as f:
        for line_no, line in enumerate(f.read().split("\n"), start=1):
            fields = line.rstrip("\r").split(",")
            # puzzle, label, poster, q1, q2, ER, EP, ED, Sx9, Sxt
            if len(fields) == 10 and len(fields[0]) == 81 and fields[5] not in ("", "x"):
                er[line_no] = float(fields[5])
    out = subprocess.run(
        [args.bin, "rate", args.data, "--samples", args.samples, "--seed", args.seed, "-q"]
        + (["--first"] if args.first else []),
        capture_output=True, text=True,
    )
    if out.returncode not in (0, 1):
        sys.exit(f"rate failed: {out.stderr}")
    ours, theirs = [], []
    for row in csv.DictReader(io.StringIO(out.stdout)):
        line = int(row["line"])
        if row["status"] == "solved" and line in er:
            ours.append(float(row["rating"]))
            theirs.append(er[line])
    rho, p, how = spearman(ours, theirs)
    print(f"forum_hardest_1106_rated.csv, puzzles with an ER rating: {len(ours)} "
          f"(ER {min(theirs)}-{max(theirs)}); --samples {args.samples} --seed {args.seed}")
    print(f"Spearman rho(rating, ER) = {rho:.3f} (p = {p:.2g}; {how})")
    wide_range(args)


def wide_range(args):
    """The same on the first --wide rows of sudoku_exchange_diabolical.txt, whose Sukaku
    Explainer ratings span 5.0-9.1 (the 1106 list's rows with an ER span only 9.7-11.9)."""
    path = os.path.join(os.path.dirname(args.data), "sudoku_exchange_diabolical.txt")
    if not os.path.exists(path):
        print(f"SKIPPED: {path} is not present")
        return
    with open(path) as f:
        lines = [next(f) for _ in range(args.wide)]
    se = [float(l.split()[2]) for l in lines]
    out = subprocess.run(
        [args.bin, "rate", "-", "--samples", args.samples, "--seed", args.seed, "-q"]
        + (["--first"] if args.first else []),
        input="".join(lines), capture_output=True, text=True,
    )
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    pairs = [(float(r["rating"]), se[int(r["record"])]) for r in rows if r["status"] == "solved"]
    rho, p, how = spearman([a for a, _ in pairs], [b for _, b in pairs])
    se_solved = [b for _, b in pairs]
    print(f"sudoku_exchange_diabolical.txt, first {args.wide} rows ({len(pairs)} solved, "
          f"SE {min(se_solved)}-{max(se_solved)}):")
    print(f"Spearman rho(rating, SE) = {rho:.3f} (p = {p:.2g}; {how})")


if __name__ == "__main__":
    main()
