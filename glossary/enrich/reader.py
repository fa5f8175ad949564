"""The primary text (禮經本義) rite by rite, as the reader view shows it (:mod:`glossary.rite_text`).

Each 卷 of the primary text is cut into passages as the modern rendering's alignment cuts it
(:func:`glossary.enrich.align.passages`: the classic between notes, each note, each ``右…``
marker), in the order of the file. On them:

- **headwords**: every headword form of every entry (scripts and variants folded as the index
  folds them), found in one Aho–Corasick pass over the primary text's streams; where two overlap
  the longer wins, as the concordance's rite coverage and the Anki passages count them
  (:func:`glossary.enrich.rite_coverage.longest_kept`; 乘矢 over 矢);
- **cited passages**: each place an entry's citation resolved to (an excerpt's place through
  ``excerpted``, the same passage in the text it excerpts), with the anchor its link goes to;
- **the received text's readings** of each run of the classic (:mod:`glossary.enrich.witness`);
- **the speakers** of each note (``Stream.commentators``);
- **the modern rendering**: each paragraph after the last passage it renders; a paragraph paired
  with nothing (a heading) after the one before it, so the rendering is shown whole and in order.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from glossary.corpus import Document, Locus, Stream
from glossary.corpus.model import Reading
from glossary.enrich.align import passages
from glossary.enrich.rite_coverage import forms, longest_kept
from glossary.index import CorpusIndex
from glossary.model import Cited, Entry
from glossary.model_alignment import Alignment, Passage
from glossary.offsets import OffsetMap
from glossary.rite_text import Block, Modern, ReaderText, RiteText
from glossary.vocab import vocabulary

if TYPE_CHECKING:
    from glossary.enrich.witness import Witnessing


@dataclass
class _Stream:
    """A stream of the primary text with where its key starts in the index, and its headwords."""

    stream: Stream
    base: int
    key_map: OffsetMap
    #: (start, end, entry id) in the stream's text.
    links: list[tuple[int, int, str]] = field(default_factory=list)


def anchor(juan: int | None, offset: int) -> str:
    """The id of a place in a rite's page: its 卷 and its offset in the file (stable for one corpus)."""
    return f"c{juan if juan is not None else 0}-{offset}"


def reader_text(
    index: CorpusIndex,
    entries: Iterable[Entry],
    cited: Mapping[str, tuple[Cited, ...]],
    excerpted: Mapping[tuple[str, int], Locus],
    alignments: tuple[Alignment, ...],
) -> ReaderText:
    """Every rite of the primary text with its headwords, cited places, readings and renderings."""
    primary = index.corpus.primary
    if primary is None:
        return ReaderText(())
    entries = list(entries)
    streams = {
        id(stream): _Stream(stream, base, key_map)
        for base, doc, stream, key_map in index.streams()
        if doc.text_info.id == primary.id
    }
    _find_headwords(index, entries, streams.values())
    marked = _cited(entries, cited, excerpted, primary.id)
    modern = _modern(alignments)
    witnessing = getattr(index.annotator, "witnessing", None)
    vocab = vocabulary()
    by_rite: dict[str, list[Block]] = {}
    juans: dict[str, list[int]] = {}
    places: dict[tuple[str, int], tuple[str, str]] = {}
    for doc in index.corpus.documents:
        if doc.text_info.id != primary.id:
            continue
        main = next((s for s in doc.streams if s.layer != "commentary"), None)
        notes = {s.offsets[0]: s for s in doc.streams if s.layer == "commentary" and len(s.offsets)}
        cuts = _section_starts(doc)
        here = sorted(marked.get(doc.path, {}).items())
        for passage in passages(doc):
            rite = vocab.rite(doc.rite_at(passage.start) or "")
            if rite is None:
                continue  # 提要, 逸禮: no rite of the glossary
            blocks = by_rite.setdefault(rite.id, [])
            seen = juans.setdefault(rite.id, [])
            if passage.juan is not None and passage.juan not in seen:
                seen.append(passage.juan)
            while cuts and cuts[0][0] <= passage.start:
                blocks.append(Block("heading", cuts.pop(0)[1], passage.juan, None))
            stream = main if passage.kind == "classic" else notes.get(passage.start)
            known = streams.get(id(stream)) if stream is not None else None
            block = _block(doc, passage, known, witnessing, index)
            if known is not None:
                marks = []
                j = bisect_left(here, (passage.start,))
                for offset, (ids, keys) in here[j:]:
                    if offset >= passage.end:
                        break
                    at = known.stream.offsets.count_below(offset) - _first(passage, known)
                    name = anchor(passage.juan, offset)
                    marks.append((at, name, tuple(ids)))
                    places.update((key, (rite.id, name)) for key in keys)
                block = replace(block, cited=tuple(marks))
            block = replace(block, modern=modern.get((doc.path, passage.start), ()))
            blocks.append(block)
    witness = next((t.title for t in index.corpus.texts if t.witness_of == primary.id), "")
    return ReaderText(
        tuple(
            RiteText(rite.id, tuple(juans[rite.id]), tuple(by_rite[rite.id]))
            for rite in vocab.rites
            if rite.id in by_rite
        ),
        places,
        tuple(dict.fromkeys(a.label for a in alignments)),
        witness,
        primary.title,
    )


def _first(passage: Passage, known: _Stream) -> int:
    """The index in its stream's text of a passage's first character."""
    return known.stream.offsets.count_below(passage.start)


def _block(
    doc: Document,
    passage: Passage,
    known: _Stream | None,
    witnessing: Witnessing | None,
    index: CorpusIndex,
) -> Block:
    """A passage with its pages, headwords, speakers and (the classic) the received text's readings."""
    page = doc.page_at(passage.start)[0]
    if known is None:  # a marker: in no stream
        return Block("marker", passage.text, passage.juan, page)
    stream, first = known.stream, _first(passage, known)
    size = len(passage.text)
    pages = tuple(
        (stream.offsets.count_below(offset) - first, label)
        for offset, (label, _) in doc.pages
        if passage.start < offset < passage.end
    )
    i = bisect_left(known.links, (first,))
    links = []
    while i < len(known.links) and known.links[i][0] < first + size:
        start, end, ident = known.links[i]
        if end <= first + size:
            links.append((start - first, end - first, ident))
        i += 1
    speakers = tuple(
        (max(0, at - first), who or "")
        for at, who in stream.commentators
        if at < first + size and (at >= first or at == _speaker_start(stream, first))
    )
    readings: tuple[Reading, ...] = ()
    if passage.kind == "classic" and witnessing is not None:
        readings = _readings(index, known, first, size, witnessing)
    return Block(
        passage.kind, passage.text, passage.juan, page, pages, tuple(links), (), readings, speakers
    )


def _speaker_start(stream: Stream, first: int) -> int:
    """Where the words of whoever speaks at ``first`` began (a passage starting mid-speech)."""
    starts = [at for at, _ in stream.commentators]
    i = bisect_right(starts, first) - 1
    return starts[i] if i >= 0 else -1


def _readings(
    index: CorpusIndex, known: _Stream, first: int, size: int, witnessing: Witnessing
) -> tuple[Reading, ...]:
    """The received text's other readings of the classic ``first``–``first + size`` of a stream,
    at positions of the passage's text."""
    key_map = known.key_map
    lo, hi = key_map.count_below(first), key_map.count_below(first + size)
    if hi <= lo:
        return ()
    received = witnessing.received(index, known.base + lo, known.base + hi)
    if received is None:
        return ()
    found = []
    for reading in received.readings:
        # ``at`` counts the passage's key characters: back to its printed characters.
        k = lo + reading.at
        at = (key_map[k] if k < len(key_map) else first + size) - first
        found.append(Reading(max(0, min(at, size)), reading.printed, reading.received))
    return tuple(found)


def _find_headwords(index: CorpusIndex, entries: list[Entry], streams: Iterable[_Stream]) -> None:
    """Each stream's headwords (one pass per stream over the index text), the longer winning."""
    owners: dict[str, str] = {}
    for entry in entries:
        for key in sorted(forms(entry)):
            owners.setdefault(key, entry.id)  # one form of two entries: the first entry's
    if not owners:
        return
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for key in owners:
        automaton.add_word(key, key)
    automaton.make_automaton()
    for known in streams:
        size = len(known.key_map)
        if not size:
            continue
        kept = sorted(longest_kept(automaton.iter(index.text, known.base, known.base + size)))
        last = -1
        for start, key in kept:
            if start < last:
                continue  # two of one length overlapping: the first stands
            last = start + len(key)
            begin = known.key_map[start - known.base]
            end = known.key_map[start - known.base + len(key) - 1] + 1
            known.links.append((begin, end, owners[key]))


def _cited(
    entries: list[Entry],
    cited: Mapping[str, tuple[Cited, ...]],
    excerpted: Mapping[tuple[str, int], Locus],
    primary: str,
) -> dict[str, dict[int, tuple[list[str], list[tuple[str, int]]]]]:
    """File → offset → (ids of the entries citing the passage there, the (file, start) of the loci
    that resolved to it): the two places each citation prints, in the primary text or through
    the excerpt they stand in."""
    found: dict[str, dict[int, tuple[list[str], list[tuple[str, int]]]]] = {}
    for entry in entries:
        for each in cited.get(entry.id, ()):
            for locus in each.loci[:2]:
                target = (
                    locus if locus.work == primary else excerpted.get((locus.file, locus.start))
                )
                if target is None or target.work != primary:
                    continue
                ids, keys = found.setdefault(target.file, {}).setdefault(target.start, ([], []))
                if entry.id not in ids:
                    ids.append(entry.id)
                if (locus.file, locus.start) not in keys:
                    keys.append((locus.file, locus.start))
    return found


def _modern(alignments: tuple[Alignment, ...]) -> dict[tuple[str, int], tuple[Modern, ...]]:
    """(file, start) of a passage → the paragraphs of a rendering shown after it."""
    found: dict[tuple[str, int], list[Modern]] = {}
    for alignment in alignments:
        where: tuple[str, int] | None = None
        before: list[Modern] = []  # paragraphs ahead of the first paired one (its title)
        for pair in alignment.pairs:
            if pair.original:
                last = max(pair.original, key=lambda p: (p.file, p.start))
                where = (last.file, last.start)
            shown = Modern(pair.paragraph.text, pair.certain)
            if where is None:
                before.append(shown)
                continue
            found.setdefault(where, []).extend([*before, shown])
            before = []
    return {key: tuple(value) for key, value in found.items()}


def _section_starts(doc: Document) -> list[tuple[int, str]]:
    """(start, name) of each ``右…`` section of a file: it starts where the one before ended."""
    starts, previous = [], 0
    for end, name in doc.sections:
        starts.append((previous, name))
        previous = end
    return starts
