#!/usr/bin/env python3
"""Check that every relative link in the repository's Markdown files resolves.

A link `[text](path)` must name a file or folder that exists (relative to the Markdown
file), and a link with `#anchor` must name a heading of the target file, as GitHub makes
anchors of headings (lower case, punctuation dropped, spaces to hyphens, `-1`, `-2` for
repeats). External links (`http:`, `https:`, `mailto:`) are not checked. Exit 1 naming each
broken link, 0 when all resolve.

    scripts/check_doc_links.py [FILE.md...]   # default: every tracked *.md
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def body_lines(text):
    """The lines outside fenced code blocks."""
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield line


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def anchors(path):
    seen = {}
    out = set()
    for line in body_lines(path.read_text(encoding="utf-8")):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def check(md):
    problems = []
    for line in body_lines(md.read_text(encoding="utf-8")):
        # Inline code is not a link.
        line = re.sub(r"`[^`]*`", "", line)
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = (md.parent / path).resolve() if path else md
            if not dest.exists():
                problems.append(f"{md.relative_to(ROOT)}: {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                problems.append(f"{md.relative_to(ROOT)}: {target}: no such heading")
    return problems


def main():
    if len(sys.argv) > 1:
        files = [Path(f).resolve() for f in sys.argv[1:]]
    else:
        listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "*.md"],
                                cwd=ROOT, capture_output=True, text=True, check=True)
        files = [ROOT / f for f in listed.stdout.split()]
    missing = [f for f in files if not f.is_file()]
    if missing:
        raise SystemExit("no such file: " + ", ".join(str(f) for f in missing))
    problems = [p for f in files for p in check(f)]
    for p in problems:
        print(p)
    print(f"{len(files)} files, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
