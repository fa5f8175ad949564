"""A searchable index of the corpus: normalised text with maps back to print.

All streams are joined, normalised, into one string (``\\n`` between streams, a
character normalisation never produces); many quotes are found in one Aho–Corasick
pass over it (one ``str.find`` scan for a single quote). ``〇`` placeholders (in a
quote, or in a text whose manifest declares them) match any one character; near
misses are found by voting on shared chunks and aligned with rapidfuzz.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

from glossary.corpus import Corpus, Document, Locus, Stream
from glossary.normalize import PLACEHOLDER, normalize, normalize_for_index
from glossary.offsets import OffsetMap

SEPARATOR = "\n"
CONTEXT = 16
#: A bigram seen more often than this says little about where a near miss is.
MAX_BIGRAM_HITS = 3000
#: A quote with alternative characters (edition variants) is looked for as each of its readings
#: when it has at most this many; otherwise by its longest run without alternatives, each
#: occurrence of which is checked (at most MAX_BIGRAM_HITS of them).
MAX_READINGS = 64


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


@dataclass(frozen=True)
class Suggestion:
    """A near miss: where the quote almost stands, and how it differs."""

    locus: Locus
    score: float
    differences: tuple[str, ...]

    def hint(self) -> str:
        """``nearest: 禮經本義 卷4 … 「楅長如笴博三寸」 — 第4字: 竿 ≠ 笴（原文）``"""
        return f"nearest: {self.locus.label()}: 「{self.locus.text}」 — " + "; ".join(
            self.differences
        )


class CorpusIndex:
    """Exact, placeholder-tolerant and near-miss search over a :class:`Corpus`."""

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
        index.corpus = corpus_from(state["corpus"], unpacker)  # type: ignore[assignment]
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
        return index

    # -- exact search -------------------------------------------------------
    def occurs(self, key: str) -> bool:
        """Whether a normalised quote stands anywhere (cheaper than :meth:`find` once prefetched)."""
        return bool(self._found.get(key)) or bool(self.find(key))

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
            pattern = re.compile(
                "".join(
                    "." if ch == PLACEHOLDER else f"[{re.escape(ch)}{PLACEHOLDER}]" for ch in key
                )
            )
            for match in _overlapping(pattern, self.text, 0, len(self.text)):
                found[match.start()] = Hit(
                    match.start(), match.end(), _wildcards(key, match.group())
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
                for start in _windows(key, placeholder, before, after):
                    window = self.text[start : start + len(key)]
                    if start not in found and len(window) == len(key) and _fits(key, window):
                        found[start] = Hit(start, start + len(key), _wildcards(key, window))
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

        Its readings (at most :data:`MAX_READINGS`) are found as exact quotes (from memory when
        :meth:`chunk_votes` looked for them too), else each occurrence of its longest run
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
                if start >= 0 and _reads(key, self.text[start : start + len(key)], alternatives):
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

        None inside an excerpt of another text of the corpus, which is counted there.
        """
        base, doc, stream, index = self._stream_at(pos)
        if doc.text_info.excerpt_of:
            return None
        offset = stream.offsets[index[pos - base]]
        rite = doc.rite_at(offset)
        return normalize(rite or doc.text_info.title), stream.layer

    def texts_of(self, rites: set[str], layer: str, readings: bool = True) -> list[str]:
        """Normalised streams of ``layer`` in the given (normalised) rites, excerpts left out (and,
        with ``readings=False``, books of readings such as the 儀禮音義)."""
        texts = []
        for start, (doc, stream, index) in zip(self._starts, self._streams):
            if stream.layer != layer or doc.text_info.excerpt_of or not index:
                continue
            if not readings and doc.text_info.readings:
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
                if rite and normalize(rite) in rites:
                    texts.append(self.text[start + a : start + b])
        return texts

    def where(self, pos: int) -> Where:
        """The work, 卷, page, section and layer at an index position (cheaper than :meth:`locus`)."""
        base, doc, stream, index = self._stream_at(pos)
        start = stream.offsets[index[pos - base]]
        page, page_id = doc.page_at(start)
        return Where(
            doc.text_info.id, doc.juan_at(start), page, page_id, doc.section_at(start), stream.layer
        )

    def origin(self, start: int, end: int) -> Origin:
        """The work, rite and speakers of the passage at index positions ``start`` to ``end`` (cheaper
        than :meth:`locus`: no text, page or line is looked up)."""
        base, doc, stream, index = self._stream_at(start)
        first, last = index[start - base], index[end - 1 - base]
        speakers = stream.speakers(first, last) if stream.commentators else ()
        return Origin(doc.text_info.id, doc.rite_at(stream.offsets[first]), speakers)

    def locus(self, hit: Hit) -> Locus:
        """The place of a hit, quoting the corpus as printed."""
        base, doc, stream, index = self._stream_at(hit.start)
        first, last = index[hit.start - base], index[hit.end - 1 - base]
        start, end = stream.offsets[first], stream.offsets[last] + 1
        page, page_id = doc.page_at(start)
        info = doc.text_info
        return Locus(
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

    # -- near misses --------------------------------------------------------
    def prefetch(self, keys: Iterable[str]) -> None:
        """Find many quotes in one pass over the corpus (Aho–Corasick); ``find`` then answers from memory.

        Checking a glossary costs about one read of the corpus, however many citations it has.
        """
        exact = sorted(
            {k for k in keys if k and SEPARATOR not in k and PLACEHOLDER not in k}
            - set(self._found)
        )
        if not exact:
            return  # every quote remembered (a check after no edit): no automaton, not even its import
        import ahocorasick

        automaton = ahocorasick.Automaton()
        for key in exact:
            automaton.add_word(key, key)
        automaton.make_automaton()
        found: dict[str, array] = {key: array("Q") for key in exact}
        for end, key in automaton.iter(self.text):
            found[key].append(end - len(key) + 1)
        self._found.update(found)

    def chunk_votes(self, keys: Iterable[str], exact: Iterable[str] = ()) -> dict[str, array]:
        """For quotes that were not found: votes for where each almost stands, from one pass.

        Each quote is cut into overlapping 4-character chunks; every place a chunk occurs
        votes for the alignment (position − chunk offset). One Aho–Corasick pass serves all,
        and finds the ``exact`` words too (remembered as :meth:`prefetch` does: the readings of
        quotes with edition variants, see :meth:`find_alternatives`).
        """
        words = sorted(
            {w for w in exact if w and SEPARATOR not in w and PLACEHOLDER not in w}
            - set(self._found)
        )
        chunks: dict[str, list[tuple[str, int]]] = {}
        for key in keys:
            size = 4 if len(key) >= 8 else 2
            offsets = sorted(
                set(range(0, max(1, len(key) - size + 1), 2)) | {max(0, len(key) - size)}
            )
            for k in offsets:
                chunk = key[k : k + size]
                if len(chunk) == size:
                    chunks.setdefault(chunk, []).append((key, k))
        # Votes are kept as bare alignments (8 bytes each) and counted per quote when it is suggested.
        votes: dict[str, array] = {key: array("q") for key in keys}
        if not chunks and not words:
            return votes
        import ahocorasick

        automaton = ahocorasick.Automaton()
        found: dict[str, array] = {word: array("Q") for word in words}
        for chunk, owners in chunks.items():
            automaton.add_word(chunk, (chunk, owners, chunk in found))
        for word in words:
            if word not in chunks:
                automaton.add_word(word, (word, [], True))
        automaton.make_automaton()
        seen: Counter[str] = Counter()
        for end, (chunk, owners, wanted) in automaton.iter(self.text):
            if wanted:
                found[chunk].append(end - len(chunk) + 1)
                if not owners:
                    continue
            seen[chunk] += 1
            if seen[chunk] > MAX_BIGRAM_HITS:
                continue  # a chunk this common says little about where a near miss is
            start = end - len(chunk) + 1
            for key, k in owners:
                votes[key].append(start - k)
        self._found.update(found)
        return votes

    def _bigram_votes(self, key: str) -> Counter[int]:
        votes: Counter[int] = Counter()
        for k in range(len(key) - 1):
            bigram = key[k : k + 2]
            pos = self.text.find(bigram)
            seen = 0
            while pos != -1 and seen < MAX_BIGRAM_HITS:
                votes[pos - k] += 1
                seen += 1
                pos = self.text.find(bigram, pos + 1)
        return votes

    def suggest(
        self,
        key: str,
        quote: str,
        quote_index: Sequence[int],
        limit: int = 3,
        votes: Sequence[int] | None = None,
    ) -> list[Suggestion]:
        """The passages nearest to a quote that was not found, with a character diff.

        ``quote`` is the quote as written and ``quote_index`` maps each character of
        its normalised ``key`` back to it, so differences are numbered as written.
        ``votes`` (from :meth:`chunk_votes`) saves a scan per quote when checking many.
        """
        if len(key) < 2:
            return []
        # rapidfuzz is imported by the few runs that miss a quote, not by every check.
        from rapidfuzz import fuzz
        from rapidfuzz.distance import Levenshtein

        if votes is None:
            counted = self._bigram_votes(key)
            needed = max(1, (len(key) - 1) // 4)
        else:
            counted = Counter(votes)
            needed = 1
        ranked: list[tuple[float, int, int]] = []
        taken: set[int] = set()
        candidates: list[tuple[float, int, str, int, int]] = []
        for diagonal, count in counted.most_common(12):
            if count < needed:
                break
            lo = max(0, diagonal - 4)
            hi = min(len(self.text), diagonal + len(key) + 4)
            # Keep the window inside the stream the diagonal falls in.
            offset = lo
            for piece in self.text[lo:hi].split(SEPARATOR):
                if offset <= max(diagonal, lo) <= offset + len(piece):
                    break
                offset += len(piece) + 1
            alignment = fuzz.partial_ratio_alignment(key, piece) if piece else None
            if alignment is not None:
                candidates.append(
                    (alignment.score, offset, piece, alignment.dest_start, alignment.dest_end)
                )
        candidates.sort(key=lambda c: (-c[0], c[1] + c[3]))
        for score, offset, piece, lo_best, hi_best in candidates:
            if len(ranked) == limit:
                break
            # partial_ratio aligns windows of the quote's length; a quote that drops or
            # adds characters aligns best with a slightly shorter or longer window.
            best = (Levenshtein.distance(key, piece[lo_best:hi_best]), 0)
            for s in range(max(0, lo_best - 3), min(len(piece), lo_best + 4)):
                for e in range(max(s + 1, hi_best - 3), min(len(piece), hi_best + 3) + 1):
                    trial = (Levenshtein.distance(key, piece[s:e]), abs(e - s - len(key)))
                    if trial < best:
                        best, lo_best, hi_best = trial, s, e
            start, end = offset + lo_best, offset + hi_best
            if start in taken or end <= start:
                continue
            taken.add(start)
            ranked.append((score, start, end))
        ranked.sort(key=lambda r: (-r[0], r[1]))
        suggestions = []
        for score, start, end in ranked[:limit]:
            if score < 50:
                continue
            locus = self.locus(Hit(start, end))
            base, _, stream, index = self._stream_at(start)
            printed = [stream.text[index[p - base]] for p in range(start, end)]
            differences = describe_differences(
                key, self.text[start:end], quote, quote_index, printed
            )
            suggestions.append(Suggestion(locus, round(score, 1), differences))
        return suggestions


def readings(key: str, alternatives: dict[str, str]) -> tuple[list[str], int]:
    """What to look for to find ``key`` with ``alternatives``: ``(readings, -1)``, every reading
    but ``key`` itself when there are at most :data:`MAX_READINGS`; else ``([run], offset)``, the
    longest run of ``key`` without alternatives and where it starts in ``key``."""
    count = 1
    for ch in key:
        count *= 1 + len(alternatives.get(ch, ""))
        if count > MAX_READINGS:
            break
    if count <= MAX_READINGS:
        import itertools

        words = [
            "".join(chars)
            for chars in itertools.product(*(ch + alternatives.get(ch, "") for ch in key))
        ]
        return [w for w in words if w != key], -1
    best, offset, start = "", 0, 0
    for i, ch in enumerate(key + SEPARATOR):
        if ch in alternatives or ch == SEPARATOR:
            if i - start > len(best):
                best, offset = key[start:i], start
            start = i + 1
    return [best], offset


def _reads(key: str, window: str, alternatives: dict[str, str]) -> bool:
    """Whether ``window`` reads ``key``, some characters as one of their alternatives."""
    return (
        len(window) == len(key)
        and SEPARATOR not in window
        and all(a == b or b in alternatives.get(a, "") for a, b in zip(key, window))
    )


def _windows(key: str, placeholder: int, before: str, after: str) -> list[int]:
    """Starts of the windows through ``placeholder`` that can read ``key``.

    Where the placeholder stands for the quote's i-th character, the corpus' characters
    either side of it must be the quote's (i-1)-th and (i+1)-th (or placeholders too):
    a quote of n characters is tried at the offsets these allow, seldom more than one.
    """
    offsets = _offsets(key, after, -1, len(key) - 1) & _offsets(key, before, 1, 0)
    return sorted(placeholder - i for i in offsets if 0 <= i < len(key) and placeholder - i >= 0)


def _offsets(key: str, neighbour: str, shift: int, edge: int) -> set[int]:
    """Offsets of ``key`` a placeholder may stand at, given the corpus character beside it.

    ``edge`` is the offset with no neighbour to agree with (the quote's first or last);
    otherwise the neighbour must be the quote's character ``shift`` away, or a placeholder.
    """
    if neighbour == PLACEHOLDER:
        return set(range(len(key)))
    offsets = {edge}
    at = key.find(neighbour) if neighbour else -1
    while at != -1:
        offsets.add(at + shift)
        at = key.find(neighbour, at + 1)
    return offsets


def _fits(key: str, window: str) -> bool:
    """Whether ``window`` reads ``key`` where its placeholders may stand for any character."""
    return SEPARATOR not in window and all(a == b or b == PLACEHOLDER for a, b in zip(key, window))


def _wildcards(key: str, window: str) -> tuple[int, ...]:
    """1-based positions where a placeholder stood in for a character."""
    return tuple(i + 1 for i, (a, b) in enumerate(zip(key, window)) if a != b or a == PLACEHOLDER)


def _overlapping(pattern: re.Pattern[str], text: str, lo: int, hi: int):
    pos = lo
    while True:
        match = pattern.search(text, pos, hi)
        if not match:
            return
        yield match
        pos = match.start() + 1


def describe_differences(
    key: str, corpus_key: str, quote: str, quote_index: Sequence[int], printed: list[str]
) -> tuple[str, ...]:
    """Character-level differences, numbered by the quote as written.

    ``第4字: 竿 ≠ 笴（原文）`` — the quote's 4th character is 竿 where the corpus prints 笴.
    """
    from rapidfuzz.distance import Levenshtein

    notes = []
    for op in Levenshtein.opcodes(key, corpus_key):
        if op.tag == "equal":
            continue
        at = quote_index[op.src_start] + 1 if op.src_start < len(key) else len(quote) + 1
        written = "".join(quote[quote_index[i]] for i in range(op.src_start, op.src_end))
        original = "".join(printed[i] for i in range(op.dest_start, op.dest_end))
        if op.tag == "replace":
            notes.append(f"第{at}字: {written} ≠ {original}（原文）")
        elif op.tag == "delete":
            notes.append(f"第{at}字: {written} 原文无")
        else:
            notes.append(f"第{at}字前: 原文有 {original}")
    return tuple(notes)
