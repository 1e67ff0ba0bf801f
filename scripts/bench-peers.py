#!/usr/bin/env python3
"""Side-by-side throughput of our solver and a peer (the `sudoku` crate, via the harness in
../shared/tools/peer-rust-sudoku) on the public datasets in ../shared/data.

Builds both in release mode, then for each dataset runs `sudoku-batch bench -j 1 --first`
and the peer harness alternately, ROUNDS times (the machine is noisy), takes the median
puzzles/s of each, and writes a Markdown table (ours, peer, ratio) into BENCHMARKS.md
between `<!-- peers:begin -->` and `<!-- peers:end -->`, with the exact command.

usage: scripts/bench-peers.py [--rounds N] [--shared DIR] [--out BENCHMARKS.md]

Two comparisons, both single-threaded and stopping at the first solution:
- solver: the rate each tool reports for itself. The peer harness times parsing and solving
  of each line in one pass; `bench` parses before timing and times one pass after a warm-up.
- whole process, parse included: the CPU time (user + sys) of a whole run of each program on
  the dataset repeated to at least REPEAT_TO puzzles, so that start-up is a small share:
  `sudoku-batch solve -j 1 --first -q FILE -o /dev/null` (which also maps the file, writes
  every solution and builds its report) against `peer-rust-sudoku FILE` (which reads the
  file, then parses and solves). This is the comparison that includes parsing for both.
"""

import argparse
import json
import os
import resource
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
# Whole-process runs repeat a dataset until it holds at least this many puzzles.
REPEAT_TO = 200_000


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


def cpu_seconds(cmd) -> float:
    """User + sys CPU seconds of one run of `cmd` (its output discarded)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def repeated(path: Path, tmp: Path) -> tuple[Path, int]:
    """`path`'s puzzle lines, repeated until there are at least REPEAT_TO of them."""
    lines = [l for l in path.read_text().splitlines() if len(l) >= 81 and not l.startswith("#")]
    times = max(1, -(-REPEAT_TO // max(1, len(lines))))
    out = tmp / f"{path.stem}.x{times}.txt"
    out.write_text("\n".join(lines * times) + "\n")
    return out, len(lines) * times


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
        "| dataset | puzzles | solver: ours / s | solver: peer / s | solver ratio "
        "| whole process: puzzles | ours / CPU s | peer / CPU s | whole-process ratio "
        "| ratio of the best runs |",
        "|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, n, a, b, big, pa, pb, best in rows:
        ratio = f"{a / b:.2f}" if b > 0 else "n/a"
        pratio = f"{pa / pb:.2f}" if pb > 0 else "n/a"
        lines.append(
            f"| `{name}` | {n} | {a:,.0f} | {b:,.0f} | {ratio} "
            f"| {big} | {pa:,.0f} | {pb:,.0f} | **{pratio}** | {best:.2f} |"
        )
    lines += [
        "",
        "Solver columns: the rate each tool reports. The peer (the `sudoku` crate through "
        "`../shared/tools/peer-rust-sudoku`) times parsing and solving together in one pass; "
        "ours times one pass of the solver after a warm-up pass, puzzles parsed beforehand "
        "(`sudoku-batch bench` method).",
        "",
        "Whole-process columns (parse included for both): puzzles per CPU second (user + sys) "
        f"of a whole run on the dataset repeated to at least {REPEAT_TO:,} puzzles: "
        "`sudoku-batch solve -j 1 --first -q FILE -o /dev/null` (which also writes every "
        "solution and builds its report) against `peer-rust-sudoku FILE`. Rates are medians; "
        "the last column divides the best (fastest) run of each, since on a shared machine "
        "noise only ever adds time.",
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
            big, big_n = repeated(path, tmp)
            whole_ours = [str(ours_bin), "solve", "-q", "-j", "1", "--first", str(big), "-o", "/dev/null"]
            whole_peer = [str(peer_bin), str(big)]
            a, b, pa, pb = [], [], [], []
            for r in range(args.rounds):
                # Alternate which tool goes first, so drift of the machine hits both alike.
                if r % 2 == 0:
                    a.append(ours(ours_bin, path, tmp))
                    b.append(peer(peer_bin, path))
                    pa.append(big_n / cpu_seconds(whole_ours))
                    pb.append(big_n / cpu_seconds(whole_peer))
                else:
                    pb.append(big_n / cpu_seconds(whole_peer))
                    pa.append(big_n / cpu_seconds(whole_ours))
                    b.append(peer(peer_bin, path))
                    a.append(ours(ours_bin, path, tmp))
            n = json.loads((tmp / "ours.json").read_text())["inputs"][0]["puzzles"]
            row = (name, n, statistics.median(a), statistics.median(b), big_n,
                   statistics.median(pa), statistics.median(pb), max(pa) / max(pb))
            rows.append(row)
            print(f"{name}: solver ours {row[2]:,.0f}/s, peer {row[3]:,.0f}/s; whole process "
                  f"ours {row[5]:,.0f}/CPU s, peer {row[6]:,.0f}/CPU s", file=sys.stderr)
    block = table(rows, args.rounds, command.strip(), commit)
    write_between_markers(args.out, block)
    print(block)


if __name__ == "__main__":
    main()
