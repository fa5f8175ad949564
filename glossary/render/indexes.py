"""Orderings for the printed indexes: pinyin, radical and strokes, English gloss, category."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from glossary.enrich.pinyin import split_reading
from glossary.model import Entry
from glossary.render.markup import tone
from glossary.vocab import vocabulary


@dataclass(frozen=True)
class Radical:
    number: int
    radical: str
    residual: int
    strokes: int


@lru_cache(maxsize=1)
def radicals() -> dict[str, Radical]:
    """char → radical and strokes (``data/radicals.tsv``, generated from Unihan)."""
    table = {}
    text = resources.files("glossary.data").joinpath("radicals.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            char, number, radical, residual, strokes = line.split("\t")
            table[char] = Radical(int(number), radical, int(residual or 0), int(strokes))
    return table


def toneless(syllable: str) -> str:
    """``shèng`` → ``sheng``; ü sorts as v, after u."""
    plain = "".join(c for c in unicodedata.normalize("NFD", syllable) if not unicodedata.combining(c))
    return plain.lower().replace("u\u0308", "v").replace("ü", "v")


def pinyin_key(entry: Entry) -> tuple:
    """Toneless syllables first, then tones, then the characters."""
    syllables = split_reading(entry.pinyin)
    return (tuple(toneless(s) for s in syllables), tuple(tone(s) for s in syllables), entry.term)


def radical_key(entry: Entry) -> tuple:
    """Radical of the first character, residual strokes, then the headword."""
    info = radicals().get(entry.term[0])
    if info is None:
        return (999, 99, entry.term)
    return (info.number, info.residual, entry.term)


def gloss_key(entry: Entry) -> tuple:
    """The gloss without a leading article or 'to', case-folded."""
    plain = re.sub(r"^\W+", "", entry.gloss.strip().lower())
    return (re.sub(r"^(the|a|an|to)\s+", "", plain), entry.term)


def by_pinyin(entries: list[Entry]) -> list[tuple[str, list[Entry]]]:
    """Groups by initial letter, in pinyin order."""
    groups: dict[str, list[Entry]] = {}
    for entry in sorted(entries, key=pinyin_key):
        groups.setdefault(pinyin_key(entry)[0][0][:1].upper(), []).append(entry)
    return list(groups.items())


def by_radical(entries: list[Entry]) -> list[tuple[Radical | None, list[tuple[Entry, Radical | None]]]]:
    """Groups by the radical of the first character, ordered by residual strokes."""
    groups: dict[int, tuple[Radical | None, list[tuple[Entry, Radical | None]]]] = {}
    for entry in sorted(entries, key=radical_key):
        info = radicals().get(entry.term[0])
        key = info.number if info else 999
        groups.setdefault(key, (info, []))[1].append((entry, info))
    return [groups[k] for k in sorted(groups)]


def by_gloss(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=gloss_key)


def by_category(entries: list[Entry]) -> list[tuple[str, list[Entry]]]:
    return [(c.id, sorted((e for e in entries if e.category == c.id), key=pinyin_key)) for c in vocabulary().categories]
