#!/usr/bin/env python3
"""Propose each entry's ``guangyun`` (the 廣韻 reading of each headword character).

For every entry without ``guangyun``, each character's 廣韻 readings (tshet-uinh) are compared
with the entry's pinyin (glossary/enrich/readings/guangyun.propose, through glossary/enrich/mandarin.py:
the Mandarin a reading regularly gives): one that fits is proposed; several that fit, or none, are left for a person to decide, and
listed. ``--write`` puts the proposals into the terms file after each entry's ``pinyin`` line
(``null`` where nothing fits, to be reviewed); nothing else in the file changes.

Usage: python scripts/propose_guangyun.py [--write] [terms.yaml]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glossary.enrich.pinyin import split_reading  # noqa: E402
from glossary.enrich.readings.guangyun import propose  # noqa: E402
from glossary.enrich.readings.lookup import headword_chars  # noqa: E402
from glossary.validate import load_entries  # noqa: E402


def propose_for(entry) -> tuple[list[str | None], list[str]]:
    """The proposed 反切 of each character, and what a person must decide."""
    return propose(headword_chars(entry), entry.pinyin)


def flow(values: list[str | None]) -> str:
    return "[" + ", ".join("null" if v is None else v for v in values) + "]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("terms", nargs="?", default=str(ROOT / "terms.yaml"))
    parser.add_argument(
        "--write", action="store_true", help="insert the proposals into the terms file"
    )
    args = parser.parse_args()
    path = Path(args.terms)
    entries, problems = load_entries(path)
    proposals = {}
    for entry in entries:
        if entry.guangyun is not None or len(split_reading(entry.pinyin)) != len(
            headword_chars(entry)
        ):
            continue
        chosen, notes = propose_for(entry)
        proposals[entry.id] = chosen
        print(f"{entry.id}: guangyun: {flow(chosen)}")
        for note in notes:
            print(f"    review: {note}")
    if args.write:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        out, current = [], None
        for line in lines:
            out.append(line)
            if match := re.match(r"- id: (\S+)", line):
                current = match.group(1)
            elif current in proposals and re.match(r"  pinyin: ", line):
                out.append(f"  guangyun: {flow(proposals.pop(current))}\n")
        path.write_text("".join(out), encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
