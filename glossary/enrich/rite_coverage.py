"""Rite coverage: the rites whose classic uses an entry's headword and that the entry does not list.

One Aho–Corasick pass over the classic layer of the primary text (禮經本義, KR1d0044), cut by
rite (:meth:`CorpusIndex.stretches`), finds every headword form (term, traditional, variants;
scripts and variant graphs folded as the index folds them). An occurrence inside a longer headword
found at the same place (矢 inside 乘矢) is that headword's, as the Anki passages count it
(glossary.render.anki.passages). Still approximate: a word used in another sense is counted
(``rites_declined`` says so), and so is one split across a note (the classic's stream is joined
around the notes it carries).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from glossary.index import CorpusIndex
from glossary.model import Entry
from glossary.normalize import normalize
from glossary.problems import WARNING, Problem
from glossary.vocab import Rite, vocabulary

LAYER = "classic"


@dataclass(frozen=True)
class Use:
    """How often a rite's classic uses an entry's headword, and where first."""

    rite: Rite
    count: int
    juan: int | None
    page: str | None
    line: int

    def place(self) -> str:
        """``卷6, 6-12b, l.345``: the first locus, as a finding names it."""
        parts = [
            f"卷{self.juan}" if self.juan is not None else "",
            self.page or "",
            f"l.{self.line}",
        ]
        return ", ".join(part for part in parts if part)


def forms(entry: Entry) -> set[str]:
    """The entry's headword forms, normalised (each script and variant graph folded)."""
    return {
        key
        for form in (entry.term, entry.traditional, *entry.variants)
        if (key := normalize(form or ""))
    }


def uses(entries: Iterable[Entry], index: CorpusIndex) -> dict[str, dict[Rite, Use]]:
    """Entry id → rite → its use there, for every rite whose primary classic uses the headword."""
    owners: dict[str, list[str]] = {}
    for entry in entries:
        for key in forms(entry):
            owners.setdefault(key, []).append(entry.id)
    found: dict[str, dict[Rite, list[int]]] = {}
    stretches = [s for s in index.stretches(LAYER) if s[2].text_info.primary]
    if owners and stretches:
        import ahocorasick

        automaton = ahocorasick.Automaton()
        for key in owners:
            automaton.add_word(key, key)
        automaton.make_automaton()
        vocab = vocabulary()
        for start, end, _, name in stretches:
            rite = vocab.rite(name)
            if rite is None:
                continue  # 提要, 逸禮: no rite an entry may list
            for pos, key in longest_kept(automaton.iter(index.text, start, end)):
                for ident in owners[key]:
                    found.setdefault(ident, {}).setdefault(rite, []).append(pos)
    result: dict[str, dict[Rite, Use]] = {}
    for ident, by_rite in found.items():
        result[ident] = {}
        for rite, places in by_rite.items():
            first = min(places)
            where = index.where(first)
            result[ident][rite] = Use(
                rite, len(places), where.juan, where.page, index.line_at(first)
            )
    return result


def longest_kept(matches: Iterable[tuple[int, str]]) -> list[tuple[int, str]]:
    """(start, key) of the matches no longer match overlaps (乘矢 keeps its 矢); the longest first,
    matches of one length never hiding each other."""
    spans = sorted(((end - len(key) + 1, key) for end, key in matches), key=lambda m: -len(m[1]))
    if not spans:
        return []
    # One byte per position, set under the longer matches kept: a C-level search says whether a
    # match is hidden (a whole 卷's classic has thousands of matches).
    low = min(start for start, _ in spans)
    taken = bytearray(max(start + len(key) for start, key in spans) - low)
    kept: list[tuple[int, str]] = []
    group: list[tuple[int, int]] = []
    size = 0
    for start, key in spans:
        if len(key) != size:
            for a, b in group:
                taken[a:b] = b"\x01" * (b - a)
            group, size = [], len(key)
        a, b = start - low, start - low + len(key)
        if taken.find(1, a, b) != -1:
            continue
        group.append((a, b))
        kept.append((start, key))
    return kept


def coverage_problems(
    file: str, entries: list[Entry], index: CorpusIndex
) -> tuple[list[Problem], list[Problem]]:
    """(missing, declined): a warning for each rite whose classic uses an entry's headword that
    the entry neither lists nor declines (Y307), and one for each declined rite that the entry
    lists or whose classic does not use the headword (Y308)."""
    found = uses(entries, index)
    missing: list[Problem] = []
    declined: list[Problem] = []
    for entry in entries:
        used = found.get(entry.id, {})
        refused = {d.rite for d in entry.rites_declined}
        for rite in sorted(set(used) - set(entry.rites) - refused, key=lambda r: r.order):
            use = used[rite]
            message = (
                f"{entry.term} stands {use.count}× in the classic of {rite.traditional}, first at "
                f"{use.place()}: list the rite (with a citation from it), or say why not in "
                f"rites_declined"
            )
            missing.append(
                Problem(
                    file, entry.line_of("rites"), f"{entry.id}.rites", WARNING, message, code="Y307"
                )
            )
        for item in entry.rites_declined:
            path = f"{entry.id}.rites_declined.{item.name or item.rite.traditional}"
            if item.rite in entry.rites:
                message = f"{item.rite.traditional} is both listed and declined: keep one"
            elif item.rite not in used:
                message = (
                    f"the classic of {item.rite.traditional} does not use {entry.term}: "
                    "nothing to decline, remove it"
                )
            else:
                continue
            declined.append(Problem(file, item.line, path, WARNING, message, code="Y308"))
    return missing, declined
