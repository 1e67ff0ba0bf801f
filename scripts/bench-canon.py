#!/usr/bin/env python3
"""Side-by-side speed of our canonical form (`sudoku-batch canon`) and M. Dobrichev's
patminlex (the harness in ../shared/tools/peer-patminlex), one core each (issue 12).

For each dataset both programs run alternately ROUNDS times on the same file (the dataset
repeated to at least REPEAT_TO puzzles, so start-up is a small share); each run's CPU time
(user + sys of the child, so other processes' load on the machine counts less than in wall
time) gives puzzles per CPU-second, and the medians give the ratio. Whole processes both:
`sudoku-batch canon -j 1 -q FILE -o /dev/null` (maps the file, parses, canonicalises, writes
every form) against `patminlex-harness < FILE` (reads the lines, canonicalises, prints
nothing). The harness's own rate (its canonicalisation loop alone) is shown beside it.

Datasets: random_minimal_20k.txt, forum_hardest_1905_11plus.txt and complete grids (the
solutions of kaggle_1m_sample.csv, repeated to GRIDS for ours; 20 for patminlex, which is slow on
grids). Both programs' forms are compared first, outside the timing: on every puzzle of
the two puzzle sets, on the first 20 grids.

usage: scripts/bench-canon.py --peer-src DIR [--rounds N] [--shared DIR]
  DIR: a checkout of github.com/dobrichev/sudoku-minlexing-tool (patminlex.cpp/.h)
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPEAT_TO = 100_000
# Complete grids a run of ours (the 20,000 of the Kaggle sample, repeated).
GRIDS = 200_000


def cpu_run(cmd, stdin=None):
    """Runs cmd; returns (stdout bytes, stderr text)."""
    with open(stdin or os.devnull, "rb") as f:
        p = subprocess.run(cmd, stdin=f, capture_output=True)
    if p.returncode not in (0, 1):
        sys.exit(f"{cmd[0]} failed: {p.stderr.decode()}")
    return p.stdout, p.stderr.decode()


def timed(cmd, stdin=None):
    before = os.times()
    out, err = cpu_run(cmd, stdin)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return cpu, out, err


def datasets(shared: Path, tmp: Path):
    """(name, file for ours, its puzzles, file for the peer, its puzzles, file to compare)."""
    data = shared / "data"
    sets = {}
    for name in ["random_minimal_20k.txt", "forum_hardest_1905_11plus.txt"]:
        lines = [l[:81] for l in (data / name).read_text().splitlines() if len(l) >= 81 and not l.startswith("#")]
        reps = max(1, -(-REPEAT_TO // len(lines)))
        sets[name] = (lines * reps, lines * reps, lines)
    grids = []
    for row in (data / "kaggle_1m_sample.csv").read_text().splitlines()[1:]:
        f = row.split(",")
        if len(f) > 1 and len(f[1]) == 81:
            grids.append(f[1])
    # patminlex takes about a third of a second per complete grid here: it gets 20.
    mine = (grids * -(-GRIDS // len(grids)))[:GRIDS]
    sets["complete grids (kaggle_1m_sample solutions)"] = (mine, grids[:20], grids[:20])
    out = []
    for name, (mine, theirs, check) in sets.items():
        files = []
        for tag, lines in (("ours", mine), ("peer", theirs), ("check", check)):
            path = tmp / (re.sub(r"\W+", "_", name) + f".{tag}.txt")
            path.write_text("\n".join(lines) + "\n")
            files.append(path)
        out.append((name, files[0], len(mine), files[1], len(theirs), files[2]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer-src", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    args = ap.parse_args()
    shared = Path(args.shared)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    ours = ROOT / "target" / "release" / "sudoku-batch"
    tmp = Path(tempfile.mkdtemp(prefix="bench-canon-"))
    peer = tmp / "patminlex-harness"
    subprocess.run(["bash", str(shared / "tools" / "peer-patminlex" / "build.sh"), args.peer_src, str(peer)],
                   check=True, capture_output=True)
    print("| dataset | puzzles a run (ours / patminlex) | ours, puzzles/CPU-s | patminlex, puzzles/CPU-s | ratio | patminlex's own loop rate |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, mine_file, n_mine, peer_file, n_peer, check in datasets(shared, tmp):
        a, _ = cpu_run([str(ours), "canon", "-j", "1", "-q", str(check)])
        b, _ = cpu_run([str(peer), "print"], stdin=str(check))
        if a != b:
            sys.exit(f"{name}: the forms differ")
        mine, theirs, loop = [], [], []
        for _ in range(args.rounds):
            cpu, _, _ = timed([str(ours), "canon", "-j", "1", "-q", str(mine_file), "-o", "/dev/null"])
            mine.append(n_mine / cpu)
            cpu, _, err = timed([str(peer)], stdin=str(peer_file))
            theirs.append(n_peer / cpu)
            loop.append(float(re.search(r"=> (\d+)/s", err).group(1)))
        m, t = statistics.median(mine), statistics.median(theirs)
        print(f"| {name} | {n_mine} / {n_peer} | {m:,.0f} | {t:,.0f} | {m / t:.2f}x | {statistics.median(loop):,.0f} |", flush=True)


if __name__ == "__main__":
    main()
