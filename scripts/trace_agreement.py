#!/usr/bin/env python3
"""How well `sudoku-batch trace`'s per-puzzle summary serves as a human-style difficulty
(issue 35): Spearman's rho of its `hardest_code`, `guesses` and `steps` against
- the Sukaku Explainer ratings (SE) of the first --wide rows of
  ../shared/data/sudoku_exchange_diabolical.txt (SE 5.0-9.1),
- the Sudoku Explainer ratings (ER) of ../shared/data/forum_hardest_1106_rated.csv,
- the `difficulty` column of ../shared/data/kaggle_3m_sample_reformatted.csv,
and against `sudoku-batch rate`'s rating on the same rows.

Usage: scripts/trace_agreement.py [--bin target/release/sudoku-batch] [--wide 5000]
"""
import argparse
import csv
import io
import os
import subprocess
import sys
import tempfile

from rate_correlation import spearman as spearman_test


def spearman(a, b):
    """Spearman's rho and its p-value; NaN when either side is constant (no ranks to compare)."""
    if len(set(a)) < 2 or len(set(b)) < 2:
        return float("nan"), float("nan"), "constant"
    return spearman_test(a, b)

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared", "data")
COLUMNS = ("hardest_code", "guesses", "steps")


def run(binary, command, lines, extra=()):
    """`command` (trace or rate) on `lines` (puzzle strings): its CSV rows by record."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "in.txt")
        out = os.path.join(tmp, "out.csv")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        done = subprocess.run([binary, command, "-q", src, "-o", out, *extra],
                              capture_output=True, text=True)
        if done.returncode not in (0, 1):
            sys.exit(f"{command} failed: {done.stderr}")
        csv.field_size_limit(sys.maxsize)
        with open(out, newline="") as f:
            return {int(r["record"]): r for r in csv.DictReader(f)}


def report(name, lines, reference, binary):
    """Spearman of each summary column, and of rate's rating, against `reference` (a number
    per line, or None)."""
    traced = run(binary, "trace", lines, ["--placements-only"])
    rated = run(binary, "rate", lines)
    keep = [i for i, ref in enumerate(reference)
            if ref is not None and traced.get(i, {}).get("status") == "solved"
            and rated.get(i, {}).get("status") == "solved"]
    refs = [reference[i] for i in keep]
    print(f"\n{name}: {len(keep)} puzzles rated and traced (reference {min(refs)}-{max(refs)})")
    print("| ours | rho against the reference | rho against `rate` |")
    print("|---|---:|---:|")
    rating = [float(rated[i]["rating"]) for i in keep]
    for col in COLUMNS:
        ours = [float(traced[i][col]) for i in keep]
        rho_ref = spearman(ours, refs)[0]
        rho_rate = spearman(ours, rating)[0]
        print(f"| trace `{col}` | {rho_ref:.3f} | {rho_rate:.3f} |")
    print(f"| `rate` rating | {spearman(rating, refs)[0]:.3f} | 1 |")
    hardest = {}
    for i in keep:
        hardest[traced[i]["hardest"]] = hardest.get(traced[i]["hardest"], 0) + 1
    print("hardest technique: " + ", ".join(f"{k} {v}" for k, v in sorted(hardest.items(), key=lambda kv: -kv[1])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "target", "release", "sudoku-batch"))
    ap.add_argument("--wide", type=int, default=5000)
    args = ap.parse_args()

    path = os.path.join(SHARED, "sudoku_exchange_diabolical.txt")
    if os.path.exists(path):
        with open(path) as f:
            rows = [next(f).split() for _ in range(args.wide)]
        report(f"sudoku_exchange_diabolical.txt, first {args.wide} rows, SE",
               [r[1] for r in rows], [float(r[2]) for r in rows], args.bin)
    else:
        print(f"SKIPPED: {path} is not present")

    path = os.path.join(SHARED, "forum_hardest_1106_rated.csv")
    if os.path.exists(path):
        lines, er = [], []
        with open(path, newline="") as f:
            for line in f.read().split("\n"):
                fields = line.rstrip("\r").split(",")
                if len(fields) == 10 and len(fields[0]) == 81 and fields[5] not in ("", "x"):
                    lines.append(fields[0])
                    er.append(float(fields[5]))
        report("forum_hardest_1106_rated.csv, ER", lines, er, args.bin)
    else:
        print(f"SKIPPED: {path} is not present")

    path = os.path.join(SHARED, "kaggle_3m_sample_reformatted.csv")
    if os.path.exists(path):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        report("kaggle_3m_sample_reformatted.csv, its difficulty column",
               [r["puzzle"] for r in rows], [float(r["difficulty"]) for r in rows], args.bin)
    else:
        print(f"SKIPPED: {path} is not present")


if __name__ == "__main__":
    main()
