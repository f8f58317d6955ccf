#!/usr/bin/env python3
"""Fails when a file of the tests, scripts or benchmarks names a path outside the repository.

A user's clone, a contributor's fork and a packager's build have nothing beside the repository, so
`make test` must read only what the repository holds. This runs first in `make test` and looks at
every file git tracks (and every untracked one it does not ignore) under Tests/, scripts/,
Benchmarks/ and .ci/, and at the Makefile and Package.swift, for:

- a relative path that climbs out of the repository: `../NAME` (any number of `../`), resolved
  from the file's own folder or from the repository's root (where `make test` runs);
- the repository's parent named in code: the `.parent` of a Python `REPO` or `ROOT` path,
  the `deletingLastPathComponent()` of the tests' `packageRoot`, `$(CURDIR)/..` in a Makefile;
- an absolute path of this workplace (`/work/`).

A line that must name such a path as data (a hostile include in a test, say) carries the words
`outside-ok:` and the reason. Prints each finding as FILE:LINE: TEXT and exits 1 when there is one.
"""
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PLACES = ["Tests", "scripts", "Benchmarks", ".ci", "Makefile", "Package.swift"]
NAMED = [
    (re.compile(r"\b(?:REPO|ROOT|repo|root)\.parent\b"), "the repository's parent folder"),
    (re.compile(r"packageRoot\.deletingLastPathComponent\(\)"), "the repository's parent folder"),
    (re.compile(r"\$\(CURDIR\)/\.\."), "the repository's parent folder"),
    (re.compile(r"(?<![\w.])/work/"), "an absolute path of this workplace"),
]
CLIMB = re.compile(r"(?<![\w.])((?:\.\./)+)([A-Za-z0-9_][\w.-]*)")


def files():
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *PLACES],
                            check=True, capture_output=True).stdout.decode("utf-8", "surrogateescape")
    for name in sorted(set(filter(None, listed.split("\0")))):
        path = REPO / name
        if path == Path(__file__).resolve():
            continue  # it names the patterns it looks for
        if path.is_file() and not path.is_symlink():
            yield path


def outside(path):
    try:
        path.resolve().relative_to(REPO)
        return False
    except ValueError:
        return True


def findings(path):
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if "outside-ok:" in line:
            continue
        for pattern, what in NAMED:
            if pattern.search(line):
                yield number, what, line
        for match in CLIMB.finditer(line):
            relative = match.group(1) + match.group(2)
            if outside(path.parent / relative) or outside(REPO / relative):
                yield number, f"{relative} climbs out of the repository", line


def main():
    problems = 0
    for path in files():
        for number, what, line in findings(path):
            problems += 1
            print(f"{path.relative_to(REPO)}:{number}: {what}: {line.strip()[:160]}")
    if problems:
        print(f"check-inside: {problems} place(s) name a path outside the repository; a user's clone has nothing there.",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
