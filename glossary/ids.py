"""Entry ids: the slug of a reading, and the next id no entry and no retired id has taken."""

from __future__ import annotations

import re
import unicodedata


def slug(reading: str) -> str:
    """``shèng shǐ`` → ``sheng-shi`` (ü → v)."""
    bare = unicodedata.normalize("NFD", reading.lower()).replace("u\u0308", "v")
    bare = "".join(c for c in bare if not unicodedata.combining(c)).replace("ü", "v")
    return re.sub(r"[^a-z0-9]+", "-", bare).strip("-") or "entry"


def next_id(reading: str, taken: set[str], words: tuple[str, ...] = ()) -> str:
    """The pinyin slug; when another entry has it, the slug and a word that tells them apart
    (``fu-object``: the guide's rule, ``shi-zhu`` beside ``shi``), never a bare number."""
    return free_ids(reading, taken, words, 1)[0]


def free_ids(
    reading: str, taken: set[str], words: tuple[str, ...] = (), count: int = 2
) -> list[str]:
    """The first ``count`` ids :func:`next_id` would choose from, in its order of preference."""
    base = slug(reading)
    candidates = [base, *(f"{base}-{slug(word)}" for word in words)]
    # Every word taken too: the words together (fu-object-shiyu), then numbered.
    together = "-".join([base, *(slug(w) for w in words)])
    candidates.append(together)
    found = [c for c in dict.fromkeys(candidates) if c not in taken]
    n = 2
    while len(found) < count:
        if (candidate := f"{together}-{n}") not in taken:
            found.append(candidate)
        n += 1
    return found[:count]
