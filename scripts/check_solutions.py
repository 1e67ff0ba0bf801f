#!/usr/bin/env python3
"""Check a `sudoku-batch solve` output against its input, independently of our Rust code.

usage: check_solutions.py INPUT OUTPUT

INPUT is a lines file (one puzzle per line, blanks around it trimmed, '#' comments and
blank lines skipped) or a CSV with a header naming the puzzle column
(quizzes/puzzle/question/puzzles/quiz). OUTPUT is the
matching `solve -o` file: one line per record (81 digits, or a status word), or for CSV the
input's columns plus `solution` and `status`. Every record must have exactly one output, and
every written grid must be a complete valid Sudoku grid that keeps every given.
Exits 0 when all is well, 1 with the first problems listed otherwise.
"""
import csv
import sys

PUZZLE_NAMES = {"quizzes", "puzzle", "question", "puzzles", "quiz"}
UNITS = [[r * 9 + c for c in range(9)] for r in range(9)]
UNITS += [[r * 9 + c for r in range(9)] for c in range(9)]
UNITS += [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
DIGITS = set("123456789")


def problem(puzzle, grid):
    if len(grid) != 81 or set(grid) - DIGITS:
        return "not 81 digits"
    for u in UNITS:
        if len({grid[i] for i in u}) != 9:
            return "a unit repeats a digit"
    for i, (p, g) in enumerate(zip(puzzle, grid)):
        if p in DIGITS and p != g:
            return f"given at r{i // 9 + 1}c{i % 9 + 1} changed"
    return None


def lines_pairs(inp, out):
    with open(inp, encoding="utf-8-sig", errors="replace", newline="") as f:
        puzzles = [l.strip() for l in f.read().split("\n")]
    puzzles = [l for l in puzzles if l and not l.startswith("#")]
    with open(out, encoding="utf-8") as f:
        grids = f.read().split("\n")[:-1]
    return puzzles, grids


def csv_pairs(inp, out):
    with open(inp, encoding="utf-8-sig", newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        col = next(i for i, h in enumerate(header) if h.strip().lower() in PUZZLE_NAMES)
        puzzles = [r[col] if len(r) > col else "" for r in rows]
    with open(out, encoding="utf-8", newline="") as f:
        rows = csv.reader(f)
        next(rows)
        grids = [r[-2] if r[-2] else r[-1] for r in rows]
    return puzzles, grids


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    inp, out = sys.argv[1], sys.argv[2]
    with open(inp, "rb") as f:
        first = f.readline().decode("utf-8-sig", "replace").strip().lower()
    is_csv = any(name in PUZZLE_NAMES for name in first.split(","))
    puzzles, grids = (csv_pairs if is_csv else lines_pairs)(inp, out)
    bad = []
    if len(puzzles) != len(grids):
        bad.append(f"{len(puzzles)} records in, {len(grids)} results out")
    checked = 0
    for n, (p, g) in enumerate(zip(puzzles, grids)):
        if len(g) == 81 and g.isdigit():
            checked += 1
            why = problem(p, g)
            if why:
                bad.append(f"record {n}: {why}")
    print(f"{len(puzzles)} records, {checked} solutions checked, {len(bad)} problems")
    for b in bad[:10]:
        print("  " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
