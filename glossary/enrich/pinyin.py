"""Pinyin in the ritual readings.

pypinyin gives everyday readings (敦 dūn, 拾 shí); the glossary's entries carry the
readings of the rites (敦 duì, 拾 shè). A :class:`RitualReadings` reads a passage with
the entries' readings wherever their headwords stand (pypinyin's global tables are left
as they are), and reads text through its folded (simplified, standard) form so variants
and traditional script get the same readings as the headwords.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from pypinyin.pinyin_dict import pinyin_dict

from glossary.model import Entry
from glossary.normalize import PLACEHOLDER, fold_char, normalize

# pypinyin's own table, copied before any entry's reading is registered into it.
_PYPINYIN_READINGS: dict[int, tuple[str, ...]] = {
    code: tuple(readings.split(",")) for code, readings in pinyin_dict.items()
}


@lru_cache(maxsize=1)
def valid_syllables() -> frozenset[str]:
    """Every tone-marked syllable pypinyin knows (from its character table)."""
    found: set[str] = set()
    for readings in _PYPINYIN_READINGS.values():
        found.update(readings)
    return frozenset(found)


def split_reading(reading: str) -> list[str]:
    """``"shèng shǐ"`` → ``["shèng", "shǐ"]`` (hyphens and apostrophes separate too)."""
    return [s for s in re.split(r"[\s\-']+", unicodedata.normalize("NFC", reading.strip())) if s]


def reading_problems(entry: Entry) -> list[tuple[str, str]]:
    """(severity, message) for an entry's pinyin: syllables, count, and pypinyin's candidates."""
    syllables = split_reading(entry.pinyin)
    chars = [ch for ch in entry.term if fold_char(ch)]
    problems: list[tuple[str, str]] = []
    bad = [s for s in syllables if s.lower() not in valid_syllables()]
    if bad:
        problems.append(("error", f"not pinyin syllables with tone marks: {', '.join(bad)}"))
        return problems
    if len(syllables) != len(chars):
        problems.append(("error", f"{len(syllables)} syllable(s) for {len(chars)} character(s) of {entry.term}"))
        return problems
    forms = [entry.term] + ([entry.traditional] if entry.traditional and len(entry.traditional) == len(entry.term) else [])
    for i, syllable in enumerate(syllables):
        candidates = {r for form in forms for r in _PYPINYIN_READINGS.get(ord(form[i]), ())}
        if syllable.lower() not in candidates:
            problems.append(
                ("warning", f"reading {syllable} of {chars[i]} is not among pypinyin's ({', '.join(sorted(candidates))}): look twice")
            )
    return problems


class RitualReadings:
    """Pinyin in the ritual readings of a set of entries, without touching pypinyin's own tables.

    Text is read through its folded form (simplified, standard); wherever an entry's headword
    stands, the longest such headword gives the reading; the rest is pypinyin's.
    """

    def __init__(self, entries: Iterable[Entry] = ()):
        self._words: dict[str, tuple[str, ...]] = {}
        for entry in entries:
            syllables = tuple(s.lower() for s in split_reading(entry.pinyin))
            key = normalize(entry.term)
            if key and len(syllables) == len(key):
                self._words.setdefault(key, syllables)
        self._longest = max(map(len, self._words), default=0)

    def _match(self, folded: str, start: int) -> tuple[str, ...] | None:
        for size in range(min(self._longest, len(folded) - start), 0, -1):
            found = self._words.get(folded[start : start + size])
            if found is not None:
                return found
        return None

    def transcribe(self, text: str) -> list[tuple[str, str | None]]:
        """Each character of ``text`` with its ritual reading (None for punctuation, 〇 …)."""
        folded = "".join(fold_char(ch) or ch for ch in text)
        readings: list[str] = []
        gap_start = i = 0
        while i < len(folded):
            found = self._match(folded, i)
            if found is None:
                i += 1
                continue
            readings.extend(_pypinyin(folded[gap_start:i]))
            readings.extend(found)
            i += len(found)
            gap_start = i
        readings.extend(_pypinyin(folded[gap_start:]))
        return [
            (ch, reading if reading and ch != PLACEHOLDER and fold_char(ch) else None)
            for ch, reading in zip(text, readings)
        ]

    def plain(self, text: str) -> str:
        """Syllables only, space-separated, tone marks."""
        return " ".join(r for _, r in self.transcribe(text) if r)

    def annotated(self, text: str) -> str:
        """``楅(bī)長(cháng)…``: every character followed by its reading."""
        return "".join(f"{ch}({r})" if r else ch for ch, r in self.transcribe(text))


def _pypinyin(text: str) -> list[str]:
    """pypinyin's everyday reading of each character ('' where it has none)."""
    if not text:
        return []
    import pypinyin

    readings = pypinyin.pinyin(text, style=pypinyin.Style.TONE, errors=lambda chars: [""] * len(chars))
    return [reading[0] if reading else "" for reading in readings]


def plain(text: str) -> str:
    """Syllables only, in pypinyin's readings (a :class:`RitualReadings` knows the entries')."""
    return RitualReadings().plain(text)


def annotated(text: str) -> str:
    """``楅(bī)長(cháng)…`` in pypinyin's readings (a :class:`RitualReadings` knows the entries')."""
    return RitualReadings().annotated(text)


def ritual_pinyin(text: str, entries: Iterable[Entry], plain_syllables: bool = False) -> str:
    """``text`` in the entries' ritual readings: annotated (``楅(bī)…``) or, plain, syllables only."""
    readings = RitualReadings(entries)
    return readings.plain(text) if plain_syllables else readings.annotated(text)
