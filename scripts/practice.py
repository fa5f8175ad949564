#!/usr/bin/env python3
"""Take one entry out of terms.yaml, so that CONTRIBUTING.md's walkthrough can be followed as written.

Usage: python scripts/practice.py ENTRY_ID [terms.yaml]

The guide retraces how an entry that is in the glossary already (卒哭, zu-ku) was added. This
removes the entry and every link to it from other entries' `related` lists; `git checkout -- .`
puts everything back once you have walked through the guide.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def remove(text: str, entry_id: str) -> tuple[str, int]:
    """``text`` without the entry ``entry_id`` and without the links to it; how many links were removed."""
    lines = text.splitlines(True)
    start = next(
        (i for i, line in enumerate(lines) if line.rstrip("\n") == f"- id: {entry_id}"), None
    )
    if start is None:
        raise SystemExit(f"no entry {entry_id!r} in terms.yaml")
    end = start + 1
    # The entry runs to the next entry or section comment at the margin (blank lines before it go too).
    while end < len(lines) and not lines[end].startswith(("- ", "#")):
        end += 1
    kept = "".join(lines[:start] + lines[end:])
    links = 0

    def unlink(match: re.Match[str]) -> str:
        nonlocal links
        ids = [i.strip() for i in match.group(2).split(",") if i.strip()]
        if entry_id not in ids:
            return match.group(0)
        links += 1
        return f"{match.group(1)}[{', '.join(i for i in ids if i != entry_id)}]"

    return re.sub(r"^(  related: )\[([^\]]*)\]", unlink, kept, flags=re.M), links


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    entry_id = argv[0]
    terms = Path(argv[1]) if len(argv) > 1 else Path("terms.yaml")
    text, links = remove(terms.read_text(encoding="utf-8"), entry_id)
    terms.write_text(text, encoding="utf-8")
    print(
        f"{terms}: removed {entry_id} and {links} link(s) to it in other entries' related lists "
        "(git checkout -- . puts them back)"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
