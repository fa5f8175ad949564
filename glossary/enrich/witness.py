"""The received text as a second witness of the primary text's classic.

The manifest names a text ``witness_of`` the primary one (the received 儀禮 with 鄭玄's notes,
四部叢刊, beside 禮經本義's 文淵閣 print). Two things are worked out from the corpus index:

**The alignment** (:func:`witnessing`, kept in the cache beside the index). Rite by rite, the
primary text's classic is cut into passages (a run of the classic between two notes or section
markers) and each passage is found in the witness's classic of the same rite: where it stands
exactly (the occurrence nearest after the previous passage's, so that a short passage said twice
goes where the order puts it), else where most of its 4-character chunks vote for it, aligned
character by character there (Levenshtein). 蔡德晉 moves the 記 into the rite's body and splits
sentences: a passage is looked for wherever it stands in the rite, not only after the last one.
Both sides are compared as the index keeps them (script and variants folded).

**Readings.** For a classic passage of the primary text, :meth:`Witnessing.received` gives the
witness's passage (卷, page, line, text) and every place where the two read otherwise, an
edition variant (壹/一, glossary.folds) not counting.

**Repeated notes.** A note, or the part of one, that the primary text's author speaks repeats a
note of 鄭玄's when the two share a run of at least :data:`REPEAT` normalised characters, in
order, that is not itself a run of the classic (both quote the classic often):
:func:`repeated_note`.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

from glossary.corpus.model import Locus, Reading, Witness
from glossary.folds import edition_alternatives
from glossary.index import CorpusIndex, Hit
from glossary.matching import SEPARATOR
from glossary.vocab import vocabulary

if TYPE_CHECKING:
    from glossary.cache import IndexCache
    from glossary.enrich.local_repeats import Places

#: Characters of a chunk that votes for where a passage stands in the witness.
CHUNK = 4
#: Characters either side of the voted place that a passage is aligned within.
SLACK = 8
#: A passage aligned by votes must find at least this share of its characters (a short one) …
MIN_SHARE = 0.5
#: … or, a long one, differ from its window in at most this share; else it is cut in two.
MAX_EDITS = 0.2
#: The costs of a character of the witness that the passage lacks, of one the witness lacks, and
#: of one it has otherwise, when a window is chosen (see :func:`_nearest`).
WEIGHTS = (1, 3, 3)
#: Passages up to this long are tried against windows up to twice as long (longer ones, which
#: seldom are condensed, are cut in two when they fit no window of about their length).
WIDE = 48
#: A passage at least this long that its rite's witness lacks is looked for in the other rites.
MOVED = 6
#: Passages shorter than this are not cut.
SPLIT = 16
#: A note of the primary text's author repeats one of 鄭玄's when they share this many
#: normalised characters in a row (not a run of the classic).
REPEAT = 8


@dataclass(frozen=True, eq=False)
class Witnessing:
    """The primary text's classic aligned with a witness's: for each index position of the
    primary's classic (``positions``, increasing), the witness's index position (``mapped``, −1
    where it has none)."""

    primary: str
    witness: str
    positions: array
    mapped: array

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        return Witnessing, (self.primary, self.witness, self.positions, self.mapped)

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """The witness's index span of the primary's passage at ``start``–``end``, or None."""
        i, j = bisect_left(self.positions, start), bisect_left(self.positions, end)
        found = [m for m in self.mapped[i:j] if m >= 0]
        if not found:
            return None
        # A passage whose characters went to places far apart (two passages, 記 moved): the
        # stretch around its first aligned character.
        first, limit = found[0], 2 * (end - start) + SLACK
        kept = [m for m in found if first <= m < first + limit]
        return first, max(kept) + 1

    def counterpart(self, index: CorpusIndex, start: int, end: int) -> tuple[int, int] | None:
        """:meth:`span`, where the witness's stretch is this passage (:func:`same_passage`)."""
        span = self.span(start, end)
        if span is None or not same_passage(index.text[start:end], index.text[span[0] : span[1]]):
            return None
        return span

    def received(self, index: CorpusIndex, start: int, end: int) -> Witness | None:
        """The witness's reading of the primary's classic at index positions ``start``–``end``."""
        span = self.counterpart(index, start, end)
        span = self.elsewhere(index, start, end, span) or span
        if span is None:
            return None
        locus = index.locus(Hit(*span), annotate=False)
        return Witness(
            work=locus.work,
            title=locus.title,
            file=locus.file,
            juan=locus.juan,
            page=locus.page,
            page_id=locus.page_id,
            line=locus.line,
            text=locus.text,
            readings=readings(index, (start, end), span),
        )

    def elsewhere(
        self, index: CorpusIndex, start: int, end: int, span: tuple[int, int] | None
    ) -> tuple[int, int] | None:
        """Where the witness's classic has the passage exactly, when only part of it aligned, or
        the aligned stretch is another passage: 蔡德晉 set a 記 line inside the classic (復者朝服左執領
        右執要招而左 in 士喪禮), read against its neighbour (禭者左執領右執要入升致). A stretch that
        reads it with a character or two otherwise is its counterpart, variant and all."""
        from rapidfuzz.distance import Levenshtein

        key = index.text[start:end]
        if span is None or len(key) < MOVED or index.text[span[0] : span[1]] == key:
            return None  # no counterpart (a page the witness lacks), or this very passage
        # A glyph entity (KR1152) stands for one character, whichever: it matches any.
        aligned = _ENTITY.split(index.text[span[0] : span[1]])
        inside = re.compile(".".join(map(re.escape, aligned)))
        if inside.search(key):  # only part aligned: the whole, word for word around it
            at = index.text.find(key, max(0, span[0] - len(key)), span[1] + len(key))
            return (at, at + len(key)) if at != -1 and self._classic_at(index, at, key) else None
        if Levenshtein.distance(key, "〓".join(aligned)) <= max(2, len(key) // 5):
            return None  # this passage, read otherwise
        hits: list[int] = []
        at = index.text.find(key)
        while at != -1 and len(hits) < 16:
            if self._classic_at(index, at, key):
                hits.append(at)
            at = index.text.find(key, at + 1)
        best = min(hits, key=lambda h: abs(h - span[0]), default=None)
        return None if best is None else (best, best + len(key))

    def _classic_at(self, index: CorpusIndex, at: int, key: str) -> bool:
        """Whether ``key`` at index position ``at`` is the witness's classic."""
        locus = index.locus(Hit(at, at + len(key)), annotate=False)
        return locus.work == self.witness and locus.layer == "classic"


#: A glyph entity as the index keeps it (its letters, ``KR1152``).
_ENTITY = re.compile(r"[&A-Za-z0-9;]+")

#: Below this share of the passage's characters found in order in the witness's stretch the
#: alignment gives (their longest common subsequence), that stretch is another passage, not this
#: one read otherwise: where the received copy lacks a leaf, the alignment runs across the gap to
#: whatever stands on either side. (Not an edit distance: the received text's stretch may hold a
#: 傳 that 蔡德晉 prints apart, and is still this passage.)
SAME_PASSAGE = 0.5


def same_passage(ours: str, theirs: str) -> bool:
    """Whether ``theirs`` holds most of ``ours`` (normalised), in order."""
    from rapidfuzz.distance import LCSseq

    return bool(ours) and LCSseq.similarity(ours, theirs) >= SAME_PASSAGE * len(ours)


def readings(
    index: CorpusIndex, ours: tuple[int, int], theirs: tuple[int, int]
) -> tuple[Reading, ...]:
    """Where two passages (index spans) read otherwise: each difference with both texts as
    printed; a character either edition may print for the other (壹/一) is no difference."""
    from rapidfuzz.distance import Levenshtein

    a, b = index.text[ours[0] : ours[1]], index.text[theirs[0] : theirs[1]]
    if a == b:
        return ()
    alternatives = edition_alternatives()
    found = []
    for op in Levenshtein.opcodes(a, b):
        if op.tag == "equal":
            continue
        x, y = a[op.src_start : op.src_end], b[op.dest_start : op.dest_end]
        if _unknown(x) or _unknown(y):
            continue  # a glyph the edition writes as an entity (&KR1152;): no reading to compare
        if len(x) == len(y) and all(
            p == q or q in alternatives.get(p, "") or p in alternatives.get(q, "")
            for p, q in zip(x, y)
        ):
            continue
        printed = index.printed(ours[0] + op.src_start, ours[0] + op.src_end) if x else ""
        other = index.printed(theirs[0] + op.dest_start, theirs[0] + op.dest_end) if y else ""
        found.append(Reading(op.src_start, printed, other))
    return tuple(found)


def _unknown(key: str) -> bool:
    """Whether a stretch of a key holds a Kanripo glyph entity (``&KR1152;``, kept as letters)."""
    return any(ch.isascii() and ch.isalnum() for ch in key)


# -- the alignment ----------------------------------------------------------------------


def _classic(index: CorpusIndex, text_id: str) -> dict[str, list[tuple[str, array]]]:
    """Rite id → the text's classic in that rite, as passages (key, index positions): runs that
    end where a note, a section marker or a rite's heading stands in the classic."""
    rites: dict[str, list[tuple[str, array]]] = {}
    vocab = vocabulary()
    for base, doc, stream, imap in index.streams():
        if doc.text_info.id != text_id or stream.layer != "classic" or not len(imap):
            continue
        breaks = sorted(
            [s.offsets[0] for s in doc.streams if s.layer == "commentary" and len(s.offsets)]
            + [offset for offset, _ in doc.markers]
            + [offset for offset, _ in doc.rites]
        )
        run: list[int] = []
        rite_id, previous = None, None
        for i in range(len(imap)):
            offset = stream.offsets[imap[i]]
            if previous is None or bisect_right(breaks, offset) != bisect_right(breaks, previous):
                if run and rite_id:
                    rites.setdefault(rite_id, []).append(_run(index, run))
                run = []
                rite = vocab.rite(doc.rite_at(offset) or "")
                rite_id = rite.id if rite else None
            run.append(base + i)
            previous = offset
        if run and rite_id:
            rites.setdefault(rite_id, []).append(_run(index, run))
    return rites


def _run(index: CorpusIndex, positions: list[int]) -> tuple[str, array]:
    return "".join(index.text[p] for p in positions), array("q", positions)


def _place(
    passage: str, rite: str, grams: dict[str, list[int]], after: int
) -> list[tuple[int, int]]:
    """(offset in the passage, offset in the rite's witness text) for each aligned character.

    A passage that stands nowhere nearly as it is (蔡德晉's 記, sentences gathered from several
    places of the rite) is cut in two, and each half placed on its own, down to :data:`SPLIT`.
    """
    starts: list[int] = []
    at = rite.find(passage)
    while at != -1 and len(starts) < 64:
        starts.append(at)
        at = rite.find(passage, at + 1)
    if starts:
        # The occurrence nearest after the previous passage's (else the nearest before it).
        best = min(starts, key=lambda s: (s < after, abs(s - after)))
        return [(i, best + i) for i in range(len(passage))]
    n = len(passage)
    if n < CHUNK:
        return []
    pairs = _nearest(passage, rite, grams, after)
    same = sum(passage[i] == rite[j] for i, j in pairs)
    if same >= (1 - MAX_EDITS) * n or (n < SPLIT and same >= MIN_SHARE * n):
        return pairs
    if n < SPLIT:
        return []
    half = n // 2
    first = _place(passage[:half], rite, grams, after)
    second = _place(passage[half:], rite, grams, max((j for _, j in first), default=after - 1) + 1)
    return first + [(i + half, j) for i, j in second]


def _nearest(
    passage: str, rite: str, grams: dict[str, list[int]], after: int
) -> list[tuple[int, int]]:
    """The passage aligned, character by character, with the window of the witness its chunks
    vote for (the votes nearest after ``after`` on ties)."""
    votes: Counter[int] = Counter()
    for k in range(len(passage) - CHUNK + 1):
        for at in grams.get(passage[k : k + CHUNK], ())[:64]:
            votes[at - k] += 1
    if not votes:
        return []
    diagonal = max(votes, key=lambda d: (votes[d], -abs(d - after)))
    from rapidfuzz.distance import Levenshtein

    # The window nearest to the passage, starting near the voted place: a word of the witness
    # that the passage leaves out costs a third of a character the passage has otherwise or
    # not at all (蔡德晉 condenses the 記: 衆兄弟私臣皆觳脀 for 衆賔及衆兄弟…私臣皆殽脀), so the
    # window may be up to twice as long (a short passage); ties: the passage's length, the voted
    # start. An edit inside an exact window is placed where it stands, not at the window's ends.
    n = len(passage)
    longest = n + (SLACK if n > WIDE else max(SLACK, n))
    best: tuple[int, int, int, int, int] | None = None
    for lo in range(max(0, diagonal - 2), max(0, diagonal + 3)):
        for size in range(max(1, n - SLACK), min(longest, len(rite) - lo) + 1):
            # A window can only tie the best so far: the distance stops counting past it.
            cutoff = best[0] if best is not None else None
            cost = Levenshtein.distance(
                passage, rite[lo : lo + size], weights=WEIGHTS, score_cutoff=cutoff
            )
            found = (cost, abs(size - n), abs(lo - diagonal), lo, size)
            if best is None or found < best:
                best = found
    if best is None:
        return []
    *_, lo, size = best
    pairs: list[tuple[int, int]] = []
    for op in Levenshtein.opcodes(passage, rite[lo : lo + size]):
        if op.tag in ("equal", "replace"):
            run = min(op.src_end - op.src_start, op.dest_end - op.dest_start)
            pairs.extend((op.src_start + i, lo + op.dest_start + i) for i in range(run))
    return pairs


def witnessing(index: CorpusIndex) -> Witnessing | None:
    """The primary text's classic aligned with its witness's, rite by rite (None without both)."""
    texts = index.corpus.texts
    primary = next((t for t in texts if t.primary), None)
    witness = next((t for t in texts if primary and t.witness_of == primary.id), None)
    if primary is None or witness is None:
        return None
    ours, theirs = _classic(index, primary.id), _classic(index, witness.id)
    positions, mapped = array("q"), array("q")
    # The witness's whole classic, for a passage that 蔡德晉 moved from another rite (the 記 of
    # 既夕禮 that he gives in 士喪禮): looked for there, as it stands, when its own rite lacks it.
    everything = "".join(key for runs in theirs.values() for key, _ in runs)
    everywhere = array("q", (p for runs in theirs.values() for _, run in runs for p in run))
    for rite_id, passages in ours.items():
        runs = theirs.get(rite_id, [])
        rite = "".join(key for key, _ in runs)
        where = array("q", (p for _, run in runs for p in run))
        grams: dict[str, list[int]] = {}
        for k in range(len(rite) - CHUNK + 1):
            grams.setdefault(rite[k : k + CHUNK], []).append(k)
        after = 0
        for key, run in passages:
            found = dict(_place(key, rite, grams, after)) if rite else {}
            table = where
            if not found and len(key) >= MOVED and (at := everything.find(key)) != -1:
                found, table = {i: at + i for i in range(len(key))}, everywhere
            for i, p in enumerate(run):
                positions.append(p)
                mapped.append(table[found[i]] if i in found else -1)
            if table is everywhere:
                continue
            if found:
                after = max(found.values()) + 1
    order = sorted(range(len(positions)), key=positions.__getitem__)
    return Witnessing(
        primary.id,
        witness.id,
        array("q", (positions[i] for i in order)),
        array("q", (mapped[i] for i in order)),
    )


# -- repeated notes ---------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Notes:
    """The witness's notes (鄭玄's) by their runs of :data:`REPEAT` characters, leaving out the
    runs that stand in the classic of either witness."""

    index: CorpusIndex
    witness: str
    primary: str

    @cached_property
    def grams(self) -> dict[str, int]:
        classic: set[str] = set()
        notes: dict[str, int] = {}
        for base, doc, stream, imap in self.index.streams():
            if doc.text_info.id not in (self.witness, self.primary):
                continue
            key = self.index.text[base : base + len(imap)]
            grams = (key[k : k + REPEAT] for k in range(len(key) - REPEAT + 1))
            if stream.layer == "classic":
                classic.update(grams)
            elif stream.layer == "commentary" and doc.text_info.id == self.witness:
                for k, gram in enumerate(grams):
                    notes.setdefault(gram, base + k)
        return {gram: at for gram, at in notes.items() if gram not in classic}


def repeated_note(
    index: CorpusIndex, notes: Notes, start: int, end: int, author: str
) -> Witness | None:
    """The note of 鄭玄's that the words ``author`` speaks at ``start``–``end`` repeat, if any."""
    text, grams = index.text, notes.grams
    own = [p for p in range(start, end) if index.speaker_at(p) == author]
    runs: list[list[int]] = []
    run: list[int] = []
    for p in own:
        if run and p != run[-1] + 1:
            runs.append(run)
            run = []
        run.append(p)
    runs.append(run)
    for run in runs:
        for p in run[: max(0, len(run) - REPEAT + 1)]:
            at = grams.get(text[p : p + REPEAT])
            if at is None:
                continue
            size = REPEAT
            while p + size < run[-1] + 1 and text[at + size] == text[p + size] != SEPARATOR:
                size += 1
            locus = index.locus(Hit(at, at + size), annotate=False)
            return Witness(
                work=locus.work,
                title=locus.title,
                file=locus.file,
                juan=locus.juan,
                page=locus.page,
                page_id=locus.page_id,
                line=locus.line,
                text=locus.context,
                common=locus.text,
            )
    return None


# -- annotating loci ----------------------------------------------------------------------


class Annotator:
    """What :meth:`CorpusIndex.locus` adds to a place of the primary text: the received text's
    reading of its classic, the note of 鄭玄's that its author's note repeats. The alignment is
    computed on first use, through the cache that opened the index (kept beside it)."""

    def __init__(self, index: CorpusIndex, cache: IndexCache | None = None):
        self.index, self.cache = index, cache
        primary = index.corpus.primary
        self.primary = primary.id if primary else None
        self.author = canonical_author(primary.author) if primary else None

    @cached_property
    def witnessing(self) -> Witnessing | None:
        # Computed by each run that asks (the cache keeps only the index and whole checks).
        return witnessing(self.index)

    @cached_property
    def notes(self) -> Notes | None:
        w = self.witnessing
        return Notes(self.index, w.witness, w.primary) if w is not None else None

    @cached_property
    def places(self) -> Places | None:
        """Where both texts' classic and notes stand, for repeats at the same passage."""
        from glossary.enrich.local_repeats import Places

        w = self.witnessing
        return Places(self.index, w) if w is not None else None

    def __call__(self, hit: Hit, locus: Locus) -> Locus:
        if locus.work != self.primary or self.witnessing is None:
            return locus
        if locus.layer == "classic":
            return replace(locus, received=self.witnessing.received(self.index, hit.start, hit.end))
        if locus.layer == "commentary" and self.author in locus.speakers and self.notes:
            found = repeated_note(self.index, self.notes, hit.start, hit.end, self.author)
            return replace(locus, repeats=found) if found else locus
        return locus


#: The code the alignment is computed by, besides the index's (the cache's key adds its source).
WITNESS_CODE = ("enrich/witness.py",)


def canonical_author(author: str) -> str:
    """The primary text's author as its notes are credited (``蔡德晉 (清)`` → ``蔡德晉``)."""
    from glossary.corpus.commentators import canonical

    return canonical(author.split(" (")[0].strip())


def locus_lines(locus: Locus) -> Iterator[str]:
    """What ``glossary locate`` prints under a place: the received text's reading, a repeated note."""
    if (received := locus.received) is not None:
        yield f"received text: {received.label()}: 「{received.text}」"
        for reading in received.readings:
            printed, other = reading.printed or "—", reading.received or "—"
            yield f"  reads otherwise: {printed} → {other} (第{reading.at + 1}字)"
    if (note := locus.repeats) is not None:
        yield f"repeats 鄭玄's note: {note.label()}: 「{note.common}」"


def attach(index: CorpusIndex, cache: IndexCache | None = None) -> CorpusIndex:
    """Have ``index``'s loci carry the received text's readings and repeated notes (see
    :class:`Annotator`); nothing is computed until a locus of the primary text is asked for."""
    if index.annotator is None:
        index.annotator = Annotator(index, cache)
    return index
