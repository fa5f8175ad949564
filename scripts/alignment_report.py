#!/usr/bin/env python3
"""Measure the aligner on the hand-checked sample and print the table of docs/alignment.md.

The sample (tests/data/alignment_sample.yaml) pairs paragraphs of the modern rendering with
the passages of 禮經本義 they render, read by hand; this script aligns the shipped corpus
and counts, per set and kind of paragraph, the pairs the aligner gets exactly right.

Usage: python scripts/alignment_report.py [corpus]
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from glossary.corpus import load_corpus  # noqa: E402
from glossary.enrich.align import alignments  # noqa: E402
from glossary.model_alignment import Alignment, Passage  # noqa: E402

SAMPLE = ROOT / "tests" / "data" / "alignment_sample.yaml"
KINDS = ("yi", "classic", "commentary", "mixed", "marker", "heading")
SETS = ("held-out", "tuning")


def _matches(passage: Passage, ref: str) -> bool:
    """Whether ``passage`` is the one a sample names as ``<file>:<line> <kind> <first characters>``."""
    place, kind, start = ref.split(" ")
    file, _, line = place.rpartition(":")
    return (
        passage.file.rsplit("/", 1)[-1] == file
        and passage.line == int(line)
        and passage.kind == kind
        and passage.text.startswith(start)
    )


@dataclass
class Tally:
    """Pairs exactly right (by kind), passages found and missed, and how the confidences sorted them."""

    right: Counter = field(default_factory=Counter)
    total: Counter = field(default_factory=Counter)
    found: int = 0
    wrong: int = 0
    missed: int = 0
    #: (right, all) among the pairs shown as certain and among the rest
    certain: list[int] = field(default_factory=lambda: [0, 0])
    uncertain: list[int] = field(default_factory=lambda: [0, 0])
    errors: list[str] = field(default_factory=list)

    @property
    def pairs(self) -> tuple[int, int]:
        return sum(self.right.values()), sum(self.total.values())


def evaluate(alignment: Alignment, sample: list[dict]) -> dict[str, Tally]:
    """The sample's pairs checked against ``alignment``, by set."""
    tallies = {name: Tally() for name in SETS}
    for item in sample:
        pair = alignment.pairs[item["paragraph"]]
        if not pair.paragraph.text.startswith(item["starts"]):
            raise ValueError(f"paragraph {item['paragraph']} does not start {item['starts']!r}")
        tally = tallies[item["set"]]
        refs = item["original"]
        found = [any(_matches(p, ref) for ref in refs) for p in pair.original]
        named = [any(_matches(p, ref) for p in pair.original) for ref in refs]
        exact = all(found) and all(named)
        tally.total[item["kind"]] += 1
        tally.right[item["kind"]] += exact
        tally.found += sum(found)
        tally.wrong += len(found) - sum(found)
        tally.missed += len(named) - sum(named)
        bucket = tally.certain if pair.certain else tally.uncertain
        bucket[0] += exact
        bucket[1] += 1
        if not exact:
            tally.errors.append(
                f"¶{item['paragraph']} ({item['kind']}, confidence {pair.confidence:.2f})"
            )
    return tallies


def _share(right: int, total: int) -> str:
    return f"{right}/{total} ({100 * right / total:.0f}%)" if total else "—"


def table(corpus: Path = ROOT / "corpus") -> str:
    """The Markdown table of docs/alignment.md."""
    alignment = alignments(load_corpus(corpus))[0]
    sample = yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))
    tallies = evaluate(alignment, sample)
    lines = [
        "| paragraphs | "
        + " | ".join(KINDS)
        + " | all | passages: precision, recall | right when shown as certain | right otherwise (uncertain, or no passage) |",
        "|---|" + "---:|" * (len(KINDS) + 4),
    ]
    for name in SETS:
        tally = tallies[name]
        cells = [_share(tally.right[kind], tally.total[kind]) for kind in KINDS]
        precision = tally.found / max(1, tally.found + tally.wrong)
        recall = tally.found / max(1, tally.found + tally.missed)
        lines.append(
            f"| {name} | " + " | ".join(cells) + f" | **{_share(*tally.pairs)}** | "
            f"{precision:.3f}, {recall:.3f} | {_share(*tally.certain)} | {_share(*tally.uncertain)} |"
        )
    lines.append("")
    for name in SETS:
        errors = tallies[name].errors
        lines.append(
            f"Not exactly right ({name}): " + (", ".join(errors) if errors else "none") + "."
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "corpus"))
