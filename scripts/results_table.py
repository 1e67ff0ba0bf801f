#!/usr/bin/env python3
"""Print a CSV of benches/results/ as a Markdown table, for BENCHMARKS.md.

    scripts/results_table.py FILE.csv [COLUMN...]    # default: every column

Numbers are printed as stored; COLUMN picks and orders the columns (by header name).
"""
import csv
import sys


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    with open(sys.argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    cols = sys.argv[2:] or (list(rows[0].keys()) if rows else [])
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" for _ in cols) + "|")
    for r in rows:
        print("| " + " | ".join(r[c].replace("|", "\\|") for c in cols) + " |")


if __name__ == "__main__":
    main()
