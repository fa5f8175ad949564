"""A modern rendering aligned with its original, paragraph by paragraph (``glossary align``).

The corpus holds a modern Chinese rendering of 禮經本義 卷十四–十五 (the manifest says
``rendering_of: KR1d0044``). Each of its paragraphs is paired with the passages of the
original it renders: a run of the classic between two notes, a note, a ``右…`` section
marker. Nothing here knows these two texts: the method is the same for any rendering of
any 卷 that the manifest declares.

**Passages.** The original's documents for the 卷 the rendering covers (its volume
headings, else the manifest's ``juan``) are cut into passages in the order of the file: each
commentary note is one passage, each section marker is one, and the classic is cut
wherever a note or a marker stands in it (a note that is only the sentence mark ``(句)`` is
neither).

**Evidence.** Both sides are folded as matching folds them (:func:`glossary.normalize.normalize`:
variants, traditional → simplified), so a character that survives into modern Chinese is the
same character on both sides. A passage's features are its characters and character pairs
(names such as 敖君善 and 郑康成, terms such as 离肺 and 西阶, numbers); a note leaves out the
words it repeats from the classic before it (its lemma). A pair is scored by a
log-likelihood ratio, feature by feature: a feature of the passage turns up in a paragraph
that renders it with probability ``q`` (how often that character survives translation), or
in any paragraph of that length by chance (from its frequency in the rendering). The
survival rates start at ½ and are re-estimated from the alignment itself (two rounds of
hard EM), so 曰, 也 and 之, which seldom survive, soon weigh nothing, and 俎, 尸 and 觶 weigh
much. A classic passage is scored against the part of a paragraph outside ``【…】`` only
(the brackets hold the rendering of notes); a note and a marker against the whole; a long
paragraph also window by window. A marker paragraph (``右，…``, ``右边是…``, ``以上是…``) and a
marker passage are anchors: their pairing earns a bonus, as far as their names agree.

**Alignment.** Dynamic programming over paragraphs × passages finds the best monotone set
of links: a paragraph may render several passages (a classic run with its notes, or a whole
stretch in a condensed paragraph), a passage may go unrendered, a paragraph may render
nothing of the original (headings), and a note may be shared by two neighbouring
paragraphs (a note split by a blank line), at a cost. Same input, same output: no
randomness, ties broken by position.

**Confidence.** Of each link, from the score margin: how much worse the best alignment is
that gives the passage to another paragraph, or that drops the link; ``1 - exp(-margin / 4)``.
A pair is as certain as its weakest link. Under :data:`glossary.model.ALIGNMENT_THRESHOLD` a
link is reported as uncertain and not shown as the rendering of its passage.
``docs/alignment.md`` gives the method at length and the accuracy measured on a hand-checked
sample.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from glossary.corpus import Corpus, Document
from glossary.corpus.seed import MARKER as RENDERED_MARKER
from glossary.corpus.seed import SENTENCE_MARK
from glossary.enrich.align_dp import (
    _link_confidences,
    _Tables,
    _unpaired_confidence,
)
from glossary.model_alignment import Alignment, Pair, Paragraph, Passage
from glossary.normalize import PLACEHOLDER, normalize

if TYPE_CHECKING:
    pass

#: Survival rate of a feature before anything is known (re-estimated from the alignment).
PRIOR_SURVIVAL = 0.5
#: Rounds of re-estimating the survival rates from the alignment (hard EM).
ROUNDS = 2
#: Bonus for a marker paragraph paired with a marker passage (an anchor).
MARKER_BONUS = 12.0
#: Cost of a note shared by two neighbouring paragraphs (a long note is often split in two).
SHARED = 6.0
#: Cost of a run of the classic or a marker shared by two paragraphs (seldom: they are short).
SHARED_CLASSIC = 20.0
#: Paragraphs longer than twice this (in characters) are also scored in windows of this size.
WINDOW = 160
#: Passages kept either side of the stretch the first round aligned.
SPAN_MARGIN = 30

SENTENCE = SENTENCE_MARK.strip("【】")


# -- the two sides -------------------------------------------------------------------------


def paragraphs(doc: Document) -> list[Paragraph]:
    """The rendering's paragraphs, as its reader kept them."""
    return [
        Paragraph(i, text, start, doc.line_at(start))
        for i, (start, text) in enumerate(doc.paragraphs)
    ]


def passages(doc: Document) -> list[Passage]:
    """The original's passages in the order of the file: notes, markers, and the classic cut at both."""
    # A note that is only a sentence mark (``(句)``, as ``【句】`` in the seed texts) is no passage.
    notes = [
        stream
        for stream in doc.streams
        if stream.layer == "commentary" and len(stream.offsets) and stream.text != SENTENCE
    ]
    breaks = sorted([stream.offsets[0] for stream in notes] + [offset for offset, _ in doc.markers])
    found: list[Passage] = []

    def add(kind: str, layer: str, text: str, start: int, end: int) -> None:
        _, page_id = doc.page_at(start)
        found.append(
            Passage(
                doc.path,
                doc.line_at(start),
                page_id,
                layer,
                kind,
                text,
                start,
                end,
                doc.juan_at(start),
            )
        )

    for stream in notes:
        add(
            "commentary",
            "commentary",
            stream.text,
            stream.offsets[0],
            stream.offsets[len(stream.offsets) - 1] + 1,
        )
    for offset, marker in doc.markers:
        add("marker", doc.text_info.main_layer, marker, offset, offset + len(marker))
    for stream in doc.streams:
        if stream.layer == "commentary":
            continue
        run_start = 0
        previous = None
        for i, offset in enumerate(stream.offsets):
            if previous is not None and bisect_right(breaks, offset) != bisect_right(
                breaks, previous
            ):
                add(
                    stream.layer,
                    stream.layer,
                    stream.text[run_start:i],
                    stream.offsets[run_start],
                    previous + 1,
                )
                run_start = i
            previous = offset
        if previous is not None:
            add(
                stream.layer,
                stream.layer,
                stream.text[run_start:],
                stream.offsets[run_start],
                previous + 1,
            )
    found.sort(key=lambda p: (p.start, p.kind != "marker"))
    return [p for p in found if normalize(p.text)]


def _outside_brackets(text: str) -> str:
    """The text outside ``【…】``: an unclosed 【 runs to the end, a 】 with no 【 closes from the start."""
    depth = 1 if _continues(text) else 0
    kept = []
    for ch in text:
        if ch == "【":
            depth += 1
        elif ch == "】":
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(ch)
    return "".join(kept)


def _plain_mask(text: str) -> list[bool]:
    """For each character of the text's normalised key: whether it stands outside ``【…】``."""
    plain = normalize(_outside_brackets(text))
    key = normalize(text)
    # The plain key is a subsequence of the key: walk both.
    mask, k = [], 0
    for ch in key:
        kept = k < len(plain) and plain[k] == ch
        mask.append(kept)
        k += kept
    return mask


# -- scoring -------------------------------------------------------------------------------


def _features(key: str) -> set[str]:
    """Characters and character pairs of a normalised text (placeholders match nothing)."""
    chars = {ch for ch in key if ch != PLACEHOLDER}
    pairs = {key[i : i + 2] for i in range(len(key) - 1) if PLACEHOLDER not in key[i : i + 2]}
    return chars | pairs


class _Scorer:
    """Log-likelihood ratios of paragraph i rendering passage j."""

    def __init__(self, modern: Sequence[str], original: Sequence[Passage]):
        keys = [normalize(text) for text in modern]
        plain_keys = [normalize(_outside_brackets(text)) for text in modern]
        counts: Counter[str] = Counter()
        for key in keys:
            counts.update(key)
            counts.update(key[i : i + 2] for i in range(len(key) - 1))
        total = max(1, sum(len(key) for key in keys))
        #: Frequency of each feature per position of the rendering.
        self.frequency = {f: n / total for f, n in counts.items()}
        self.full = [_features(key) for key in keys]
        self.plain = [_features(key) for key in plain_keys]
        # What is scored: each paragraph whole, and a long one also in overlapping windows (in a
        # paragraph of thousands of characters, any character stands somewhere by chance; where
        # a passage is rendered, its characters stand together). A pair scores its best window.
        self.rows: list[tuple[int, set[str], int, set[str], int]] = []
        for i, (key, plain) in enumerate(zip(keys, plain_keys)):
            self.rows.append((i, self.full[i], len(key), self.plain[i], len(plain)))
            if len(key) > 2 * WINDOW:
                mask = _plain_mask(modern[i])
                for start in range(0, len(key) - WINDOW // 2, WINDOW // 2):
                    window = key[start : start + WINDOW]
                    inside = "".join(
                        ch for ch, kept in zip(window, mask[start : start + WINDOW]) if kept
                    )
                    self.rows.append(
                        (i, _features(window), len(window), _features(inside), len(inside))
                    )
        # A feature the rendering never has is no evidence either way: left out. A note's words
        # that repeat the classic before it (its lemma, 祝饗 in 祝饗以饗告神也) say nothing about
        # whether a paragraph renders the note or the classic: left out of the note.
        self.all_features = []
        lemma: set[str] = set()
        for p in original:
            feats = _features(normalize(p.text)) & counts.keys()
            if p.kind == "classic":
                lemma = feats
            elif p.kind == "commentary" and len(feats - lemma) * 2 >= len(feats):
                # (a note that only restates its lemma, 篚在洗之西也, keeps its words)
                feats = feats - lemma
            self.all_features.append(feats)
        self.original = original
        self.original_chars = {ch for p in original for ch in normalize(p.text)}
        # A marker paragraph's name (右边是主尸进入 → 主尸进入), folded, for the anchors.
        self.anchor = [
            set(normalize(m.group(1))) if (m := RENDERED_MARKER.match(text)) else None
            for text in modern
        ]
        self.survival: dict[str, float] = {}
        self.use(0, len(original))

    def use(self, lo: int, hi: int) -> None:
        """Score only the passages ``original[lo:hi]`` (column j is passage ``lo + j``)."""
        self.offset = lo
        passages = self.original[lo:hi]
        self.passage_features = self.all_features[lo:hi]
        self.sharing = [SHARED if p.kind == "commentary" else SHARED_CLASSIC for p in passages]
        self.is_classic = [p.kind == "classic" for p in passages]
        self.marker = [p.kind == "marker" for p in passages]
        self.marker_names = [set(normalize(p.text.removeprefix("右"))) for p in passages]
        self.postings: tuple[dict[str, list[int]], dict[str, list[int]]] = ({}, {})
        for j, feats in enumerate(self.passage_features):
            postings = self.postings[0 if self.is_classic[j] else 1]
            for f in feats:
                postings.setdefault(f, []).append(j)

    def matrix(self) -> list[list[float]]:
        """s[i][j]: the log-likelihood ratio of paragraph i rendering passage j (plus the anchor bonus)."""
        survival, prior = self.survival, PRIOR_SURVIVAL
        absent = {
            f: math.log(1 - survival.get(f, prior))
            for feats in self.passage_features
            for f in feats
        }
        base = [sum(absent[f] for f in feats) for feats in self.passage_features]
        markers = [j for j, is_marker in enumerate(self.marker) if is_marker]
        rows: list[list[float] | None] = [None] * len(self.full)
        for i, full, full_length, plain, plain_length in self.rows:
            row = list(base)
            for feats, length, postings in (
                (plain, plain_length, self.postings[0]),
                (full, full_length, self.postings[1]),
            ):
                for f in feats:
                    js = postings.get(f)
                    if not js:
                        continue
                    q = survival.get(f, prior)
                    chance = min(0.999, max(1e-6, 1 - (1 - self.frequency[f]) ** length))
                    gain = math.log(1 + q * (1 - chance) / chance) - absent[f]
                    for j in js:
                        row[j] += gain
            if (name := self.anchor[i]) is not None:
                # Markers anchor the alignment as far as their names agree (Dice of their characters).
                for j in markers:
                    theirs = self.marker_names[j]
                    if name or theirs:
                        row[j] += MARKER_BONUS * 2 * len(name & theirs) / (len(name) + len(theirs))
            # A paragraph scores a passage by its best reading: whole, or one of its windows.
            earlier = rows[i]
            rows[i] = row if earlier is None else [a if a > b else b for a, b in zip(earlier, row)]
        return rows  # type: ignore[return-value]

    def coverage(self, i: int, j: int) -> float:
        """The share of paragraph i's characters found in the original that passage j holds."""
        chars = {f for f in self.full[i] if len(f) == 1 and f in self.original_chars}
        if not chars:
            return 0.0
        return len(chars & set(normalize(self.original[self.offset + j].text))) / len(chars)

    def reestimate(self, links: Iterable[tuple[int, int]]) -> None:
        """Survival rates from the linked pairs: (seen + 1) / (linked + 2) for each feature."""
        seen: Counter[str] = Counter()
        linked: Counter[str] = Counter()
        for i, j in links:
            modern = self.plain[i] if self.is_classic[j] else self.full[i]
            for f in self.passage_features[j]:
                linked[f] += 1
                if f in modern:
                    seen[f] += 1
        self.survival = {f: (seen[f] + 2 * PRIOR_SURVIVAL) / (n + 2) for f, n in linked.items()}


def align(
    modern: Sequence[str], original: Sequence[Passage]
) -> tuple[list[list[tuple[int, float]]], list[float | None]]:
    """For each modern paragraph, the passages it renders (their indices), each with the confidence
    of that link; and for each paragraph paired with nothing, the confidence of that (else None)."""
    links, unpaired = _aligned(tuple(modern), tuple(original))
    return [list(found) for found in links], list(unpaired)


# The same texts align the same way: a build, the reader view and `glossary align` of one corpus in
# one process align it once (a few of them: a test run opens several small corpora).
@lru_cache(maxsize=4)
def _aligned(
    modern: tuple[str, ...], original: tuple[Passage, ...]
) -> tuple[tuple[tuple[tuple[int, float], ...], ...], tuple[float | None, ...]]:
    if not modern or not original:
        return tuple(() for _ in modern), tuple(1.0 for _ in modern)
    scorer = _Scorer(modern, original)
    for step in range(ROUNDS):
        links = _Tables(scorer.matrix(), scorer.sharing).links()
        scorer.reestimate(links)
        if step == 0 and links:
            # What lies far outside the stretch the first round aligned is not rendered: the
            # later rounds look at that stretch only (a rendering of part of a 卷 costs less).
            lo = max(0, links[0][1] - SPAN_MARGIN)
            hi = min(len(original), max(j for _, j in links) + SPAN_MARGIN + 1)
            scorer.use(lo, hi)
    tables = _Tables(scorer.matrix(), scorer.sharing)
    links = tables.links()
    confidence = _link_confidences(tables, links)
    result: list[list[tuple[int, float]]] = [[] for _ in modern]
    for i, j in links:
        result[i].append((scorer.offset + j, confidence[(i, j)]))
    for i, found in enumerate(result):
        # A passage between two that a paragraph renders is rendered there too (a short run of
        # the classic whose few words the paraphrase does not keep: 無尸則禮及薦饌皆如初), with
        # half the confidence of the less certain of the two.
        if len(found) > 1:
            filled = []
            for (a, ca), (b, cb) in zip(found, found[1:]):
                filled.append((a, ca))
                filled.extend((j, round(min(ca, cb) / 2, 3)) for j in range(a + 1, b))
            filled.append(found[-1])
            result[i] = filled
    for i in range(1, len(modern)):
        # A paragraph that starts inside a note the previous paragraph left open (its first
        # bracket is a 】) goes on rendering that note: 译，又回到原位哭泣】 after a note on 哭止.
        if not result[i] and result[i - 1] and _continues(modern[i]):
            j, previous = result[i - 1][-1]
            if original[j].kind == "commentary":
                result[i] = [(j, round(min(previous, scorer.coverage(i, j - scorer.offset)), 3))]
    return tuple(tuple(found) for found in result), tuple(
        None if found else _unpaired_confidence(tables, i) for i, found in enumerate(result)
    )


def _continues(text: str) -> bool:
    """Whether the text's first bracket closes one opened before it."""
    first_open, first_close = text.find("【"), text.find("】")
    return first_close != -1 and (first_open == -1 or first_close < first_open)


# -- the corpus ----------------------------------------------------------------------------


def label_of(doc: Document) -> str:
    """How a rendering is named where it is shown: ``modern rendering (seed-shiyu, <rendered_by>)``."""
    info = doc.text_info
    return (
        f"modern rendering ({info.id}, {info.rendered_by})"
        if info.rendered_by
        else f"modern rendering ({info.id})"
    )


def _juans(doc: Document) -> set[int]:
    found = {number for _, number in doc.juans}
    if doc.text_info.juan is not None:
        found.add(doc.text_info.juan)
    return found


def alignments(corpus: Corpus) -> tuple[Alignment, ...]:
    """Every rendering the manifest declares (``rendering_of``), aligned with its original."""
    result = []
    for doc in corpus.documents:
        original_id = doc.text_info.rendering_of
        if not original_id or not doc.paragraphs:
            continue
        juans = _juans(doc)
        sources = [
            d
            for d in corpus.documents
            if d.text_info.id == original_id
            and (
                {number for _, number in d.juans}
                or {juan for juan in (d.text_info.juan,) if juan is not None}
            )
            & juans
        ]
        original = [p for source in sources for p in passages(source)]
        modern = paragraphs(doc)
        links, unpaired = align([p.text for p in modern], original)
        pairs = tuple(
            Pair(
                paragraph,
                tuple(original[j] for j, _ in found),
                tuple(c for _, c in found),
                alone if alone is not None else 1.0,
            )
            for paragraph, found, alone in zip(modern, links, unpaired)
        )
        result.append(Alignment(doc.text_info.id, doc.path, original_id, label_of(doc), pairs))
    return tuple(result)
