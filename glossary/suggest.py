"""Near misses: the passages nearest to a quote the corpus index does not hold, and how they differ.

Votes on shared chunks (one Aho–Corasick pass for all the quotes of a check, or bigrams for
one) say where a quote almost stands; rapidfuzz aligns the quote with each candidate window and
the differences are numbered by the quote as written.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from glossary.corpus import Locus
from glossary.index import MAX_BIGRAM_HITS, CorpusIndex, Hit
from glossary.matching import SEPARATOR
from glossary.normalize import PLACEHOLDER
from glossary.offsets import Positions


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


def chunk_votes(
    index: CorpusIndex, keys: Iterable[str], exact: Iterable[str] = ()
) -> dict[str, array]:
    """For quotes that were not found: votes for where each almost stands, from one pass.

    Each quote is cut into overlapping 4-character chunks; every place a chunk occurs
    votes for the alignment (position − chunk offset). One Aho–Corasick pass serves all,
    and finds the ``exact`` words too (remembered as :meth:`CorpusIndex.prefetch` does: the readings of
    quotes with edition variants, see :meth:`CorpusIndex.find_alternatives`).
    """
    words = sorted(
        {w for w in exact if w and SEPARATOR not in w and PLACEHOLDER not in w}
        - set(index.remembered())
    )
    chunks: dict[str, list[tuple[str, int]]] = {}
    for key in keys:
        size = 4 if len(key) >= 8 else 2
        offsets = sorted(set(range(0, max(1, len(key) - size + 1), 2)) | {max(0, len(key) - size)})
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
    for end, (chunk, owners, wanted) in automaton.iter(index.text):
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
    index.remember(found)
    return votes


def _bigram_votes(index: CorpusIndex, key: str) -> Counter[int]:
    votes: Counter[int] = Counter()
    for k in range(len(key) - 1):
        bigram = key[k : k + 2]
        pos = index.text.find(bigram)
        seen = 0
        while pos != -1 and seen < MAX_BIGRAM_HITS:
            votes[pos - k] += 1
            seen += 1
            pos = index.text.find(bigram, pos + 1)
    return votes


def suggest(
    index: CorpusIndex,
    key: str,
    quote: str,
    quote_index: Positions,
    limit: int = 3,
    votes: Sequence[int] | None = None,
) -> list[Suggestion]:
    """The passages nearest to a quote that was not found, with a character diff.

    ``quote`` is the quote as written and ``quote_index`` maps each character of
    its normalised ``key`` back to it, so differences are numbered as written.
    ``votes`` (from :func:`chunk_votes`) saves a scan per quote when checking many.
    """
    if len(key) < 2:
        return []
    # rapidfuzz is imported by the few runs that miss a quote, not by every check.
    from rapidfuzz import fuzz
    from rapidfuzz.distance import Levenshtein

    if votes is None:
        counted = _bigram_votes(index, key)
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
        hi = min(len(index.text), diagonal + len(key) + 4)
        # Keep the window inside the stream the diagonal falls in.
        offset = lo
        for piece in index.text[lo:hi].split(SEPARATOR):
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
        locus = index.locus(Hit(start, end))
        printed = list(index.printed(start, end))
        differences = describe_differences(key, index.text[start:end], quote, quote_index, printed)
        suggestions.append(Suggestion(locus, round(score, 1), differences))
    return suggestions


def describe_differences(
    key: str, corpus_key: str, quote: str, quote_index: Positions, printed: list[str]
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
