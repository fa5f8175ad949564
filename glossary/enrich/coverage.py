"""What the glossary does not cover yet: frequent words and characters with no entry."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from glossary.corpus.commentators import commentator_names
from glossary.index import CorpusIndex
from glossary.model import Entry
from glossary.normalize import normalize
from glossary.vocab import Rite, vocabulary

#: Function words that are never glossary terms.
FUNCTION_CHARS = frozenset("之也而于以其者曰为不则亦乃与皆又所此故如若焉矣乎哉与既遂即及自各凡某")


@dataclass(frozen=True)
class Coverage:
    """The most frequent uncovered words (two characters) and characters, with counts."""

    rites: tuple[str, ...]
    layer: str
    words: tuple[tuple[str, int], ...]
    chars: tuple[tuple[str, int], ...]


def _names(rite: Rite | None, given: str) -> tuple[str, ...]:
    return tuple(rite.names) if rite is not None else (given,)


def coverage(
    entries: list[Entry], index: CorpusIndex, rites: tuple[str, ...], layer: str, top: int
) -> Coverage:
    """Count words and characters of ``layer`` in ``rites`` that no entry's headword covers.

    ``rites`` are names in any script; none means every rite some entry lists.
    """
    if not rites:
        listed = {rite for entry in entries for rite in entry.rites}
        rites = tuple(rite.simplified for rite in vocabulary().rites if rite in listed)
    # Every name the corpus may give each rite (禮經本義 heads 卷八 士相見之禮).
    vocab = vocabulary()
    wanted = {normalize(name) for r in rites for name in _names(vocab.rite(r), r)}
    headwords = {normalize(e.term) for e in entries}
    covered_chars = {ch for word in headwords if len(word) == 1 for ch in word}
    words: Counter[str] = Counter()
    chars: Counter[str] = Counter()
    # The 儀禮音義's notes are readings (反切, 下同 …) and its headwords the rite's words over again:
    # neither is a new term, so books of readings are not counted.
    for text in index.texts_of(wanted, layer, readings=False):
        for i, ch in enumerate(text):
            if ch not in FUNCTION_CHARS and ch not in covered_chars:
                chars[ch] += 1
            pair = text[i : i + 2]
            if len(pair) == 2 and not (set(pair) & FUNCTION_CHARS):
                words[pair] += 1
    # Words inside a headword, or pieces of a commentator's name (敖君善, 郑康成), are not new terms.
    known = tuple(headwords) + commentator_names()
    for word in list(words):
        if any(word in name for name in known):
            del words[word]
    return Coverage(
        rites=tuple(rites),
        layer=layer,
        words=tuple(sorted(words.items(), key=lambda kv: (-kv[1], kv[0]))[:top]),
        chars=tuple(sorted(chars.items(), key=lambda kv: (-kv[1], kv[0]))[:top]),
    )
