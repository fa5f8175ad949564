"""Known commentators, for naming who speaks in a commentary passage."""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from glossary.normalize import normalize, normalize_with_map


@lru_cache(maxsize=1)
def commentator_names() -> tuple[str, ...]:
    """The known commentators' names, normalised, longest first."""
    text = resources.files("glossary.data").joinpath("commentators.tsv").read_text(encoding="utf-8")
    names = [line.split("\t")[0] for line in text.splitlines() if line and not line.startswith("#")]
    return tuple(sorted({normalize(name) for name in names}, key=len, reverse=True))


@lru_cache(maxsize=1)
def commentator_pattern() -> re.Pattern[str]:
    """A pattern over *normalised* text: a known name followed by 曰 or 说."""
    return re.compile("(" + "|".join(map(re.escape, commentator_names())) + ")(?=曰|说)")


def find_commentators(text: str) -> tuple[tuple[int, str | None], ...]:
    """Where each speaker's words start in a commentary passage: (index, name or None).

    A name comes from ``某某曰``; a gap of spaces starts words of no named speaker
    (the editions set 蔡德晉's own remarks apart that way), so words are never
    credited to a commentator who has stopped speaking.
    """
    norm, index = normalize_with_map(text)
    found: dict[int, str | None] = {m.start(): None for m in re.finditer(r"[\s\u3000]+", text) if m.start()}
    for match in commentator_pattern().finditer(norm):
        start, end = index[match.start()], index[match.end() - 1] + 1
        found[start] = text[start:end]
    return tuple(sorted(found.items()))
