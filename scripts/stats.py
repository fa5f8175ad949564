#!/usr/bin/env python3
"""Print the glossary's counts (per rite and category) as the Markdown table in README.md.

Usage: python scripts/stats.py [terms.yaml]
"""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glossary.load import load_yaml  # noqa: E402
from glossary.model import CATEGORIES  # noqa: E402
from glossary.validate import validate  # noqa: E402

RITES = ("乡射礼", "士虞礼", "特牲馈食礼")


def table(terms: Path) -> str:
    """Entries per rite and category, with totals and citation counts."""
    entries, _ = validate(load_yaml(terms), terms.parent)
    cells = Counter((rite, e.category) for e in entries for rite in e.rites)
    lines = ["| rite | " + " | ".join(CATEGORIES) + " | all |", "|---|" + "---:|" * (len(CATEGORIES) + 1)]
    for rite in RITES:
        counts = [cells[(rite, c)] for c in CATEGORIES]
        total = sum(1 for e in entries if rite in e.rites)
        lines.append(f"| {rite} | " + " | ".join(map(str, counts)) + f" | {total} |")
    by_category = Counter(e.category for e in entries)
    lines.append("| **all entries** | " + " | ".join(str(by_category[c]) for c in CATEGORIES) + f" | **{len(entries)}** |")
    citations = sum(len(e.citations) for e in entries)
    two = sum(1 for e in entries if len(e.citations) >= 2)
    lines.append("")
    lines.append(f"{len(entries)} entries, {citations} citations (all verified by `glossary check`); "
                 f"{two} entries ({100 * two // max(1, len(entries))}%) have two or more. "
                 "An entry counts under every rite it lists.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "terms.yaml"))
