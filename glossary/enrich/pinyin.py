"""Pinyin in the ritual readings.

pypinyin gives everyday readings (敦 dūn, 拾 shí); the glossary's entries carry the
readings of the rites (敦 duì, 拾 shè). Entries' readings are registered with
pypinyin as phrases, so a whole passage comes out right, and text is read through
its folded (simplified, standard) form so variants and traditional script get the
same readings as the headwords.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import pypinyin
from pypinyin import Style
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


_registered: dict[str, tuple[str, ...]] = {}


def register(entries: Iterable[Entry]) -> None:
    """Make the entries' readings pypinyin's readings for those words (idempotent)."""
    phrases: dict[str, list[list[str]]] = {}
    singles: dict[int, str] = {}
    for entry in entries:
        syllables = tuple(s.lower() for s in split_reading(entry.pinyin))
        key = normalize(entry.term)
        if len(syllables) != len(key) or _registered.get(key) == syllables:
            continue
        _registered[key] = syllables
        if len(key) == 1:
            singles[ord(key)] = syllables[0]
        else:
            phrases[key] = [[s] for s in syllables]
    if phrases:
        pypinyin.load_phrases_dict(phrases)
    if singles:
        pypinyin.load_single_dict(singles)


def transcribe(text: str) -> list[tuple[str, str | None]]:
    """Each character of ``text`` with its ritual reading (None for punctuation, 〇 …)."""
    folded = "".join(fold_char(ch) or ch for ch in text)
    readings = pypinyin.pinyin(folded, style=Style.TONE, errors=lambda chars: [""] * len(chars))
    out: list[tuple[str, str | None]] = []
    for ch, reading in zip(text, readings):
        value = reading[0] if reading and reading[0] and ch != PLACEHOLDER and fold_char(ch) else None
        out.append((ch, value))
    return out


def plain(text: str) -> str:
    """Syllables only, space-separated, tone marks."""
    return " ".join(r for _, r in transcribe(text) if r)


def ritual_pinyin(text: str, entries: Iterable[Entry], plain_syllables: bool = False) -> str:
    """``text`` in the entries' ritual readings: annotated (``楅(bī)…``) or, plain, syllables only."""
    register(entries)
    return plain(text) if plain_syllables else annotated(text)


def annotated(text: str) -> str:
    """``楅(bī)長(cháng)…``: every character followed by its reading."""
    return "".join(f"{ch}({r})" if r else ch for ch, r in transcribe(text))
