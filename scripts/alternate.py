#!/usr/bin/env python3
"""Times shell commands side by side in alternating rounds, for a noisy shared machine.

hyperfine runs every repetition of one command before the next command, so a change of the
machine's load in the middle of a run falls on one command only. Here each round runs every
command once, in a rotated order, and the ratios are taken within a round, then the median
over the rounds: a slow round slows all commands alike.

usage: scripts/alternate.py [--rounds N] [--warmup N] [--markdown FILE]
                            [--time-from NAME=REGEX]... NAME=COMMAND...

`--time-from NAME=REGEX` times command NAME by its own report instead of the wall clock: the
first group of REGEX, matched against its error output, in seconds (e.g. the peer harness's
`N puzzles, M solved, S s, ...`, whose timer leaves out reading the file).

The first command is the reference: each row gives its median wall time and CPU time (user +
sys of the process and its children), and the median over the rounds of wall(reference) /
wall(command), i.e. how many times faster than the reference it ran (above 1 = faster), and
the same against the command on the row above (so `peer`, `-j 1`, `-j 2` in that order give
the speed-up of 2 threads over 1 in the last row).
"""

import argparse
import re
import resource
import statistics
import subprocess
import sys
import time


def run_once(cmd: str, own_time: "re.Pattern | None" = None) -> tuple[float, float]:
    """Wall seconds (or, with `own_time`, the seconds the command reports on its error
    output) and CPU seconds (user + sys) of one run of `cmd` in a shell; its output is
    discarded, its error output shown only if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode(errors="replace"))
        raise SystemExit(f"exit {done.returncode}: {cmd}")
    if own_time is not None:
        m = own_time.search(done.stderr.decode(errors="replace"))
        if not m:
            raise SystemExit(f"--time-from: no match in the error output of {cmd}")
        wall = float(m.group(1))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--warmup", type=int, default=1, help="untimed rounds first")
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("--time-from", action="append", default=[], metavar="NAME=REGEX")
    ap.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = ap.parse_args()
    own = {}
    for t in args.time_from:
        name, sep, rx = t.partition("=")
        if not sep:
            raise SystemExit(f"expected NAME=REGEX, got {t!r}")
        own[name] = re.compile(rx)
    named = []
    for c in args.commands:
        name, sep, cmd = c.partition("=")
        if not sep:
            raise SystemExit(f"expected NAME=COMMAND, got {c!r}")
        named.append((name, cmd))
    for _ in range(args.warmup):
        for name, cmd in named:
            run_once(cmd, own.get(name))
    walls = {n: [] for n, _ in named}
    cpus = {n: [] for n, _ in named}
    for r in range(args.rounds):
        k = r % len(named)
        for name, cmd in named[k:] + named[:k]:
            wall, cpu = run_once(cmd, own.get(name))
            walls[name].append(wall)
            cpus[name].append(cpu)
        print(f"round {r + 1}/{args.rounds}: " +
              ", ".join(f"{n} {walls[n][-1]:.3f} s" for n, _ in named), file=sys.stderr)
    ref = named[0][0]
    lines = [
        f"{args.rounds} alternating rounds (order rotated each round), after {args.warmup} warm-up round(s):",
        "",
        *(f"`{n}` is timed by its own report (`{own[n].pattern}` on its error output), "
          "not by the wall clock." for n in own),
        *([""] if own else []),
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
