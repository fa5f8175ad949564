"""The 儀禮音義's reading of an entry's headword characters, found again in the corpus.

An entry's character is read as the 儀禮音義 reads it in the entry's rites: a note on
the whole headword first, else a note on that character in any headword (the first in the
rite, where 陸德明 glosses a word and says 下同 for the rest). Every reading shown is found
again in the corpus through the index, at its place, so its locus is a verified one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cache, cached_property
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from glossary.corpus import Corpus
from glossary.corpus.model import Locus
from glossary.enrich.characters import char_form
from glossary.enrich.pinyin import split_reading
from glossary.enrich.readings.guangyun import guangyun
from glossary.enrich.readings.yinyi import Gloss, key, parse_yinyi
from glossary.model import CharReading, Entry, GuangyunReading, ShiwenReading
from glossary.normalize import fold_char, normalize
from glossary.vocab import vocabulary

if TYPE_CHECKING:
    from glossary.index import CorpusIndex

# Corpus → its parsed 音義; weak, so a corpus no longer used is not kept alive by it.
_PARSED: WeakKeyDictionary[Corpus, Yinyi] = WeakKeyDictionary()


def headword_chars(entry: Entry) -> str:
    """The headword as the sources write it: the traditional form, else the term."""
    if entry.traditional and len(entry.traditional) == len(entry.term):
        return entry.traditional
    return entry.term


class Yinyi:
    """The 儀禮音義 of a corpus, parsed, with the rites of its glosses resolved.

    A note is analysed (its readings, the character it reads) only when a headword character
    asked about stands in its headword.
    """

    def __init__(self, glosses: Iterable[Gloss]) -> None:
        self.glosses = tuple(glosses)

    @classmethod
    def of(cls, corpus: Corpus) -> Yinyi:
        """The 音義 of ``corpus``, parsed once for the life of that (immutable) corpus object: a
        build's check and renderers, a preview's, each check of a shared corpus meet the same
        notes, analysed once (its glosses keep what they worked out)."""
        parsed = _PARSED.get(corpus)
        if parsed is None:
            found: list[Gloss] = []
            for document in corpus.documents:
                if document.text_info.readings:
                    found.extend(parse_yinyi(document))
            parsed = _PARSED[corpus] = cls(tuple(found))
        return parsed

    @cached_property
    def order(self) -> list[str]:
        """The rites' ids in the order the book takes them."""
        return list(self.by_rite)

    @cached_property
    def by_rite(self) -> dict[str, list[Gloss]]:
        """Rite id → its glosses that have a reading, in order."""
        vocab = vocabulary()
        rites = {name: vocab.rite(name) for name in {g.rite for g in self.glosses if g.rite}}
        grouped: dict[str, list[Gloss]] = {}
        for gloss in self.glosses:
            rite = rites.get(gloss.rite) if gloss.rite else None
            if rite is not None and gloss.main is not None:
                grouped.setdefault(rite.id, []).append(gloss)
        return grouped

    def _holding(self, rite: str) -> dict[str, list[Gloss]]:
        """Character (folded) → the glosses of a rite whose headword holds it, in order."""
        table = self._tables.get(rite)
        if table is None:
            table = self._tables[rite] = {}
            for gloss in self.by_rite.get(rite, ()):
                for ch in dict.fromkeys(gloss.folded):
                    table.setdefault(ch, []).append(gloss)
        return table

    @cached_property
    def _tables(self) -> dict[str, dict[str, list[Gloss]]]:
        return {}

    def reading(self, rite: str, char: str, later: bool = False) -> list[Gloss]:
        """The glosses of a rite (id) that read ``char`` (folded), in order; ``later``: only those
        whose note says that later chapters read so too."""
        return [
            g
            for g in self._holding(rite).get(char, ())
            if (not later or LATER_CHAPTERS.search(g.note))
            and g.target is not None
            and g.folded[g.target] == char
        ]

    def glosses_of(self, entry: Entry, char: str) -> tuple[list[Gloss], list[Gloss]]:
        """The glosses that read ``char`` (folded) where the entry's readings are looked for: those
        of its rites (in the order it lists them), and those of the rites before them whose note
        says that later chapters read so too (堂深 申鴆反 …後放此, in 士冠禮)."""
        ids = [rite.id for rite in entry.rites]
        own = [g for rite in ids for g in self.reading(rite, char)]
        last = max((self.order.index(r) for r in ids if r in self.order), default=-1)
        earlier = [
            g
            for rite in self.order[:last]
            if rite not in ids
            for g in self.reading(rite, char, later=True)
        ]
        return own, earlier

    def for_char(self, entry: Entry, i: int) -> Gloss | None:
        """The gloss that reads the entry's ``i``-th headword character.

        Where the entry names the 音義's headword (``yinyi``), the first gloss of its rites on
        that headword that reads this character; ``null`` there, none. Otherwise, first in the
        entry's rites, then in the earlier rites whose note says later chapters read so too: a
        note on the whole headword (挼祭; 堂深 of 士冠禮); on a headword that holds it; on a
        part of it (兩楹 of 兩楹間); and, for a headword of one character, on that character in
        any headword (二敦 音對 reads the vessel 敦). A character of a longer headword is not
        read from a note on another word: 中掩 (丁仲反, "hit") is not the 中 of 中庭, nor 明齊's
        齊 that of 齊衰 (an entry names such a note with ``yinyi`` when it is the same word
        cut apart: 不綏 of 不綏祭).
        """
        word = tuple(key(ch) for ch in headword_chars(entry))
        own, earlier = (
            [g for g in pool if not excepts(g, word, i)] for pool in self.glosses_of(entry, word[i])
        )
        if entry.yinyi is not None:
            named = entry.yinyi[i] if i < len(entry.yinyi) else None
            if named is None:
                return None
            wanted = tuple(key(ch) for ch in named)
            # The named headword may write another graph of the character (朼載 for 匕).
            others = [
                g
                for ch in sorted(graphs(word[i]) - {word[i]})
                for pool in self.glosses_of(entry, ch)
                for g in pool
                if not excepts(g, word, i)
            ]
            return next((g for g in own + earlier + others if g.folded == wanted), None)

        def whole(g: Gloss) -> bool:
            return g.folded == word and g.target == i

        def holding(g: Gloss) -> bool:
            at = _find(g.folded, word)
            return at is not None and g.target == at + i

        def part(g: Gloss) -> bool:
            at = _find(word, g.folded)
            return len(g.folded) > 1 and at is not None and at + g.target == i  # type: ignore[operator]

        # One character, whatever marks follow it (a variation selector: 楅︀).
        single = sum(1 for ch in headword_chars(entry) if fold_char(ch)) == 1

        def alone(g: Gloss) -> bool:
            return single and g.folded[g.target] == word[i]  # type: ignore[index]

        for pool, tests in ((own, (whole, holding, part, alone)), (earlier, (whole,))):
            for test in tests:
                found = next((g for g in pool if test(g)), None)
                if found is not None:
                    return found
        return None

    def unread(self, entry: Entry, i: int) -> list[Gloss]:
        """Every note of the entry's rites that reads its ``i``-th headword character in any
        headword, under any graph of it, best first: a headword of that character alone (韎 and
        韐 glossed apart for 韎韐), then a longer headword that holds it (搢三 for the 搢 of 搢扑,
        取扑 for its 扑), then one that writes another graph of it (:func:`graphs`: 朼 for 匕,
        鈃 for 鉶, 僎 for 遵); in each, the entry's rites in its order, the book's order within a
        rite. A note whose exception (``除決拾以外皆同``) is the entry's phrase does not read it."""
        word = tuple(key(ch) for ch in headword_chars(entry))
        wanted = graphs(word[i])
        ranked: dict[Gloss, tuple[int, int, int]] = {}
        for r, rite in enumerate(dict.fromkeys(rite.id for rite in entry.rites)):
            for ch in sorted(wanted):
                for n, g in enumerate(self._holding(rite).get(ch, ())):
                    if g.target is None or g.folded[g.target] not in wanted or excepts(g, word, i):
                        continue
                    kind = (
                        2 if g.folded[g.target] != word[i] else 0 if len(set(g.folded)) == 1 else 1
                    )
                    ranked.setdefault(g, (kind, r, n))
        return sorted(ranked, key=ranked.__getitem__)


def graphs(char: str) -> frozenset[str]:
    """A character (folded, :func:`key`) and the other graphs editions write for it, folded: the
    edition variants of ``data/edition_variants.tsv`` (朼/匕, 鈃/鉶, 僎/遵, 說/脫 …)."""
    return _graphs().get(char, frozenset()) | {char}


@cache
def _graphs() -> dict[str, frozenset[str]]:
    from glossary.folds import edition_pairs

    found: dict[str, set[str]] = {}
    for pair in edition_pairs().values():
        a, b = key(pair.a), key(pair.b)
        if a != b:
            found.setdefault(a, set()).add(b)
            found.setdefault(b, set()).add(a)
    return {ch: frozenset(others) for ch, others in found.items()}


def excepts(gloss: Gloss, word: tuple[str, ...], i: int) -> bool:
    """Whether the note's reading is not for the ``i``-th character of ``word`` (folded): the
    note excepts a phrase (:attr:`Gloss.excepted`: 除決拾以外皆同) that ``word`` holds there."""
    for phrase in gloss.excepted:
        folded = tuple(key(ch) for ch in phrase)
        for j, ch in enumerate(folded):
            if ch == word[i] and i >= j and word[i - j : i - j + len(folded)] == folded:
                return True
    return False


#: A note that says its reading holds in the chapters after it too: 後放此, 後同, 後皆同, 後乗矢皆同.
LATER_CHAPTERS = re.compile(r"後[^同反音]{0,6}同|後[^反音]{0,6}放此|後[^反音]{0,6}倣此")


def _find(items: tuple[str, ...], part: tuple[str, ...]) -> int | None:
    """Where the list ``part`` first stands in ``items``."""
    for at in range(len(items) - len(part) + 1):
        if items[at : at + len(part)] == part:
            return at
    return None


def reading_locus(index: CorpusIndex, gloss: Gloss) -> Locus | None:
    """The verified locus of a gloss's reading: found again through the corpus index, at its place."""
    if gloss.main is None:
        return None
    stream = gloss.document.streams[gloss.stream_index]
    start = stream.offsets[gloss.main.start]
    for hit in index.find(normalize(gloss.main_text)):
        locus = index.locus(hit)
        if locus.file == gloss.document.path and locus.start == start:
            return locus
    return None


def entry_readings(
    entry: Entry, yinyi: Yinyi, index: CorpusIndex, glosses: Sequence[Gloss | None] | None = None
) -> tuple[CharReading, ...]:
    """One reading per headword character: its pinyin, the chosen 廣韻 reading, the 儀禮音義's
    (``glosses``: the notes found for each character, if already looked for)."""
    chars = headword_chars(entry)
    syllables = split_reading(entry.pinyin)
    chosen = list(entry.guangyun) if entry.guangyun is not None else []
    result = []
    for i, char in enumerate(chars):
        pinyin = syllables[i] if i < len(syllables) and len(syllables) == len(chars) else ""
        fanqie = chosen[i] if i < len(chosen) and len(chosen) == len(chars) else None
        reading = next((g for g in guangyun(char) if g.name == fanqie), None) if fanqie else None
        shiwen = None
        if glosses is not None:
            gloss = glosses[i]
        else:
            gloss = yinyi.for_char(entry, i) if fold_char(char) else None
        if gloss is not None and (locus := reading_locus(index, gloss)) is not None:
            shiwen = ShiwenReading(
                text=gloss.main_text,
                locus=locus,
                headword=gloss.headword,
                who=gloss.main.who if gloss.main else None,
                others=tuple((s.text, s.who) for s in gloss.others),
                positions=gloss.positions,
                source=gloss.document.text_info.readings or "",
                sounds_like=gloss.main.value if gloss.main and gloss.main.kind == "zhiyin" else "",
            )
        result.append(
            CharReading(
                char,
                pinyin,
                GuangyunReading(reading.fanqie, reading.position) if reading else None,
                shiwen,
                char_form(char),
            )
        )
    return tuple(result)


def all_readings(
    entries: Iterable[Entry], corpus: Corpus, index: CorpusIndex
) -> tuple[Yinyi, dict[str, tuple[CharReading, ...]]]:
    """The corpus' 儀禮音義 and every entry's readings (entry id → one per headword character);
    only the notes the entries need are analysed."""
    yinyi = Yinyi.of(corpus)
    entries = list(entries)
    found = {
        entry.id: [
            yinyi.for_char(entry, i) if fold_char(ch) else None
            for i, ch in enumerate(headword_chars(entry))
        ]
        for entry in entries
    }
    index.prefetch(
        {normalize(g.main_text) for glosses in found.values() for g in glosses if g is not None}
    )
    return yinyi, {
        entry.id: entry_readings(entry, yinyi, index, found[entry.id]) for entry in entries
    }


def propose_yinyi(yinyi: Yinyi, entry: Entry) -> tuple[list[str | None], list[str]]:
    """The ``yinyi`` to write for a new entry, and what a person must look at: for each headword
    character the note the check finds (:meth:`Yinyi.for_char`), else the best note of its rites
    that reads it in another headword or graph (:meth:`Yinyi.unread`), else null; each note
    named with its reading and rite. Empty lists where no note reads any character."""
    chosen: list[str | None] = []
    notes: list[str] = []
    for i, ch in enumerate(headword_chars(entry)):
        gloss = None
        if fold_char(ch):
            gloss = yinyi.for_char(entry, i) or next(iter(yinyi.unread(entry, i)), None)
        chosen.append(gloss.headword if gloss is not None else None)
        if gloss is not None:
            notes.append(f"{ch}: {gloss.headword} ({gloss.note}) in {gloss.rite}")
    return (chosen, notes) if notes else ([], [])
