#!/usr/bin/env python3
"""The glossary's counts (per rite and category) as the Markdown table in README.md.

Usage: python scripts/stats.py [--write] [terms.yaml]

Without --write the table is printed; with it, README.md's table (between the `<!-- stats -->`
markers) is replaced by it. Run it with the environment's Python (`.venv/bin/python` when the
environment is not active): it imports the glossary package.
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
    lines = [
        "| rite | " + " | ".join(categories) + " | all |",
        "|---|" + "---:|" * (len(categories) + 1),
    ]
    for rite in vocab.rites:
        total = sum(1 for e in entries if rite in e.rites)
        if not total:
            continue
        counts = [cells[(rite, c)] for c in categories]
        lines.append(f"| {rite.simplified} | " + " | ".join(map(str, counts)) + f" | {total} |")
    by_category = Counter(e.category for e in entries)
    lines.append(
        "| **all entries** | "
        + " | ".join(str(by_category[c]) for c in categories)
        + f" | **{len(entries)}** |"
    )
    citations = sum(len(e.citations) for e in entries)
    two = sum(1 for e in entries if len(e.citations) >= 2)
    lines.append("")
    lines.append(
        f"{len(entries)} entries, {citations} citations (all verified by `glossary check`); "
        f"{two} entries ({100 * two // max(1, len(entries))}%) have two or more. "
        "An entry counts under every rite it lists."
    )
    return "\n".join(lines) + "\n"


START, END = "<!-- stats -->\n", "<!-- /stats -->"


def write(readme: Path, terms: Path) -> bool:
    """Put the current table between README's markers; whether the file changed."""
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{readme}: no {START.strip()} … {END} markers to write the table between")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{START}{table(terms)}{END}{tail}"
    if new == text:
        return False
    readme.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str]) -> None:
    args = [a for a in argv if a != "--write"]
    terms = Path(args[0]) if args else ROOT / "terms.yaml"
    if "--write" not in argv:
        sys.stdout.write(table(terms))
        return
    readme = terms.resolve().parent / "README.md"
    changed = write(readme, terms)
    print(
        f"{readme.name}: the table {'now counts' if changed else 'already counts'} the entries of {terms.name}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
