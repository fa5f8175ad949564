"""What the glossary does not cover yet: frequent words and characters with no entry, the words
found by cutting the rites' text at the glossary's own headwords (not two-character fragments)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from glossary.corpus.commentators import commentator_names
from glossary.index import CorpusIndex
from glossary.model import Entry
from glossary.normalize import normalize
from glossary.vocab import Rite, vocabulary

#: Function words that are never glossary terms.
FUNCTION_CHARS = frozenset("之也而于以其者曰为不则亦乃与皆又所此故如若焉矣乎哉与既遂即及自各凡某")


#: The longest candidate word counted.
MAX_WORD = 4
#: Fewer occurrences than this are not worth an entry's work.
MIN_COUNT = 3
#: A candidate one neighbouring character follows (or precedes) at this share of its
#: occurrences is a fragment of a longer word (拜稽 of 再拜稽首, 人拜 of 主人拜), not a word.
DOMINANT = 0.6
#: How a commentary introduces the word it explains: 「X謂…」, 「X猶…也」 (X者 and X曰 are left
#: out: 北面者 is "he who faces north" far more often than a definition).
DEFINING = ("谓", "犹")


@dataclass(frozen=True)
class Coverage:
    """The most frequent uncovered words and characters, with counts; ``defined``: the words
    a commentary of those rites explains (X謂, X猶)."""

    rites: tuple[str, ...]
    layer: str
    words: tuple[tuple[str, int], ...]
    chars: tuple[tuple[str, int], ...]
    defined: frozenset[str] = frozenset()


def _names(rite: Rite | None, given: str) -> tuple[str, ...]:
    return tuple(rite.names) if rite is not None else (given,)


def runs(text: str, known: frozenset[str]) -> list[str]:
    """``text`` cut at the glossary's own words (the longest that starts at each place) and at
    function characters: the stretches no entry covers, in which new words are looked for."""
    longest = max(map(len, known), default=0)
    found: list[str] = []
    start = i = 0
    while i < len(text):
        size = next(
            (n for n in range(min(longest, len(text) - i), 1, -1) if text[i : i + n] in known), 0
        )
        if size or text[i] in FUNCTION_CHARS:
            found.append(text[start:i])
            i += size or 1
            start = i
        else:
            i += 1
    found.append(text[start:])
    return [run for run in found if run]


def ngram_counts(stretches: list[str], longest: int) -> Counter[str]:
    """Every run of 1 to ``longest`` characters in ``stretches``, counted."""
    counts: Counter[str] = Counter()
    for run in stretches:
        for size in range(1, longest + 1):
            counts.update(run[i : i + size] for i in range(len(run) - size + 1))
    return counts


def bounded(stretches: list[str], counts: Counter[str]) -> set[str]:
    """The candidates of 2–4 characters, seen at least :data:`MIN_COUNT` times, whose neighbours
    vary on both sides (no one character beside most of their occurrences)."""
    left: dict[str, Counter[str]] = {}
    right: dict[str, Counter[str]] = {}
    for run in stretches:
        for size in range(2, MAX_WORD + 1):
            for i in range(len(run) - size + 1):
                word = run[i : i + size]
                if counts[word] < MIN_COUNT:
                    continue
                if i:
                    left.setdefault(word, Counter())[run[i - 1]] += 1
                if i + size < len(run):
                    right.setdefault(word, Counter())[run[i + size]] += 1
    return {
        word
        for word, n in counts.items()
        if 2 <= len(word) <= MAX_WORD
        and n >= MIN_COUNT
        and all(
            max(side.get(word, Counter()).values(), default=0) < DOMINANT * n
            for side in (left, right)
        )
    }


def segment(run: str, weights: dict[str, float], longest: int) -> list[str]:
    """``run`` cut into the words of ``weights`` (log-probabilities; any single character is a
    word) whose weights sum highest: a word seen often beats the pieces it straddles (北面 坐,
    not 北 面坐)."""
    floor = min(weights.values(), default=0.0) - 1.0
    best = [0.0] + [-math.inf] * len(run)
    back = [0] * (len(run) + 1)
    for end in range(1, len(run) + 1):
        for size in range(1, min(longest, end) + 1):
            word = run[end - size : end]
            weight = weights.get(word, floor if size == 1 else None)
            if weight is not None and best[end - size] + weight > best[end]:
                best[end], back[end] = best[end - size] + weight, size
    words: list[str] = []
    end = len(run)
    while end:
        words.append(run[end - back[end] : end])
        end -= back[end]
    return words[::-1]


def defined_words(commentary: list[str]) -> frozenset[str]:
    """Every run of 2–4 characters a commentary introduces as the word it explains (X謂, X猶)."""
    found: set[str] = set()
    for text in commentary:
        for i, ch in enumerate(text):
            if ch in DEFINING:
                found.update(text[i - n : i] for n in range(2, MAX_WORD + 1) if i >= n)
    return frozenset(found)


def coverage(
    entries: list[Entry], index: CorpusIndex, rites: tuple[str, ...], layer: str, top: int
) -> Coverage:
    """Count words and characters of ``layer`` in ``rites`` that no entry's headword covers.

    ``rites`` are names in any script; none means every rite some entry lists. The text is
    cut at the glossary's own headwords (every form) and at function characters; in what is
    left, a word is a run of 2–4 characters with varied neighbours on both sides, or one the
    rites' commentary defines.
    """
    if not rites:
        listed = {rite for entry in entries for rite in entry.rites}
        rites = tuple(rite.simplified for rite in vocabulary().rites if rite in listed)
    # Every name the corpus may give each rite (禮經本義 heads 卷八 士相見之禮).
    vocab = vocabulary()
    wanted = {normalize(name) for r in rites for name in _names(vocab.rite(r), r)}
    headwords = {
        normalize(form) for e in entries for form in (e.term, e.traditional or e.term, *e.variants)
    }
    covered_chars = {ch for word in headwords if len(word) == 1 for ch in word}
    # Pieces of a commentator's name (敖君善, 郑康成) are not new terms: his name cuts the text.
    known = frozenset(w for w in headwords if len(w) >= 2) | frozenset(
        normalize(name) for name in commentator_names()
    )
    chars: Counter[str] = Counter()
    # The 儀禮音義's notes are readings (反切, 下同 …) and its headwords the rite's words over again:
    # neither is a new term, so books of readings are not counted.
    texts = index.texts_of(wanted, layer, readings=False)
    for text in texts:
        chars.update(ch for ch in text if ch not in FUNCTION_CHARS and ch not in covered_chars)
    stretches = [run for text in texts for run in runs(text, known)]
    counts = ngram_counts(stretches, MAX_WORD)
    notes = index.texts_of(wanted, "commentary", readings=False)
    defined = {w for w in defined_words(notes) if counts[w] >= 2}
    # What is left is cut by the words a commentary defines and the runs that stand apart from
    # their neighbours, each weighted by how often it occurs.
    total = sum(map(len, stretches)) or 1
    weights = {
        w: math.log(counts[w] / total)
        for w in bounded(stretches, counts) | defined | {w for w in counts if len(w) == 1}
    }
    words: Counter[str] = Counter(
        word for run in stretches for word in segment(run, weights, MAX_WORD) if len(word) >= 2
    )
    # A doubled character (尸尸, 宾宾) is two clauses meeting (…授尸 尸受…), not a word.
    words = Counter(
        {
            w: n
            for w, n in words.items()
            if (n >= MIN_COUNT or w in defined) and not any(a == b for a, b in zip(w, w[1:]))
        }
    )
    return Coverage(
        rites=tuple(rites),
        layer=layer,
        words=tuple(sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))[:top]),
        chars=tuple(sorted(chars.items(), key=lambda kv: (-kv[1], kv[0]))[:top]),
        defined=frozenset(defined & set(words)),
    )
