"""Why a quote matched: the variant folds and edition variants between a quote and the corpus.

A quote is matched on keys (:mod:`glossary.normalize`): where its characters differ from the
printed corpus, each difference is one of

- **script**: OpenCC's traditional→simplified folding alone makes them one (設/设, 衆/众). Not a
  fold: script is never reported;
- **a fold** from a variant table (``glossary/data/variants.tsv``): an old or edition-specific
  form and its standard character (歩/步, 賔/賓), source ``yitizi``, ``unihan`` or ``curated``;
- **an edition variant** (``glossary/data/edition_variants.tsv``): two characters that editions
  write for one another (壹/一, 醋/酢), each pair with its provenance. These are never folded:
  a quote is tried with them only when it is not found as written, and verifies with a warning.

Folds are worked out only for the few matches that can need one (a quote or a matched passage
with a character a table folds, see :meth:`glossary.index.CorpusIndex.tabled_within`), so a
plain check stays one pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from glossary.normalize import KEPT, PROTECTED, SOURCES, VARIANTS, fold_char, normalize, script_char

EDITION = "edition"
#: One kept character at a time (KEPT matches runs).
KEPT_CHAR = re.compile(KEPT.pattern.replace(")+", ")"))


@dataclass(frozen=True)
class Fold:
    """One difference a match needed: the quote's character, the corpus', and the table that joins them."""

    quote: str
    corpus: str
    source: str  # yitizi | unihan | curated | edition
    note: str

    def to_json(self) -> dict[str, str]:
        return {
            "quote": self.quote,
            "corpus": self.corpus,
            "source": self.source,
            "note": self.note,
        }

    def label(self) -> str:
        """``歩/步 (yitizi: 歩→步 全等 (equivalent))``: the quote's character, then the corpus'."""
        return f"{self.quote}/{self.corpus} ({self.source}: {self.note})"


@dataclass(frozen=True)
class EditionPair:
    """Two characters editions write for one another, and who says so."""

    a: str
    b: str
    source: str
    locus: str

    def label(self) -> str:
        return f"{self.a}/{self.b}, {self.source}: {self.locus}"


@lru_cache(maxsize=1)
def edition_pairs() -> dict[tuple[str, str], EditionPair]:
    """(key of one character, key of the other) → its pair, both ways round."""
    pairs: dict[tuple[str, str], EditionPair] = {}
    text = (
        resources.files("glossary.data")
        .joinpath("edition_variants.tsv")
        .read_text(encoding="utf-8")
    )
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        pair = EditionPair(*line.split("\t", 3))
        a, b = normalize(pair.a), normalize(pair.b)
        pairs.setdefault((a, b), pair)
        pairs.setdefault((b, a), pair)
    return pairs


@lru_cache(maxsize=1)
def edition_alternatives() -> dict[str, str]:
    """Key character → the key characters it may stand as in another edition (一 → 壹, 大 → 太泰)."""
    alternatives: dict[str, str] = {}
    for a, b in sorted(edition_pairs()):
        alternatives[a] = alternatives.get(a, "") + b
    return alternatives


@lru_cache(maxsize=1)
def _notes() -> dict[str, str]:
    """Variant → the note of its row in the fold table (read only when a fold is explained)."""
    notes = {}
    text = resources.files("glossary.data").joinpath("variants.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            variant, _, _, note = line.split("\t", 3)
            notes[variant] = note
    return notes


def _table_steps(ch: str) -> list[tuple[str, str, str]]:
    """The variant-table steps on the way from ``ch`` to its key, (from, to, source), as
    :func:`glossary.normalize.fold_char` takes them (table, OpenCC, table, until it settles)."""
    steps: list[tuple[str, str, str]] = []
    seen = {ch}
    while ch not in PROTECTED:
        standard = ch
        if standard in VARIANTS:
            steps.append((standard, VARIANTS[standard], SOURCES[standard]))
            standard = VARIANTS[standard]
        if standard in PROTECTED:
            break
        following = script_char(standard)
        if following in VARIANTS:
            steps.append((following, VARIANTS[following], SOURCES[following]))
            following = VARIANTS[following]
        if following in seen:
            break
        seen.add(following)
        ch = following
    return steps


def explain(quote: str, corpus: str) -> Fold | None:
    """What makes the quote's character match the printed one (None: the same, or script only)."""
    if quote == corpus or script_char(quote) == script_char(corpus):
        return None
    if fold_char(quote) != fold_char(corpus):
        pair = edition_pairs().get((fold_char(quote), fold_char(corpus)))
        return Fold(quote, corpus, EDITION, pair.label()) if pair is not None else None
    steps = _table_steps(quote) + _table_steps(corpus)
    if not steps:
        return None
    notes = _notes()
    note = "; ".join(f"{a}→{b} {notes.get(a, '')}".rstrip() for a, b, _ in steps)
    return Fold(quote, corpus, steps[0][2], note)


def differences(quote: str, printed: str) -> list[tuple[int, Fold]]:
    """Each fold between a quote and the printed characters it matched, with the 1-based position
    in the quote as written of the character it concerns.

    ``quote`` is the quote as written (punctuation is skipped), ``printed`` the corpus' printed
    characters (``CorpusIndex.printed``, or a locus' text: punctuation is skipped there too).
    """
    found = []
    for match, corpus in zip(KEPT_CHAR.finditer(quote), kept(printed)):
        fold = explain(match.group(), corpus)
        if fold is not None:
            found.append((match.start() + 1, fold))
    return found


def folds(quote: str, printed: str) -> list[Fold]:
    """The folds between a quote and the printed characters it matched, in the quote's order, each once."""
    return unique(fold for _, fold in differences(quote, printed))


def kept(text: str) -> str:
    """The characters of ``text`` that matching keeps, one for each character of its key."""
    return "".join(KEPT.findall(text))


def unique(found: Iterable[Fold | None]) -> list[Fold]:
    """The folds in first-seen order, each once."""
    return list(dict.fromkeys(f for f in found if f is not None))


def describe(found: Iterable[Fold]) -> str:
    """``matched through variant folds: 歩/步 (yitizi: …); 戸/户 (yitizi: …)``"""
    return "matched through variant folds: " + "; ".join(f.label() for f in found)


def edition_warning(found: Iterable[tuple[int, Fold]]) -> str:
    """The warning of a quote verified only through edition variants: each pair, where, and its source."""
    seen: dict[tuple[int, Fold], None] = dict.fromkeys(
        pf for pf in found if pf[1].source == EDITION
    )
    return "verified only through an edition variant: " + "; ".join(
        f"第{at}字 {fold.quote} where the corpus prints {fold.corpus} ({fold.note})"
        for at, fold in sorted(seen, key=lambda pf: pf[0])
    )


def _gaps(text: str) -> tuple[list[str], list[tuple[int, str]]]:
    """``text`` cut into its kept characters (with their 1-based positions) and the runs of
    punctuation and spacing around them: ``gaps[i]`` stands before kept character ``i``, the last
    after all of them."""
    gaps, chars, last = [], [], 0
    for match in KEPT_CHAR.finditer(text):
        gaps.append(text[last : match.start()])
        chars.append((match.start() + 1, match.group()))
        last = match.end()
    gaps.append(text[last:])
    # A variation selector picks a glyph of the character before it: not punctuation.
    return [_SELECTORS.sub("", gap) for gap in gaps], chars


_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def _shown(gap: str) -> str:
    return gap.replace(" ", "␣").replace("\u3000", "␣")


@dataclass(frozen=True)
class Form:
    """How a verified quote is written beside the passage it resolves to, as the corpus prints it."""

    #: The source's text for the quote (its punctuation and script, and the quote's own edges where
    #: the source has them there too): what ``glossary fmt --quotes`` writes.
    source: str
    #: Differences of script (於 for 于) and of punctuation or spacing, as the warning names them.
    differences: tuple[str, ...]
    #: Whether variant folds (歩 for 步) also differ: not warned (a note names them), but rewritten.
    folded: bool


def form(quote: str, before: str, printed: str, after: str) -> Form:
    """Compare a quote with the printed passage it matched: ``printed`` runs from the first to the
    last matched character, ``before`` and ``after`` are the punctuation and spacing around it."""
    q_gaps, q_chars = _gaps(quote)
    p_gaps, p_chars = _gaps(printed)
    notes: list[tuple[int, str]] = []
    folded = False
    for (at, mine), (_, theirs) in zip(q_chars, p_chars):
        if mine == theirs:
            continue
        if script_char(mine) == script_char(theirs):
            notes.append((at, f"第{at}字: {mine} ≠ {theirs}（原文）"))
        else:
            folded = True  # a variant fold or an edition variant: said by the note or the warning of its own
    # The quote's own edges count only where the source does not have them around the passage.
    lead = q_gaps[0] if before.endswith(q_gaps[0]) else ""
    tail = q_gaps[-1] if after.startswith(q_gaps[-1]) else ""
    if q_gaps[0] and not lead:
        notes.append((1, f"第1字: {_shown(q_gaps[0])} 原文无"))
    for i in range(1, len(q_chars)):
        mine, theirs = q_gaps[i], p_gaps[i] if i < len(p_gaps) - 1 else ""
        if mine == theirs:
            continue
        at = q_chars[i][0]
        if not mine:
            notes.append((at, f"第{at}字前: 原文有 {_shown(theirs)}"))
        elif not theirs:
            notes.append((at - len(mine), f"第{at - len(mine)}字: {_shown(mine)} 原文无"))
        else:
            notes.append(
                (at - len(mine), f"第{at - len(mine)}字: {_shown(mine)} ≠ {_shown(theirs)}（原文）")
            )
    if q_gaps[-1] and not tail:
        at = len(quote) - len(q_gaps[-1]) + 1
        notes.append((at, f"第{at}字: {_shown(q_gaps[-1])} 原文无"))
    return Form(
        lead + printed + tail, tuple(text for _, text in sorted(notes, key=lambda n: n[0])), folded
    )
