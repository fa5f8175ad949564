"""How a normalised quote reads a window of the index text: through the placeholders (``〇``)
a quote or a text may hold, or with some characters as their alternatives (edition variants)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from glossary.normalize import PLACEHOLDER

#: Between the streams in the index text: a character normalisation never produces.
SEPARATOR = "\n"
#: A quote with alternative characters (edition variants) is looked for as each of its readings
#: when it has at most this many; otherwise by its longest run without alternatives, each
#: occurrence of which is checked (at most ``index.MAX_BIGRAM_HITS`` of them).
MAX_READINGS = 64


def readings(key: str, alternatives: dict[str, str]) -> tuple[list[str], int]:
    """What to look for to find ``key`` with ``alternatives``: ``(readings, -1)``, every reading
    but ``key`` itself when there are at most :data:`MAX_READINGS`; else ``([run], offset)``, the
    longest run of ``key`` without alternatives and where it starts in ``key``."""
    count = 1
    for ch in key:
        count *= 1 + len(alternatives.get(ch, ""))
        if count > MAX_READINGS:
            break
    if count <= MAX_READINGS:
        import itertools

        words = [
            "".join(chars)
            for chars in itertools.product(*(ch + alternatives.get(ch, "") for ch in key))
        ]
        return [w for w in words if w != key], -1
    best, offset, start = "", 0, 0
    for i, ch in enumerate(key + SEPARATOR):
        if ch in alternatives or ch == SEPARATOR:
            if i - start > len(best):
                best, offset = key[start:i], start
            start = i + 1
    return [best], offset


def reads(key: str, window: str, alternatives: dict[str, str]) -> bool:
    """Whether ``window`` reads ``key``, some characters as one of their alternatives."""
    return (
        len(window) == len(key)
        and SEPARATOR not in window
        and all(a == b or b in alternatives.get(a, "") for a, b in zip(key, window))
    )


def windows(key: str, placeholder: int, before: str, after: str) -> list[int]:
    """Starts of the windows through ``placeholder`` that can read ``key``.

    Where the placeholder stands for the quote's i-th character, the corpus' characters
    either side of it must be the quote's (i-1)-th and (i+1)-th (or placeholders too):
    a quote of n characters is tried at the offsets these allow, seldom more than one.
    """
    offsets = _offsets(key, after, -1, len(key) - 1) & _offsets(key, before, 1, 0)
    return sorted(placeholder - i for i in offsets if 0 <= i < len(key) and placeholder - i >= 0)


def _offsets(key: str, neighbour: str, shift: int, edge: int) -> set[int]:
    """Offsets of ``key`` a placeholder may stand at, given the corpus character beside it.

    ``edge`` is the offset with no neighbour to agree with (the quote's first or last);
    otherwise the neighbour must be the quote's character ``shift`` away, or a placeholder.
    """
    if neighbour == PLACEHOLDER:
        return set(range(len(key)))
    offsets = {edge}
    at = key.find(neighbour) if neighbour else -1
    while at != -1:
        offsets.add(at + shift)
        at = key.find(neighbour, at + 1)
    return offsets


def fits(key: str, window: str) -> bool:
    """Whether ``window`` reads ``key`` where its placeholders may stand for any character."""
    return SEPARATOR not in window and all(a == b or b == PLACEHOLDER for a, b in zip(key, window))


def wildcards(key: str, window: str) -> tuple[int, ...]:
    """1-based positions where a placeholder stood in for a character."""
    return tuple(i + 1 for i, (a, b) in enumerate(zip(key, window)) if a != b or a == PLACEHOLDER)


def placeholder_pattern(key: str) -> re.Pattern[str]:
    """A quote with placeholders as a pattern: 〇 any character, any other itself or the corpus' 〇."""
    return re.compile(
        "".join("." if ch == PLACEHOLDER else f"[{re.escape(ch)}{PLACEHOLDER}]" for ch in key)
    )


def overlapping(pattern: re.Pattern[str], text: str, lo: int, hi: int) -> Iterator[re.Match[str]]:
    """Every match of ``pattern`` in ``text[lo:hi]``, overlapping ones too."""
    pos = lo
    while True:
        match = pattern.search(text, pos, hi)
        if not match:
            return
        yield match
        pos = match.start() + 1
