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

from glossary.validate import load_entries  # noqa: E402
from glossary.vocab import vocabulary  # noqa: E402


def table(terms: Path) -> str:
    """Entries per rite (those some entry lists, in 禮經本義's order) and category, with totals."""
    entries, _ = load_entries(terms)
    vocab = vocabulary()
    categories = vocab.category_ids
    cells = Counter((rite, e.category) for e in entries for rite in e.rites)
    lines = ["| rite | " + " | ".join(categories) + " | all |", "|---|" + "---:|" * (len(categories) + 1)]
    for rite in vocab.rites:
        total = sum(1 for e in entries if rite in e.rites)
        if not total:
            continue
        counts = [cells[(rite, c)] for c in categories]
        lines.append(f"| {rite.simplified} | " + " | ".join(map(str, counts)) + f" | {total} |")
    by_category = Counter(e.category for e in entries)
    lines.append("| **all entries** | " + " | ".join(str(by_category[c]) for c in categories) + f" | **{len(entries)}** |")
    citations = sum(len(e.citations) for e in entries)
    two = sum(1 for e in entries if len(e.citations) >= 2)
    lines.append("")
    lines.append(f"{len(entries)} entries, {citations} citations (all verified by `glossary check`); "
                 f"{two} entries ({100 * two // max(1, len(entries))}%) have two or more. "
                 "An entry counts under every rite it lists.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "terms.yaml"))
