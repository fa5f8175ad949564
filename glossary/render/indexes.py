"""Orderings for the printed indexes: pinyin, radical and strokes, English keyword, category.

Each index says in one sentence how it is ordered (``ORDERING``); the functions here are that order.
"""

from __future__ import annotations

import re
import unicodedata

from glossary.enrich.characters import Radical, radicals
from glossary.enrich.pinyin import split_reading
from glossary.model import Entry
from glossary.render.markup import tone
from glossary.vocab import vocabulary

#: One sentence per index on how it is ordered (printed under the index's heading).
ORDERING = {
    "pinyin": "By syllable without tones (ü after u), then by tone (1–4, then the neutral tone), "
    "then by the number of strokes.",
    "radical": "The traditional form (as the 四庫 text writes it) under the Kangxi radical of its first "
    "character, then by residual strokes; counts are Kangxi counts (radical + residual = total).",
    "gloss": "Every entry under each word of its English gloss (words in parentheses and small words "
    "such as 'the' and 'of' left out), keywords in alphabetical order.",
    "category": "By kind of entry, then in pinyin order.",
}

#: Words an English keyword index leaves out.
STOPWORDS = frozenset(
    "a an and as at by for from his her in into is it its of on or one's the their to up with who which "
    "that this these those "
    # Function words and words of manner, time and degree: under them an index lists entries that
    # have nothing in common (a reader looks up "cup" or "bow", not "again").
    "about above across added after again against all also am any are be been before being both but "
    "can could did do does done down during each else even ever every few further had has have he here "
    "him how i if made make many may might more most much must no nor not now off once only other our "
    "out over own per same she should since so some still such than then there they though through thus "
    "too toward towards under until upon used very was way we well were what when where while whom "
    "whose why will would yet you your".split()
)


def toneless(syllable: str) -> str:
    """``shèng`` → ``sheng``; ü becomes v (sorting after u) before the tone marks go, so ``lǚ`` → ``lv``."""
    decomposed = unicodedata.normalize("NFD", syllable.lower()).replace("u\u0308", "v")
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ü", "v")


def strokes(text: str) -> tuple[int, ...]:
    """Total strokes of each character (99 for one the table lacks)."""
    table = radicals()
    return tuple(table[c].strokes if c in table else 99 for c in text)


def pinyin_key(entry: Entry) -> tuple:
    """Toneless syllables first, then tones, then strokes, then the characters."""
    syllables = split_reading(entry.pinyin)
    return (
        tuple(toneless(s) for s in syllables),
        tuple(tone(s) for s in syllables),
        strokes(entry.term),
        entry.term,
    )


def traditional(entry: Entry) -> str:
    """The headword as the 四庫 text writes it."""
    return entry.traditional or entry.term


def radical_key(entry: Entry) -> tuple:
    """Kangxi radical of the traditional form's first character, its residual strokes, the
    character itself (words of one first character together), then the headword's strokes."""
    info = radicals().get(traditional(entry)[0])
    if info is None:
        return (999, 99, traditional(entry))
    # The first character whole before the next one's words: 三加 never between 上介 and 上佐食.
    head = traditional(entry)
    return (info.number, info.residual, head[0], strokes(head), head)


def gloss_key(entry: Entry) -> tuple:
    """The gloss without a leading article or 'to', case-folded."""
    plain = re.sub(r"^\W+", "", re.sub(r"^\([^)]*\)\s*", "", entry.gloss.strip().lower()))
    return (re.sub(r"^(the|a|an|to)\s+", "", plain), entry.term)


def keywords(gloss: str) -> list[str]:
    """The words of a gloss outside parentheses and quotation, small words and Chinese left out."""
    outside = re.sub(r"\([^)]*\)", " ", gloss.lower())
    words = re.findall(r"[a-zà-ÿāēīōūǖǘǚǜ][a-zà-ÿāēīōūǖǘǚǜ'-]*[a-z]|[a-z]", outside)
    seen: list[str] = []
    for word in words:
        word = word.strip("'-")
        if word and word not in STOPWORDS and len(word) > 1 and word not in seen:
            seen.append(word)
    return seen


def by_pinyin(entries: list[Entry]) -> list[tuple[str, list[Entry]]]:
    """Groups by initial letter, in pinyin order."""
    groups: dict[str, list[Entry]] = {}
    for entry in sorted(entries, key=pinyin_key):
        groups.setdefault(pinyin_key(entry)[0][0][:1].upper(), []).append(entry)
    return list(groups.items())


def by_radical(
    entries: list[Entry],
) -> list[tuple[Radical | None, list[tuple[Entry, Radical | None]]]]:
    """Groups by the Kangxi radical of the traditional form's first character, by residual strokes."""
    groups: dict[int, tuple[Radical | None, list[tuple[Entry, Radical | None]]]] = {}
    for entry in sorted(entries, key=radical_key):
        info = radicals().get(traditional(entry)[0])
        key = info.number if info else 999
        groups.setdefault(key, (info, []))[1].append((entry, info))
    return [groups[k] for k in sorted(groups)]


#: Endings whose forms are one keyword (attend, attendant, attending, attendance), longest first.
_ENDINGS = ("ations", "ation", "ances", "ance", "ants", "ant", "ings", "ing", "edly", "ed", "ly")


def stem(word: str) -> str:
    """What an index keyword is filed by: possessive, plural and common endings removed, so that
    the forms of one word are one line (answer/answering, archer/archer's, cup/cups)."""
    word = re.sub(r"'s$", "", word)
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("ches", "shes", "sses", "xes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            word = word[: -len(ending)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 4 else word


def by_gloss(entries: list[Entry]) -> list[tuple[str, list[Entry]]]:
    """Keyword → the entries whose gloss has it, every form of a word under its shortest form."""
    found: dict[str, list[Entry]] = {}
    forms: dict[str, set[str]] = {}
    for entry in entries:
        for word in keywords(entry.gloss):
            key = stem(word)
            forms.setdefault(key, set()).add(word)
            if entry not in found.setdefault(key, []):
                found[key].append(entry)
    merged = {min(forms[key], key=lambda w: (len(w), w)): items for key, items in found.items()}
    return [(word, sorted(items, key=gloss_key)) for word, items in sorted(merged.items())]


def by_category(entries: list[Entry]) -> list[tuple[str, list[Entry]]]:
    return [
        (c.id, sorted((e for e in entries if e.category == c.id), key=pinyin_key))
        for c in vocabulary().categories
    ]
