"""The modern rendering on a card: the sentence(s) that render the quoted passage, nothing else.

A paragraph of the modern rendering (seed text 002) renders a whole passage of 禮經本義, often
several; a card quotes a few characters of it. The card shows the sentence that shares most
with the quote (and a neighbour that renders another part of it), without the transcription's
marks (a paragraph's leading 译, the 【】 around a rendered note), and nothing where every
candidate holds the placeholder 〇 (a character the transcription could not give) or shares too
little with the quote to be its rendering. Whose rendering it is is said once, in the root deck's description.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from glossary.model_alignment import Rendering
from glossary.normalize import PLACEHOLDER, normalize

#: Sentence ends of the modern text (a rendered note closes with 】).
_SENTENCE_END = re.compile(r"(?<=[。！？；】])(?![”’」』])")
#: The transcription's mark at a paragraph's start, and the brackets around a rendered note.
_LEADING = re.compile(r"^\s*译")
_BRACKETS = re.compile(r"[【】]")
#: Fewer shared characters and character pairs than this, and a sentence is not the quote's.
MIN_SHARED = 3


def _features(value: str) -> set[str]:
    key = normalize(value)
    return set(key) | {key[i : i + 2] for i in range(len(key) - 1)}


def rendering_line(rendering: Rendering, quote: str) -> str | None:
    """The sentence(s) of ``rendering`` that render ``quote``, cleaned; None if none does."""
    sentences = [
        cleaned
        for part in _SENTENCE_END.split(_LEADING.sub("", rendering.text))
        if (cleaned := _BRACKETS.sub("", part).strip(" ，,"))
    ]
    wanted = _features(quote)
    shared = [
        (_features(sentence) & wanted) if PLACEHOLDER not in sentence else None
        for sentence in sentences
    ]
    scored = [(len(found), -i) for i, found in enumerate(shared) if found is not None]
    if not scored or max(scored)[0] < MIN_SHARED:
        return None
    best = -max(scored)[1]  # the sentence that shares most with the quote (the first of equals)
    found = shared[best] or set()
    # A neighbour joins it only if it renders a part of the quote the best one does not.
    for other in (best + 1, best - 1):
        extra = shared[other] if 0 <= other < len(sentences) else None
        if extra is not None and len(extra - found) >= MIN_SHARED:
            first, last = min(best, other), max(best, other)
            return _balanced("".join(sentences[first : last + 1]))
    return _balanced(sentences[best])


def citation_lines(items: Iterable[tuple[str, Iterable[Rendering]]]) -> list[list[str]]:
    """For each cited passage (its text, the renderings of its place), the lines shown under it:
    the sentences that render it, each once per note or printed entry (two passages rendered by
    one paragraph show the sentence under the first only). The cards and the book use this."""
    shown: set[str] = set()
    result = []
    for quote, renderings in items:
        lines = []
        for rendering in renderings:
            line = rendering_line(rendering, quote)
            if line is not None and line not in shown:
                shown.add(line)
                lines.append(line)
        result.append(lines)
    return result


def _balanced(run: str) -> str:
    """A run with its quotation marks paired: a quoted speech may begin before it or go on after."""
    run = run.lstrip("”’")
    opened, closed = run.count("“"), run.count("”")
    return "“" * max(0, closed - opened) + run + "”" * max(0, opened - closed)
