#!/usr/bin/env python3
"""Fails when a Markdown file of the repository links to a file or a heading that does not exist.

Looks at every Markdown file git tracks (and every untracked one it does not ignore), at each inline
link `[text](target)` outside code, and checks, for a target that is not a URL (http:, https:,
mailto:), that the file or folder exists relative to the linking file and, for `#anchor` (alone: the
same file), that the Markdown file has a heading whose anchor it is, as GitHub makes them: lower case,
punctuation dropped, spaces as hyphens, `-1`, `-2`, ... for repeats. Prints each finding as
FILE:LINE: TARGET: REASON and exits 1 when there is one. Needs only python3; `make check-links`.
"""
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_files():
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"],
                            check=True, capture_output=True).stdout.decode("utf-8", "surrogateescape")
    for name in sorted(set(filter(None, listed.split("\0")))):
        path = REPO / name
        if path.is_file():
            yield path


def lines_outside_code(text):
    """(line number, line) for each line outside fenced code, with inline code blanked out."""
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


ANCHORS = {}


def anchors(path):
    if path not in ANCHORS:
        found, seen = set(), {}
        fenced = False
        for line in path.read_text(encoding="utf-8").splitlines():
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            found.update(HTML_ANCHOR.findall(line))
            match = HEADING.match(line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
        ANCHORS[path] = found
    return ANCHORS[path]


def findings(path):
    for number, line in lines_outside_code(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(line):
            target = match.group(1)
            if URL.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(REPO)}:{number}: {target}"
            try:
                linked.relative_to(REPO)
            except ValueError:
                yield f"{where}: outside the repository"
                continue
            if not linked.exists():
                yield f"{where}: no such file"
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                yield f"{where}: no heading #{anchor} in {linked.relative_to(REPO)}"


def main():
    problems, files, links = [], 0, 0
    for path in markdown_files():
        files += 1
        problems += list(findings(path))
        links += sum(1 for _, line in lines_outside_code(path.read_text(encoding="utf-8")) for _ in LINK.finditer(line))
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-links: {len(problems)} broken links", file=sys.stderr)
        return 1
    print(f"check-links: {links} links in {files} Markdown files resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
