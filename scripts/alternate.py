#!/usr/bin/env python3
"""Times shell commands side by side in alternating rounds, for a noisy shared machine.

hyperfine runs every repetition of one command before the next command, so a change of the
machine's load in the middle of a run falls on one command only. Here each round runs every
command once, in a rotated order, and the ratios are taken within a round, then the median
over the rounds: a slow round slows all commands alike.

usage: scripts/alternate.py [--rounds N] [--warmup N] [--markdown FILE] NAME=COMMAND...

The first command is the reference: each row gives its median wall time and CPU time (user +
sys of the process and its children), and the median over the rounds of wall(reference) /
wall(command), i.e. how many times faster than the reference it ran (above 1 = faster), and
the same against the command on the row above (so `peer`, `-j 1`, `-j 2` in that order give
the speed-up of 2 threads over 1 in the last row).
"""

import argparse
import resource
import statistics
import subprocess
import sys
import time


def run_once(cmd: str) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + sys) of one run of `cmd` in a shell; its output
    is discarded, its error output shown only if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode(errors="replace"))
        raise SystemExit(f"exit {done.returncode}: {cmd}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=1, help="untimed rounds first")
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = ap.parse_args()
    named = []
    for c in args.commands:
        name, sep, cmd = c.partition("=")
        if not sep:
            raise SystemExit(f"expected NAME=COMMAND, got {c!r}")
        named.append((name, cmd))
    for _ in range(args.warmup):
        for _, cmd in named:
            run_once(cmd)
    walls = {n: [] for n, _ in named}
    cpus = {n: [] for n, _ in named}
    for r in range(args.rounds):
        k = r % len(named)
        for name, cmd in named[k:] + named[:k]:
            wall, cpu = run_once(cmd)
            walls[name].append(wall)
            cpus[name].append(cpu)
        print(f"round {r + 1}/{args.rounds}: " +
              ", ".join(f"{n} {walls[n][-1]:.3f} s" for n, _ in named), file=sys.stderr)
    ref = named[0][0]
    lines = [
        f"{args.rounds} alternating rounds (order rotated each round), after {args.warmup} warm-up round(s):",
        "",
        "| command | median wall [s] | min wall [s] | median CPU [s] "
        "| times faster than the first | times faster than the row above |",
        "|:---|---:|---:|---:|---:|---:|",
    ]

    def faster(base, name):
        return statistics.median(a / b for a, b in zip(walls[base], walls[name]))

    for i, (name, cmd) in enumerate(named):
        above = f"{faster(named[i - 1][0], name):.2f}" if i > 0 else ""
        lines.append(
            f"| {name}: `{cmd}` | {statistics.median(walls[name]):.3f} | {min(walls[name]):.3f} "
            f"| {statistics.median(cpus[name]):.3f} | {faster(ref, name):.2f} | {above} |"
        )
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
