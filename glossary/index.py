"""A searchable index of the corpus: normalised text with maps back to print.

All streams are joined, normalised, into one string (``\\n`` between streams, a
character normalisation never produces); many quotes are found in one Aho–Corasick
pass over it (one ``str.find`` scan for a single quote). ``〇`` placeholders (in a
quote, or in a text whose manifest declares them) match any one character
(:mod:`glossary.matching`); every hit maps back to the place it is printed (a :class:`Locus`).
Near misses: :mod:`glossary.suggest`.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

from glossary.corpus import Corpus, Document, Locus, Stream
from glossary.matching import (
    SEPARATOR,
    fits,
    overlapping,
    placeholder_pattern,
    readings,
    reads,
    wildcards,
    windows,
)
from glossary.normalize import PLACEHOLDER, normalize, normalize_for_index
from glossary.offsets import OffsetMap
from glossary.units import cuts_of, sense_units

CONTEXT = 16
#: A bigram seen more often than this says little about where a near miss is.
MAX_BIGRAM_HITS = 3000


@dataclass(frozen=True)
class Hit:
    """One occurrence: normalised positions in the joined index text."""

    start: int
    end: int
    placeholders: tuple[int, ...] = ()  # 1-based positions in the normalised quote


class Where(NamedTuple):
    """What a citation may name about where a passage stands: a :class:`Locus` without its text."""

    work: str
    juan: int | None
    page: str | None
    page_id: str | None
    section: str | None
    layer: str


class Origin(NamedTuple):
    """Whose words a passage is, and in which rite: what the scholarly rules ask of a :class:`Locus`."""

    work: str
    rite: str | None
    speakers: tuple[str, ...]


class CorpusIndex:
    """Exact and placeholder-tolerant search over a :class:`Corpus`, and the way back to print."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        parts: list[str] = []
        self._starts = array("L")
        self._streams: list[tuple[Document, Stream, OffsetMap]] = []
        #: Where the texts that declare placeholders have one (〇 matches any one character there).
        self._placeholders = array("Q")
        #: Where the printed character was folded by a variant table, not by OpenCC alone (賔, 歩):
        #: only a match over one of these, or of a quote with such a character, can need a fold.
        self._tabled = array("Q")
        tabled_chars: list[str] = []
        tabled_keys: set[str] = set()
        position = 0
        for doc in corpus.documents:
            for stream in doc.streams:
                key, index, tabled, chars = normalize_for_index(stream.text)
                self._starts.append(position)
                self._streams.append((doc, stream, index))
                self._tabled.extend(position + p for p in tabled)
                tabled_chars.append(chars)
                tabled_keys.update(key[p] for p in tabled)
                if doc.text_info.placeholder and PLACEHOLDER in key:
                    self._placeholders.extend(
                        position + m.start() for m in re.finditer(PLACEHOLDER, key)
                    )
                parts.append(key)
                position += len(key) + len(SEPARATOR)
        self.text = SEPARATOR.join(parts)
        #: The printed character at each of those positions, and their keys (a quote without one of
        #: these keys matches no such character: see :meth:`tabled_in`).
        self._tabled_chars = "".join(tabled_chars)
        self.tabled_keys = "".join(sorted(tabled_keys))
        #: Exact occurrences found in advance by :meth:`prefetch`.
        self._found: dict[str, array] = {}
        #: What :meth:`locus` adds to a place beyond the corpus' own text (the received text's
        #: reading, glossary.enrich.witness): set by whoever opened the index, never pickled.
        self.annotator: Callable[[Hit, Locus], Locus] | None = None

    def remembered(self) -> dict[str, array]:
        """Every quote (normalised) found in advance, with the start of each occurrence."""
        return dict(self._found)

    def remember(self, found: dict[str, array]) -> None:
        """Take occurrences found in advance in this index's text (the near-miss pass finds some)."""
        self._found.update(found)

    def state(self) -> dict[str, object]:
        """The index as JSON data, as the cache keeps it (:meth:`from_state` makes it again)."""
        from glossary.corpus.store import Packer, corpus_data

        packer = Packer()
        state = {
            "corpus": corpus_data(self.corpus, packer),
            "maps": [packer.plain(index) for _, _, index in self._streams],
            "starts": packer.plain(self._starts),
            "placeholders": packer.plain(self._placeholders),
            "tabled": packer.plain(self._tabled),
            "text": self.text,
            "tabled_chars": self._tabled_chars,
            "tabled_keys": self.tabled_keys,
        }
        state["runs"] = packer.plain(packer.runs)
        return state

    @classmethod
    def from_state(cls, state: dict[str, object]) -> CorpusIndex:
        """The index :meth:`state` described, without reading or normalising the corpus again
        (ValueError, TypeError, KeyError or IndexError for data of another shape)."""
        from glossary.corpus.store import Unpacker, corpus_from, packed_array

        unpacker = Unpacker(state["runs"])
        index = cls.__new__(cls)
        index.corpus = corpus_from(state["corpus"], unpacker)
        pairs = [(doc, stream) for doc in index.corpus.documents for stream in doc.streams]
        maps = state["maps"]
        if not isinstance(maps, list) or len(maps) != len(pairs):
            raise ValueError("not the maps of these streams")
        index._streams = [
            (doc, stream, unpacker.offset_map(m)) for (doc, stream), m in zip(pairs, maps)
        ]
        index._starts = packed_array(state["starts"])
        index._placeholders = packed_array(state["placeholders"])
        index._tabled = packed_array(state["tabled"])
        for name in ("text", "tabled_chars", "tabled_keys"):
            if not isinstance(state[name], str):
                raise TypeError(f"{name} is not text")
        index.text = state["text"]  # type: ignore[assignment]
        index._tabled_chars = state["tabled_chars"]  # type: ignore[assignment]
        index.tabled_keys = state["tabled_keys"]  # type: ignore[assignment]
        index._found = {}
        index.annotator = None
        return index

    # -- exact search -------------------------------------------------------
    def occurs(self, key: str) -> bool:
        """Whether a normalised quote stands anywhere (cheaper than :meth:`find` once prefetched)."""
        return bool(self._found.get(key)) or self.count(key, 0) > 0

    def count(self, key: str, cap: int) -> int:
        """How many places a normalised quote stands at, counted no further than ``cap`` + 1 (a quote
        of placeholders stands almost everywhere: its hits are never made only to be counted)."""
        if not key or SEPARATOR in key:
            return 0
        seen = 0
        if PLACEHOLDER in key:
            for _ in overlapping(placeholder_pattern(key), self.text, 0, len(self.text)):
                seen += 1
                if seen > cap:
                    break
            return seen
        if key in self._found:
            seen = len(self._found[key])
        else:
            pos = self.text.find(key)
            while pos != -1 and seen <= cap:
                seen += 1
                pos = self.text.find(key, pos + 1)
        if seen > cap or not self._placeholders:
            return min(seen, cap + 1)
        # Besides the exact ones, the few windows through the corpus' placeholders (as find makes them).
        return min(len(self.find(key)), cap + 1)

    def find(self, key: str) -> list[Hit]:
        """Every occurrence of a normalised quote, in corpus order."""
        if not key or SEPARATOR in key:
            return []
        found: dict[int, Hit] = {}
        if key in self._found:
            found.update((pos, Hit(pos, pos + len(key))) for pos in self._found[key])
        elif PLACEHOLDER not in key:
            pos = self.text.find(key)
            while pos != -1:
                found[pos] = Hit(pos, pos + len(key))
                pos = self.text.find(key, pos + 1)
        if PLACEHOLDER in key:
            # The quote itself has a placeholder: any character stands there, anywhere.
            for match in overlapping(placeholder_pattern(key), self.text, 0, len(self.text)):
                found[match.start()] = Hit(
                    match.start(), match.end(), wildcards(key, match.group())
                )
        else:
            # Only windows over one of the corpus' few placeholders can match through one.
            for placeholder, before, after in self._neighbours:
                # A window of two or more characters through the placeholder holds a neighbour of it.
                if (
                    len(key) > 1
                    and PLACEHOLDER not in (before, after)
                    and not ((before and before in key) or (after and after in key))
                ):
                    continue
                for start in windows(key, placeholder, before, after):
                    window = self.text[start : start + len(key)]
                    # A window of placeholders only (a one-character key on a 〇) shows nothing of
                    # the key: every 〇 of the seed rendering would be a place of every character.
                    if window.count(PLACEHOLDER) == len(key):
                        continue
                    if start not in found and len(window) == len(key) and fits(key, window):
                        found[start] = Hit(start, start + len(key), wildcards(key, window))
        return [found[pos] for pos in sorted(found)]

    @cached_property
    def _neighbours(self) -> list[tuple[int, str, str]]:
        """Each corpus placeholder, with the characters before and after it in its stream ('' at an end)."""
        neighbours = []
        for placeholder in self._placeholders:
            before = self.text[placeholder - 1 : placeholder] if placeholder else ""
            after = self.text[placeholder + 1 : placeholder + 2]
            neighbours.append((placeholder, before.strip(SEPARATOR), after.strip(SEPARATOR)))
        return neighbours

    def find_alternatives(self, key: str, alternatives: dict[str, str]) -> list[Hit]:
        """Occurrences of a normalised quote where some characters stand as one of their
        ``alternatives`` (key character → the characters it may stand as), not the exact ones.

        Its readings (at most :data:`~glossary.matching.MAX_READINGS`) are found as exact quotes (from memory when
        :func:`~glossary.suggest.chunk_votes` looked for them too), else each occurrence of its longest run
        without alternatives is checked.
        """
        if (
            not key
            or SEPARATOR in key
            or PLACEHOLDER in key
            or not any(ch in alternatives for ch in key)
        ):
            return []
        words, offset = readings(key, alternatives)
        found: dict[int, Hit] = {}
        if offset < 0:
            for word in words:
                for hit in self.find(word):
                    found.setdefault(hit.start, hit)
        else:
            for hit in self.find(words[0])[:MAX_BIGRAM_HITS]:
                start = hit.start - offset
                if start >= 0 and reads(key, self.text[start : start + len(key)], alternatives):
                    found.setdefault(start, Hit(start, start + len(key)))
        return [found[pos] for pos in sorted(found)]

    # -- from index positions back to print ---------------------------------
    def may_have_tabled(self, key: str) -> bool:
        """Whether a passage of this normalised key can hold a character a variant table folded (賔
        has the key 宾: a quote without 宾, 高, 乘 … cannot)."""
        return not self._tabled_key_set.isdisjoint(key)

    def tabled_in(self, starts: Iterable[int], size: int) -> dict[int, dict[int, str]]:
        """For passages of ``size`` at ``starts``, those holding characters a variant table folded:
        start → {index position: the printed character} (nearly always none)."""
        mask = self._tabled_mask
        found = {}
        for start in [start for start in starts if mask.find(1, start, start + size) != -1]:
            i = bisect_left(self._tabled, start)
            j = bisect_left(self._tabled, start + size, i)
            found[start] = dict(zip(self._tabled[i:j], self._tabled_chars[i:j]))
        return found

    @cached_property
    def _tabled_mask(self) -> bytearray:
        """1 at each position of :attr:`_tabled`: whether a passage holds one is one C-level search."""
        mask = bytearray(len(self.text))
        for position in self._tabled:
            mask[position] = 1
        return mask

    @cached_property
    def _tabled_key_set(self) -> frozenset[str]:
        return frozenset(self.tabled_keys)

    def printed(self, start: int, end: int) -> str:
        """The printed characters at index positions ``start`` to ``end`` (one for each key character)."""
        base, _, stream, index = self._stream_at(start)
        return "".join(stream.text[index[p - base]] for p in range(start, end))

    def source(self, start: int, end: int) -> tuple[str, str, str]:
        """The printed text of the passage at index positions ``start`` to ``end`` (from its first to
        its last matched character, punctuation and spacing inside included), with the punctuation
        and spacing that stand just before and just after it in its stream."""
        base, _, stream, index = self._stream_at(start)
        first, last = index[start - base], index[end - 1 - base]
        before = index[start - base - 1] + 1 if start > base else 0
        after = index[end - base] if end - base < len(index) else len(stream.text)
        text = stream.text
        return text[before:first], text[first : last + 1], text[last + 1 : after]

    def _stream_at(self, pos: int) -> tuple[int, Document, Stream, OffsetMap]:
        i = bisect_right(self._starts, pos) - 1
        doc, stream, index = self._streams[i]
        return self._starts[i], doc, stream, index

    def place(self, pos: int) -> tuple[str, str] | None:
        """(rite, or the work outside the rites, normalised; layer) at an index position.

        None inside an excerpt of another text of the corpus, which is counted there, and inside
        another witness of a text's classic (the received 儀禮), whose words are counted there.
        """
        base, doc, stream, index = self._stream_at(pos)
        if doc.text_info.excerpt_of or doc.text_info.witness_of:
            return None
        offset = stream.offsets[index[pos - base]]
        rite = doc.rite_at(offset)
        return normalize(rite or doc.text_info.title), stream.layer

    def texts_of(self, rites: set[str], layer: str, readings: bool = True) -> list[str]:
        """Normalised streams of ``layer`` in the given (normalised) rites, excerpts left out (and,
        with ``readings=False``, books of readings such as the 儀禮音義)."""
        return [
            self.text[start:end]
            for start, end, doc, rite in self.stretches(layer)
            if normalize(rite) in rites and (readings or not doc.text_info.readings)
        ]

    def stretches(self, layer: str) -> Iterator[tuple[int, int, Document, str]]:
        """Each stretch of a ``layer`` stream under one rite: its start and end in :attr:`text`, its
        document and the rite as the document names it (excerpts and other witnesses left out)."""
        for start, (doc, stream, index) in zip(self._starts, self._streams):
            if (
                stream.layer != layer
                or doc.text_info.excerpt_of
                or doc.text_info.witness_of
                or not index
            ):
                continue
            # A stream may run across a rite's heading inside a 卷 (卷十六's classic: 少牢饋食禮, then
            # 有司徹): each stretch counts under its own rite.
            first, last = stream.offsets[index[0]], stream.offsets[index[-1]]
            cuts = (
                [0]
                + [
                    bisect_left(index, at, key=lambda i: stream.offsets[i])
                    for at, _ in doc.rites
                    if first < at <= last
                ]
                + [len(index)]
            )
            for a, b in zip(cuts, cuts[1:]):
                rite = doc.rite_at(stream.offsets[index[a]]) if b > a else None
                if rite:
                    yield start + a, start + b, doc, rite

    def streams(self) -> Iterator[tuple[int, Document, Stream, OffsetMap]]:
        """Each stream with where its key starts in :attr:`text` and the map of its key to it."""
        for start, (doc, stream, index) in zip(self._starts, self._streams):
            yield start, doc, stream, index

    def speaker_at(self, pos: int) -> str | None:
        """Who speaks the character at an index position (commentary and reference works)."""
        base, _, stream, index = self._stream_at(pos)
        return stream.commentator_at(index[pos - base]) if stream.commentators else None

    def where(self, pos: int) -> Where:
        """The work, 卷, page, section and layer at an index position (cheaper than :meth:`locus`)."""
        base, doc, stream, index = self._stream_at(pos)
        start = stream.offsets[index[pos - base]]
        page, page_id = doc.page_at(start)
        return Where(
            doc.text_info.id, doc.juan_at(start), page, page_id, doc.section_at(start), stream.layer
        )

    def line_at(self, pos: int) -> int:
        """The line of its file an index position is printed on (cheaper than :meth:`locus`)."""
        base, doc, stream, index = self._stream_at(pos)
        return doc.line_at(stream.offsets[index[pos - base]])

    def origin(self, start: int, end: int) -> Origin:
        """The work, rite and speakers of the passage at index positions ``start`` to ``end`` (cheaper
        than :meth:`locus`: no text, page or line is looked up)."""
        base, doc, stream, index = self._stream_at(start)
        first, last = index[start - base], index[end - 1 - base]
        speakers = stream.speakers(first, last) if stream.commentators else ()
        return Origin(doc.text_info.id, doc.rite_at(stream.offsets[first]), speakers)

    def locus(self, hit: Hit, annotate: bool = True) -> Locus:
        """The place of a hit, quoting the corpus as printed (with what :attr:`annotator` adds)."""
        base, doc, stream, index = self._stream_at(hit.start)
        first, last = index[hit.start - base], index[hit.end - 1 - base]
        start, end = stream.offsets[first], stream.offsets[last] + 1
        page, page_id = doc.page_at(start)
        info = doc.text_info
        locus = Locus(
            work=info.id,
            title=info.title,
            file=doc.path,
            juan=doc.juan_at(start),
            page=page,
            page_id=page_id,
            rite=doc.rite_at(start),
            section=doc.section_at(start),
            layer=stream.layer,
            commentator=stream.commentator_at(first) if stream.commentators else None,
            speakers=stream.speakers(first, last) if stream.commentators else (),
            line=doc.line_at(start),
            start=start,
            end=end,
            text=stream.text[first : last + 1],
            context=stream.text[max(0, first - CONTEXT) : last + 1 + CONTEXT],
            placeholders=hit.placeholders,
        )
        return self.annotator(hit, locus) if annotate and self.annotator else locus

    def with_units(self, locus: Locus) -> Locus:
        """``locus`` with the sense units around it (a passage of a classic that notes cut; see
        :func:`glossary.units.sense_units`): asked for by the build for the cards' windows, not by every look-up."""
        found = self._classics.get(locus.file) if locus.layer == "classic" else None
        if found is None:
            return locus
        doc, stream = found
        first = stream.offsets.count_below(locus.start)
        if first >= len(stream.offsets) or stream.offsets[first] != locus.start:
            return locus
        cuts = self._cuts.get(locus.file)
        if cuts is None:
            cuts = self._cuts[locus.file] = cuts_of(doc, stream)
        last = stream.offsets.count_below(locus.end) - 1
        units, at = sense_units(stream, cuts, first, last)
        return replace(locus, units=units, units_at=at)

    @cached_property
    def _classics(self) -> dict[str, tuple[Document, Stream]]:
        return {doc.path: (doc, s) for doc, s, _ in self._streams if s.layer == "classic"}

    @cached_property
    def _cuts(self) -> dict[str, array]:
        """File → where its classic is cut (:func:`glossary.units.cuts_of`), worked out once a file: a build asks
        for the units of six thousand loci."""
        return {}

    # -- many quotes at once ------------------------------------------------
    def prefetch(self, keys: Iterable[str]) -> None:
        """Find many quotes in one pass over the corpus (Aho–Corasick); ``find`` then answers from memory.

        Checking a glossary costs about one read of the corpus, however many citations it has.
        """
        exact = sorted(
            {k for k in keys if k and SEPARATOR not in k and PLACEHOLDER not in k}
            - set(self._found)
        )
        if not exact:
            return  # every quote already found: no automaton, not even its import
        import ahocorasick

        automaton = ahocorasick.Automaton()
        for key in exact:
            automaton.add_word(key, key)
        automaton.make_automaton()
        found: dict[str, array] = {key: array("Q") for key in exact}
        for end, key in automaton.iter(self.text):
            found[key].append(end - len(key) + 1)
        self._found.update(found)
