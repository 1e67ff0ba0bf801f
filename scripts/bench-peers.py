#!/usr/bin/env python3
"""Side-by-side throughput of our solver and a peer (the `sudoku` crate, via the harness in
../shared/tools/peer-rust-sudoku) on the public datasets in ../shared/data.

Builds both in release mode, then for each dataset runs `sudoku-batch bench -j 1 --first`
and the peer harness alternately, ROUNDS times (the machine is noisy), takes the median
puzzles/s of each, and writes a Markdown table (ours, peer, ratio) into BENCHMARKS.md
between `<!-- peers:begin -->` and `<!-- peers:end -->`, with the exact command.

usage: scripts/bench-peers.py [--rounds N] [--shared DIR] [--out BENCHMARKS.md]

What is timed differs slightly, and the table says so: the peer harness times parsing and
solving of each line in one loop over one pass; `bench` parses before timing and reports
one timed pass after one warm-up pass. Both stop at the first solution and run on 1 thread.
"""

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE_FILES = [
    "17_clue.txt",
    "top1465.txt",
    "forum_hardest_1905_11plus.txt",
    "serg_benchmark.txt",
    "sudoku_top5k.txt",
]
KAGGLE = "kaggle_1m_sample.csv"
BEGIN, END = "<!-- peers:begin -->", "<!-- peers:end -->"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def build(shared: Path, peer_target: Path):
    print("building sudoku-batch (release)...", file=sys.stderr)
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    print("building the peer harness (release)...", file=sys.stderr)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--target-dir", str(peer_target)],
        cwd=shared / "tools" / "peer-rust-sudoku",
        check=True,
    )
    return ROOT / "target" / "release" / "sudoku-batch", peer_target / "release" / "peer-rust-sudoku"


def ours(binary: Path, path: Path, tmp: Path) -> float:
    report = tmp / "ours.json"
    run([str(binary), "bench", "-q", "-j", "1", "--first", "--warmup", "1", "--min-time", "0",
         "--export-json", str(report), str(path)])
    return json.loads(report.read_text())["results"][0]["puzzles_per_s"]


def peer(binary: Path, path: Path) -> float:
    err = run([str(binary), str(path)]).stderr
    m = re.search(r"([0-9.]+) puzzles/s", err)
    if not m:
        raise SystemExit(f"peer output not understood: {err!r}")
    return float(m.group(1))


def kaggle_lines(shared: Path, tmp: Path) -> Path:
    """The first CSV column (the puzzles) as a lines file that both tools read."""
    out = tmp / "kaggle_1m_sample_quizzes.txt"
    with open(shared / "data" / KAGGLE, encoding="utf-8") as f, open(out, "w") as o:
        next(f)
        for line in f:
            o.write(line.split(",", 1)[0].strip() + "\n")
    return out


def table(rows, rounds, command, commit):
    cpu = "unknown"
    if Path("/proc/cpuinfo").exists():
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    lines = [
        BEGIN,
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {cpu} "
        f"({os.cpu_count()} cores, {platform.system()}), sudoku-batch commit {commit}, "
        f"median of {rounds} alternating rounds, 1 thread, first solution:",
        "",
        "```sh",
        command,
        "```",
        "",
        "| dataset | puzzles | ours puzzles/s | peer puzzles/s | ours / peer |",
        "|:---|---:|---:|---:|---:|",
    ]
    for name, n, a, b in rows:
        ratio = f"{a / b:.2f}" if b > 0 else "n/a"
        lines.append(f"| `{name}` | {n} | {a:,.0f} | {b:,.0f} | {ratio} |")
    lines += [
        "",
        "Peer: the `sudoku` crate through `../shared/tools/peer-rust-sudoku`, which times "
        "parsing and solving together in one pass; ours times one pass of the solver after "
        "a warm-up pass, puzzles parsed beforehand (`sudoku-batch bench` method).",
        END,
    ]
    return "\n".join(lines)


def write_between_markers(out: Path, block: str):
    text = out.read_text() if out.exists() else "# Benchmarks\n\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n## Against a peer solver\n\n" + block + "\n"
    out.write_text(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--out", type=Path, default=ROOT / "BENCHMARKS.md")
    ap.add_argument("--peer-target", type=Path, default=ROOT / "target" / "peer")
    args = ap.parse_args()
    data = args.shared / "data"
    if not data.is_dir():
        raise SystemExit(f"{data} is not present: nothing to compare on")
    ours_bin, peer_bin = build(args.shared, args.peer_target)
    commit = run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT).stdout.strip()
    command = "scripts/bench-peers.py " + " ".join(sys.argv[1:])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        files = [(f, data / f) for f in LINE_FILES if (data / f).is_file()]
        if (data / KAGGLE).is_file():
            files.append((KAGGLE + " (puzzle column)", kaggle_lines(args.shared, tmp)))
        for name, path in files:
            a, b = [], []
            for r in range(args.rounds):
                # Alternate which tool goes first, so drift of the machine hits both alike.
                if r % 2 == 0:
                    a.append(ours(ours_bin, path, tmp))
                    b.append(peer(peer_bin, path))
                else:
                    b.append(peer(peer_bin, path))
                    a.append(ours(ours_bin, path, tmp))
            n = json.loads((tmp / "ours.json").read_text())["inputs"][0]["puzzles"]
            rows.append((name, n, statistics.median(a), statistics.median(b)))
            print(f"{name}: ours {rows[-1][2]:,.0f}/s, peer {rows[-1][3]:,.0f}/s", file=sys.stderr)
    block = table(rows, args.rounds, command.strip(), commit)
    write_between_markers(args.out, block)
    print(block)


if __name__ == "__main__":
    main()
