"""The excerpt of a long modern rendering shown beside the passage it renders (a condensed paragraph
renders dozens of passages): the run of its sentences that shares most with the passage."""

from __future__ import annotations

import re
from functools import lru_cache

from glossary.normalize import normalize


@lru_cache(maxsize=4096)
def excerpt(text: str, passage: str, limit: int) -> str:
    """The run of ``text``'s sentences, at most ``limit`` characters, that shares most characters and
    character pairs (normalised) with ``passage``, marked … where it is cut."""

    def features(value: str) -> set[str]:
        key = normalize(value)
        return set(key) | {key[i : i + 2] for i in range(len(key) - 1)}

    wanted = features(passage)
    sentences = [s for s in re.split(r"(?<=[。！？；】])", text) if s]
    shared = [features(s) & wanted for s in sentences]
    best, best_span = -1, (0, 1)
    for first in range(len(sentences)):
        last, size, found = first, 0, set()
        while last < len(sentences) and (last == first or size + len(sentences[last]) <= limit):
            size += len(sentences[last])
            found |= shared[last]
            last += 1
        if len(found) > best:
            best, best_span = len(found), (first, last)
    first, last = best_span
    whole = "".join(sentences[first:last])
    cut = whole[:limit]
    return (
        ("…" if first else "")
        + cut
        + ("…" if last < len(sentences) or len(cut) < len(whole) else "")
    )
