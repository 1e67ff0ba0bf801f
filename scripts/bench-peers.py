#!/usr/bin/env python3
"""Side-by-side throughput of our solver, tdoku and the `sudoku` crate on the public datasets in
../shared/data, single thread, solver only, in both first-solution and uniqueness mode.

usage: scripts/bench-peers.py [--rounds N] [--min-time S] [--seed N] [--tdoku DIR]
                              [--shared DIR] [--out FILE] [--csv FILE] [--peer-target DIR]
                              [--whole-process]

It rewrites a block of BENCHMARKS.md in place (`--out` names another file) and writes the
table's numbers as data to benches/results/ (`--csv` names another file), with the run's
date, machine, CPU flags and commit on every row: commit or stash those files first if they
have changes of yours. To get tdoku:
`git clone https://github.com/t-dillon/tdoku DIR`, then pass `--tdoku DIR` (the script
builds it with ../shared/tools/peer-tdoku/build.sh DIR, which needs clang and cmake).

Builds our release binary, the `sudoku` crate's harness (../shared/tools/peer-rust-sudoku) and,
when DIR/build/run_benchmark is missing, tdoku with ../shared/tools/peer-tdoku/build.sh DIR
(DIR: a checkout of github.com/t-dillon/tdoku; without one the tdoku columns say n/a). Each
dataset is written once as 81-character lines with '.' blanks (what tdoku reads), each puzzle
replaced by one random isomorph drawn by this script from SEED (transpose, bands, stacks, rows
and columns within them, digit relabelling), and every tool reads that same file as it is:
the three solve exactly the same puzzles. (Random isomorphs remove the datasets' order and
orientation effects; a puzzle with several solutions needs a different number of guesses to
its first solution in each orientation, so tools given different isomorphs differ by luck.)
Then, ROUNDS times, with the order of the five runs rotated each round so that drift of the
machine's load falls on all of them alike:

- ours: `sudoku-batch bench -j 1 --first|--unique --min-time S` (no `--seed`: puzzles as
  given; parsed and checked outside the timed region);
- tdoku: `run_benchmark -s tdoku [-f] -r 0 -n N -t S -w 1 -c 1` (`-f` stops at the first
  solution; without it tdoku counts to 2, like our `--unique`; `-r 0`: puzzles as given;
  `-n N`, N = the file's puzzles, so its working set is the file, once);
- the crate: `peer-rust-sudoku FILE`, first solution only (its harness has no uniqueness
  mode), one pass timing parsing and solving together.

Rates are the medians over the rounds of puzzles per second as each tool reports them;
guesses per puzzle come from ours and tdoku (both count one per tentative placement that
is not forced). The Markdown table goes into BENCHMARKS.md between `<!-- peers3:begin -->`
and `<!-- peers3:end -->`, with the command.

`--kernels` runs instead each of our solver kernels against the matching tdoku build
(issue 32): `SUDOKU_BATCH_KERNEL=portable|avx2` against tdoku built for AVX2 (`--tdoku-haswell
DIR`, built with `cmake -DARCH=haswell`) and `avx512` against tdoku built for the machine
(`--tdoku DIR`), the kernels this CPU lacks left out; both modes, the same isomorph files and
alternating rounds as above. The table, with the CPU's relevant flags, goes between
`<!-- kernels:begin -->` and `<!-- kernels:end -->` of `--out` (for this mode, default
benches/results/kernels.md).

`--whole-process` runs instead the older comparison against the crate alone (issue 4,
target 1), between `<!-- peers:begin -->` and `<!-- peers:end -->`:
- solver: the rate each tool reports for itself (ours `bench -j 1 --first`, the crate's
  harness);
- whole process, parse included: the CPU time (user + sys) of a whole run of each program on
  the dataset repeated to at least REPEAT_TO puzzles, so that start-up is a small share:
  `sudoku-batch solve -j 1 --first -q FILE -o /dev/null` (which also maps the file, writes
  every solution and builds its report) against `peer-rust-sudoku FILE`.
"""

import argparse
import json
import os
import resource
import platform
import random
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
BEGIN3, END3 = "<!-- peers3:begin -->", "<!-- peers3:end -->"
BEGINK, ENDK = "<!-- kernels:begin -->", "<!-- kernels:end -->"
# Our kernels (SUDOKU_BATCH_KERNEL values) and the tdoku build each is measured against.
KERNEL_PEERS = [("portable", "haswell"), ("avx2", "haswell"), ("avx512", "native")]
# The CPU flags (as /proc/cpuinfo names them) that decide which kernels run.
KERNEL_FLAGS = ["sse4_2", "popcnt", "abm", "bmi1", "bmi2", "avx2", "avx512f", "avx512bw",
                "avx512vl"]
# Under a command line with `--tdoku DIR`: how to get DIR (the measuring machine's own path
# is not written; see `recorded_command`).
TDOKU_DIR = ("DIR: a checkout of github.com/t-dillon/tdoku (`git clone "
             "https://github.com/t-dillon/tdoku DIR`), built with "
             "`../shared/tools/peer-tdoku/build.sh DIR` (the script runs it when "
             "DIR/build/run_benchmark is missing).")
# Whole-process runs repeat a dataset until it holds at least this many puzzles.
REPEAT_TO = 200_000


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def build_tdoku(shared: Path, src: "Path | None") -> "Path | None":
    """tdoku's run_benchmark from the checkout `src`, built by the shared script if missing."""
    if src is None:
        return None
    binary = src / "build" / "run_benchmark"
    if not binary.is_file():
        print(f"building tdoku in {src}...", file=sys.stderr)
        subprocess.run([str(shared / "tools" / "peer-tdoku" / "build.sh"), str(src)], check=True)
    return binary


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


def machine() -> str:
    cpu = "unknown"
    if Path("/proc/cpuinfo").exists():
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return f"{cpu} ({os.cpu_count()} cores, {platform.system()})"


# The flags that decide which code runs (ours: `solver_kernel` avx512 needs avx512f, popcnt,
# bmi1 and bmi2; tdoku is built with -march=native), recorded with every table.
FLAGS = ("sse4_2", "popcnt", "bmi1", "bmi2", "avx2", "avx512f", "avx512bw", "avx512vl")
RESULTS = ROOT / "benches" / "results"


def cpu_flags() -> str:
    if Path("/proc/cpuinfo").exists():
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                have = set(line.split(":", 1)[1].split())
                return " ".join(f for f in FLAGS if f in have) or "none"
    return "unknown"


def write_csv(path: Path, header, rows):
    """The table's numbers as data (benches/results/), one row per dataset, the run's
    date, machine, CPU flags and commit on every row; BENCHMARKS.md's table is made from it."""
    import csv
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print(f"data: {path}", file=sys.stderr)


def table(rows, rounds, command, commit):
    lines = [
        BEGIN,
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()} "
        f"(CPU flags: {cpu_flags()}), sudoku-batch commit {commit}, "
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


def write_between_markers(out: Path, block: str, begin=BEGIN, end=END):
    text = out.read_text() if out.exists() else "# Benchmarks\n\n"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1]
        text = head + block + tail
    else:
        text = text.rstrip("\n") + "\n\n## Against peer solvers\n\n" + block + "\n"
    out.write_text(text)


def dotted(path: Path, tmp: Path, name: str, csv: bool) -> Path:
    """The puzzles of `path` as 81-character lines with '.' blanks, which every tool reads:
    comment lines and short lines dropped, the first column taken from a CSV file."""
    out = tmp / f"{name}.dots.txt"
    with open(path, encoding="utf-8") as f, open(out, "w") as o:
        if csv:
            next(f)
        for line in f:
            cell = line.split(",", 1)[0].strip() if csv else line.rstrip("\r\n")
            if len(cell) >= 81 and not cell.startswith("#"):
                o.write(cell[:81].replace("0", ".") + "\n")
    return out


def isomorphs(path: Path, seed: int) -> Path:
    """`path` (81-character lines) with each puzzle replaced by one random isomorph drawn from
    `seed`: rows permuted within bands and bands permuted, the same for columns and stacks,
    a transpose with probability 1/2, digits relabelled. Written beside `path`."""
    rng = random.Random(seed)

    def lines_order():
        bands = rng.sample(range(3), 3)
        return [3 * b + r for b in bands for r in rng.sample(range(3), 3)]

    out = path.with_suffix(f".iso{seed}.txt")
    with open(path, encoding="utf-8") as f, open(out, "w") as o:
        for line in f:
            p = line.rstrip("\n")
            rows, cols, transpose = lines_order(), lines_order(), rng.random() < 0.5
            relabel = dict(zip("123456789", rng.sample("123456789", 9)), **{".": "."})
            cells = (p[9 * rows[r] + cols[c]] if not transpose else p[9 * cols[c] + rows[r]]
                     for r in range(9) for c in range(9))
            o.write("".join(relabel[x] for x in cells) + "\n")
    return out


def ours_bench(binary: Path, path: Path, tmp: Path, mode: str, secs: float, kernel=None):
    """(puzzles/s, guesses/puzzle) of `sudoku-batch bench -j 1` in `mode` (first, unique),
    puzzles as given; `kernel`: the SUDOKU_BATCH_KERNEL value (None: the default choice)."""
    report = tmp / "ours.json"
    env = dict(os.environ)
    env.pop("SUDOKU_BATCH_KERNEL", None)
    if kernel is not None:
        env["SUDOKU_BATCH_KERNEL"] = kernel
    run([str(binary), "bench", "-q", "-j", "1", f"--{mode}",
         "--min-time", str(secs), "--export-json", str(report), str(path)], env=env)
    r = json.loads(report.read_text())["results"][0]
    if kernel is not None and json.loads(report.read_text())["provenance"]["solver_kernel"] != kernel:
        raise SystemExit(f"ours: the export does not name kernel {kernel}")
    if r["validation_failures"]:
        raise SystemExit(f"ours: {r['validation_failures']} invalid solutions on {path}")
    return r["puzzles_per_s"], r["guesses_per_puzzle"]


def tdoku_bench(binary: Path, path: Path, first: bool, secs: float):
    """(puzzles/s, guesses/puzzle) of tdoku's run_benchmark; `first`: its `-f` flag. `-r 0`:
    puzzles as given; `-n`: as many puzzles in its working set as the file has, so it holds
    the file once (ours cycles through the file's)."""
    n = sum(1 for line in path.read_text().splitlines() if line.strip())
    cmd = [str(binary), "-s", "tdoku", "-r", "0", "-n", str(n),
           "-t", str(max(1, round(secs))), "-w", "1", "-c", "1"] + (["-f"] if first else [])
    cmd.append(str(path))
    out = run(cmd).stdout.strip().splitlines()
    fields = [l for l in out if ",tdoku," in l]
    if not fields:
        raise SystemExit(f"tdoku output not understood: {out!r}")
    f = fields[-1].split(",")
    return float(f[-4]), float(f[-1])


def isomorph_files(data: Path, tmp: Path, seed: int):
    """(name, path) of each dataset present under `data`, written into `tmp` as 81-character
    lines with '.' blanks, each puzzle replaced by one random isomorph from `seed`."""
    files = [(f, data / f, False) for f in LINE_FILES if (data / f).is_file()]
    if (data / KAGGLE).is_file():
        files.append((KAGGLE + " (puzzle column)", data / KAGGLE, True))
    return [(name, isomorphs(dotted(path, tmp, Path(name.split()[0]).stem, csv), seed))
            for name, path, csv in files]


def alternate(runs, rounds):
    """Runs each of `runs` (name -> function giving (rate, guesses)) `rounds` times, the order
    rotated each round so that drift of the machine's load hits every run alike; returns
    name -> (median rate, median guesses)."""
    got = {k: [] for k in runs}
    order = list(runs)
    for r in range(rounds):
        for k in order[r % len(order):] + order[:r % len(order)]:
            got[k].append(runs[k]())
    return {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v))
            for k, v in got.items()}


def three_way(args, shared: Path, data: Path, commit: str, command: str):
    ours_bin, peer_bin = build(shared, args.peer_target)
    tdoku_bin = build_tdoku(shared, args.tdoku)
    seed, secs = args.seed, args.min_time
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, path in isomorph_files(data, tmp, seed):
            runs = {
                "ours first": lambda: ours_bench(ours_bin, path, tmp, "first", secs),
                "ours unique": lambda: ours_bench(ours_bin, path, tmp, "unique", secs),
                "crate first": lambda: (peer(peer_bin, path), float("nan")),
            }
            if tdoku_bin is not None:
                runs["tdoku first"] = lambda: tdoku_bench(tdoku_bin, path, True, secs)
                runs["tdoku unique"] = lambda: tdoku_bench(tdoku_bin, path, False, secs)
            med = alternate(runs, args.rounds)
            rows.append((name, med))
            print(f"{name}: " + ", ".join(f"{k} {v[0]:,.0f}/s" for k, v in med.items()),
                  file=sys.stderr)
    block = three_way_table(rows, args, command, commit)
    write_between_markers(args.out, block, BEGIN3, END3)
    write_csv(args.csv or RESULTS / "peers-tdoku.csv", THREE_WAY_CSV,
              three_way_csv_rows(rows, args, commit))
    print(block)


THREE_WAY_CSV = ["date_utc", "machine", "cpu_flags", "commit", "rounds", "min_time_s", "seed",
                 "dataset", "first_ours_per_s", "first_tdoku_per_s", "first_crate_per_s",
                 "unique_ours_per_s", "unique_tdoku_per_s", "guesses_first_ours",
                 "guesses_first_tdoku", "guesses_unique_ours", "guesses_unique_tdoku"]


def three_way_csv_rows(rows, args, commit):
    """One CSV row per dataset of the three-way table; a tool not measured is left empty."""
    stamp = f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M}"

    def rate(med, k):
        return round(med[k][0]) if k in med and med[k][0] == med[k][0] else ""

    def guesses(med, k):
        return f"{med[k][1]:.2f}" if k in med and med[k][1] == med[k][1] else ""

    return [[stamp, machine(), cpu_flags(), commit, args.rounds, args.min_time, args.seed, name,
             rate(med, "ours first"), rate(med, "tdoku first"), rate(med, "crate first"),
             rate(med, "ours unique"), rate(med, "tdoku unique"), guesses(med, "ours first"),
             guesses(med, "tdoku first"), guesses(med, "ours unique"),
             guesses(med, "tdoku unique")]
            for name, med in rows]


def three_way_table(rows, args, command, commit):
    def rate(med, k):
        return med[k][0] if k in med else float("nan")

    def ratio(a, b):
        return f"{a / b:.2f}" if b == b and b > 0 and a == a else "n/a"

    def num(x, fmt):
        return format(x, fmt) if x == x else "n/a"

    lines = [
        BEGIN3,
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()} "
        f"(CPU flags: {cpu_flags()}), sudoku-batch commit {commit}, median of {args.rounds} "
        "alternating rounds, 1 thread, "
        f"solver only, the same random isomorphs for all three (seed {args.seed}), "
        f"{args.min_time:g} s per run:",
        "",
        "```sh",
        command,
        "```",
        "",
    ]
    if args.tdoku is not None:
        lines += [TDOKU_DIR, ""]
    lines += [
        "| dataset | first: ours / s | first: tdoku `-f` / s | ratio | first: `sudoku` crate / s "
        "| ratio | unique: ours / s | unique: tdoku / s | ratio "
        "| guesses/puzzle first (ours / tdoku) | unique (ours / tdoku) |",
        "|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, med in rows:
        of, tf, cf = rate(med, "ours first"), rate(med, "tdoku first"), rate(med, "crate first")
        ou, tu = rate(med, "ours unique"), rate(med, "tdoku unique")
        gf = f"{num(med['ours first'][1], '.2f')} / {num(med.get('tdoku first', (0, float('nan')))[1], '.2f')}"
        gu = f"{num(med['ours unique'][1], '.2f')} / {num(med.get('tdoku unique', (0, float('nan')))[1], '.2f')}"
        lines.append(
            f"| `{name}` | {num(of, ',.0f')} | {num(tf, ',.0f')} | **{ratio(of, tf)}** "
            f"| {num(cf, ',.0f')} | **{ratio(of, cf)}** | {num(ou, ',.0f')} | {num(tu, ',.0f')} "
            f"| **{ratio(ou, tu)}** | {gf} | {gu} |"
        )
    lines += [
        "",
        "Ratios are ours / peer (above 1: ours is faster). Every tool reads the same file: the "
        "dataset's puzzles as 81-character lines with '.' blanks, each replaced by one random "
        f"isomorph drawn by the script from seed {args.seed}, solved as given. Ours: "
        f"`sudoku-batch bench -j 1 --first|--unique --min-time {args.min_time:g}`, one warm-up "
        "pass, puzzles parsed and solutions checked outside the timed region. tdoku: "
        f"`run_benchmark -s tdoku [-f] -r 0 -n N -t {max(1, round(args.min_time))} -w 1 -c 1` "
        "(clang -O3 -march=native, built by `../shared/tools/peer-tdoku/build.sh`; `-f` stops "
        "at the first solution, without it tdoku counts to 2; `-r 0`: no isomorphs of its own; "
        "N: the file's puzzles). The `sudoku` crate: `../shared/tools/peer-rust-sudoku`, first "
        "solution, one pass timing parse and solve together (no uniqueness mode in its harness).",
        END3,
    ]
    return "\n".join(lines)


def cpu_flags() -> str:
    """The flags of KERNEL_FLAGS this CPU has, as /proc/cpuinfo lists them."""
    have = set()
    if Path("/proc/cpuinfo").exists():
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                have = set(line.split(":", 1)[1].split())
                break
    return " ".join(f for f in KERNEL_FLAGS if f in have) or "unknown"


def kernel_available(binary: Path, kernel: str) -> bool:
    """Whether our binary runs `kernel` on this CPU (it refuses one the CPU lacks)."""
    env = dict(os.environ, SUDOKU_BATCH_KERNEL=kernel)
    done = subprocess.run([str(binary), "bench", "-q", "-j", "1", "--min-time", "0",
                           str(ROOT / "data" / "sample.txt")], env=env, capture_output=True)
    return done.returncode == 0


def kernels(args, shared: Path, data: Path, commit: str, command: str):
    ours_bin, _ = build(shared, args.peer_target)
    builds = {"native": build_tdoku(shared, args.tdoku),
              "haswell": build_tdoku(shared, args.tdoku_haswell)}
    pairs = [(k, t) for k, t in KERNEL_PEERS
             if kernel_available(ours_bin, k) and builds[t] is not None]
    if not pairs:
        raise SystemExit("no kernel with a matching tdoku build: pass --tdoku and/or --tdoku-haswell")
    secs, rows = args.min_time, []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, path in isomorph_files(data, tmp, args.seed):
            runs = {}
            for k, _ in pairs:
                for mode in ("first", "unique"):
                    runs[(k, mode)] = (lambda k=k, mode=mode:
                                       ours_bench(ours_bin, path, tmp, mode, secs, k))
            for t in dict.fromkeys(t for _, t in pairs):
                for mode in ("first", "unique"):
                    runs[(t, mode)] = (lambda t=t, mode=mode:
                                       tdoku_bench(builds[t], path, mode == "first", secs))
            med = alternate(runs, args.rounds)
            rows.append((name, med))
            print(f"{name}: " + ", ".join(f"{k[0]} {k[1]} {v[0]:,.0f}/s" for k, v in med.items()),
                  file=sys.stderr)
    lines = [
        BEGINK,
        f"Measured {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on {machine()}, CPU flags: "
        f"{cpu_flags()}; sudoku-batch commit {commit}, median of {args.rounds} alternating "
        f"rounds, 1 thread, solver only, the same random isomorphs for every run (seed "
        f"{args.seed}), {secs:g} s per run:",
        "",
        "```sh",
        command,
        "```",
        "",
        "DIR: a checkout of github.com/t-dillon/tdoku built by "
        "`../shared/tools/peer-tdoku/build.sh DIR` (`-march=native`); HDIR: another checkout "
        "built the same way with `-DARCH=haswell` added to its cmake line (AVX2, no AVX-512).",
        "",
        "| dataset | our kernel | tdoku build | first: ours / s | first: tdoku / s | ratio "
        "| unique: ours / s | unique: tdoku / s | ratio | guesses first (ours / tdoku) "
        "| unique (ours / tdoku) |",
        "|:---|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, med in rows:
        for k, t in pairs:
            of, tf = med[(k, "first")], med[(t, "first")]
            ou, tu = med[(k, "unique")], med[(t, "unique")]
            lines.append(
                f"| `{name}` | {k} | {t} | {of[0]:,.0f} | {tf[0]:,.0f} | **{of[0] / tf[0]:.2f}** "
                f"| {ou[0]:,.0f} | {tu[0]:,.0f} | **{ou[0] / tu[0]:.2f}** "
                f"| {of[1]:.2f} / {tf[1]:.2f} | {ou[1]:.2f} / {tu[1]:.2f} |")
    lines += [
        "",
        "Ratios are ours / tdoku (above 1: ours is faster). Ours: `SUDOKU_BATCH_KERNEL=KERNEL "
        f"sudoku-batch bench -j 1 --first|--unique --min-time {secs:g}`; tdoku: `run_benchmark "
        f"-s tdoku [-f] -r 0 -n N -t {max(1, round(secs))} -w 1 -c 1`, as in the peer table.",
        ENDK,
    ]
    block = "\n".join(lines)
    write_between_markers(args.out, block, BEGINK, ENDK)
    print(block)


def whole_process(args, data: Path, commit: str, command: str):
    ours_bin, peer_bin = build(args.shared, args.peer_target)
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
    block = table(rows, args.rounds, command, commit)
    write_between_markers(args.out, block)
    stamp = f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M}"
    write_csv(args.csv or RESULTS / "peers-crate-whole-process.csv",
              ["date_utc", "machine", "cpu_flags", "commit", "rounds", "dataset", "puzzles",
               "solver_ours_per_s", "solver_peer_per_s", "whole_puzzles", "whole_ours_per_cpu_s",
               "whole_peer_per_cpu_s", "best_runs_ratio"],
              [[stamp, machine(), cpu_flags(), commit, args.rounds, name, n, round(a), round(b),
                big, round(pa), round(pb), f"{best:.2f}"]
               for name, n, a, b, big, pa, pb, best in rows])
    print(block)


def recorded_command(argv):
    """The command line written above a table: the arguments as given, but a `--tdoku` path
    (a checkout on the measuring machine, private to it) as `DIR`, explained under the block,
    and a `--tdoku-haswell` path as `HDIR`."""
    out, skip = [], None
    for a in argv:
        if skip:
            out.append(skip)
            skip = None
        elif a in ("--tdoku", "--tdoku-haswell"):
            out.append(a)
            skip = "DIR" if a == "--tdoku" else "HDIR"
        elif a.startswith("--tdoku="):
            out.append("--tdoku=DIR")
        elif a.startswith("--tdoku-haswell="):
            out.append("--tdoku-haswell=HDIR")
        else:
            out.append(a)
    return ("scripts/bench-peers.py " + " ".join(out)).strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3, metavar="N",
                    help="alternating rounds; the table gives medians over them (default: %(default)s)")
    ap.add_argument("--min-time", type=float, default=2.0, metavar="S",
                    help="seconds timed per run of each tool (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=7, metavar="N",
                    help="seed of the random isomorphs that all three tools solve (default: %(default)s)")
    ap.add_argument("--tdoku", type=Path, metavar="DIR",
                    help="a checkout of github.com/t-dillon/tdoku (git clone "
                    "https://github.com/t-dillon/tdoku DIR), built with "
                    "../shared/tools/peer-tdoku/build.sh DIR when DIR/build/run_benchmark is "
                    "missing (default: none; the tdoku columns then say n/a)")
    ap.add_argument("--tdoku-haswell", type=Path, metavar="HDIR",
                    help="with --kernels: a checkout of tdoku built for AVX2 (build.sh's cmake "
                    "line with -DARCH=haswell), measured against our portable and avx2 kernels")
    ap.add_argument("--kernels", action="store_true",
                    help="run instead each of our kernels against the matching tdoku build "
                    "(issue 32; the <!-- kernels:begin --> block of --out, default "
                    "benches/results/kernels.md)")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared", metavar="DIR",
                    help="the shared folder with data/ and tools/ (default: ../shared beside "
                    "the repository)")
    ap.add_argument("--out", type=Path, default=None, metavar="FILE",
                    help="the Markdown file whose block between the markers is replaced "
                    "(default: the repository's BENCHMARKS.md, rewritten in place; a file "
                    "without the markers gets the block appended)")
    ap.add_argument("--csv", type=Path, metavar="FILE",
                    help="where the table's numbers go as CSV (default: "
                    "benches/results/peers-tdoku.csv, or peers-crate-whole-process.csv with "
                    "--whole-process)")
    ap.add_argument("--peer-target", type=Path, default=ROOT / "target" / "peer", metavar="DIR",
                    help="cargo target folder for the `sudoku` crate's harness "
                    "(default: target/peer in the repository)")
    ap.add_argument("--whole-process", action="store_true",
                    help="run instead the older comparison against the crate alone, parse "
                    "included (issue 4, target 1; the <!-- peers:begin --> block); without "
                    "it (the default) the three-way table of issue 14 (<!-- peers3:begin -->)")
    args = ap.parse_args()
    if args.out is None:
        args.out = ROOT / ("benches/results/kernels.md" if args.kernels else "BENCHMARKS.md")
    data = args.shared / "data"
    if not data.is_dir():
        raise SystemExit(f"{data} is not present: nothing to compare on")
    commit = run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT).stdout.strip()
    command = recorded_command(sys.argv[1:])
    if args.kernels:
        kernels(args, args.shared, data, commit, command)
    elif args.whole_process:
        whole_process(args, data, commit, command)
    else:
        three_way(args, args.shared, data, commit, command)


if __name__ == "__main__":
    main()
