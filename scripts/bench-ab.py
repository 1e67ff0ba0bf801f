#!/usr/bin/env python3
"""Two or more builds of sudoku-batch side by side: solver throughput in alternating rounds.

For comparing a change to the solver against main on a shared, noisy machine. Each round
runs `BIN bench -q -j 1 MODE --seed SEED --min-time S FILE` once per binary, for every file,
with the binaries in an order rotated each round; the puzzles/s come from bench's CSV export.
A slow round slows every binary alike, so the ratio to the first binary is taken within each
round, and the median over rounds is printed with its range.

usage: scripts/bench-ab.py [--rounds N] [--mode first|unique] [--seed N] [--min-time S]
                           --files F1,F2,... NAME=BINARY NAME=BINARY...

example (a solver change against main, both built with `cargo build --release`):
  cp target/release/sudoku-batch /tmp/new; git stash; cargo build --release; git stash pop
  scripts/bench-ab.py --rounds 5 --mode first \\
      --files ../shared/data/forum_hardest_1905_11plus.txt,../shared/data/top1465.txt \\
      main=target/release/sudoku-batch new=/tmp/new
"""

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def puzzles_per_s(binary: str, mode: str, seed: int, secs: float, path: str) -> float:
    """One `bench` run: puzzles/s from its CSV export (one thread, one row)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.csv"
        cmd = [binary, "bench", "-q", "-j", "1", f"--{mode}", "--seed", str(seed),
               "--min-time", str(secs), "--export-csv", str(out), path]
        done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if done.returncode != 0:
            sys.stderr.write(done.stderr.decode(errors="replace"))
            raise SystemExit(f"exit {done.returncode}: {' '.join(cmd)}")
        with out.open(newline="") as f:
            return float(next(csv.DictReader(f))["puzzles_per_s"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds (default: 5)")
    ap.add_argument("--mode", choices=["first", "unique"], default="first",
                    help="first solution, or count to 2 (default: first)")
    ap.add_argument("--seed", type=int, default=7,
                    help="seed of the random isomorphs bench solves (default: 7)")
    ap.add_argument("--min-time", type=float, default=1.0,
                    help="seconds timed per run (default: 1.0)")
    ap.add_argument("--files", required=True, help="comma-separated puzzle files")
    ap.add_argument("binaries", nargs="+", metavar="NAME=BINARY",
                    help="the first is the reference of the ratios")
    args = ap.parse_args()
    named = []
    for b in args.binaries:
        name, sep, path = b.partition("=")
        if not sep:
            raise SystemExit(f"expected NAME=BINARY, got {b!r}")
        named.append((name, path))
    files = args.files.split(",")
    ratios = {(f, n): [] for f in files for n, _ in named[1:]}
    for r in range(args.rounds):
        k = r % len(named)
        for f in files:
            rate = {n: puzzles_per_s(b, args.mode, args.seed, args.min_time, f)
                    for n, b in named[k:] + named[:k]}
            print(f"round {r + 1} {Path(f).name}: "
                  + ", ".join(f"{n} {rate[n]:,.0f}/s" for n, _ in named), flush=True)
            for n, _ in named[1:]:
                ratios[(f, n)].append(rate[n] / rate[named[0][0]])
    print(f"\n{args.mode}, median over {args.rounds} rounds of puzzles/s against "
          f"{named[0][0]} [range]:")
    for (f, n), v in ratios.items():
        print(f"  {Path(f).name:32} {n}: {statistics.median(v):.3f} [{min(v):.2f}-{max(v):.2f}]")


if __name__ == "__main__":
    main()
