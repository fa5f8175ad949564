"""Y313: a modal of the Chinese (不敢, 必, 蓋, 可也) that the English beside it does not carry.

The readings found this fault again and again (the rubric's R6): 不敢執刑器 "does not hold the
rod", 必 dropped, 蓋 "probably" given as fact, 可也 "may" given as the rule. The check reads each
Chinese run a gloss or definition gives in parentheses, and the English of its sentence (between
full stops: a modal is often rendered a clause or a parenthesis before); where the Chinese holds
a modal and that English has none of the words that render it, it warns. About half of what it
found in the shipped glossary was a true fault (a sweep: 9 of 16 entries corrected); the rest a
modal rendered in another sentence, or 蓋 as the lid, which the pattern now leaves alone. A finding
that stands is waived for its entry with the reason (`ignore: [{code: Y313, why: …}]`).
"""

from __future__ import annotations

import re

#: (what the modal says, the Chinese that holds it, English words that render it).
MODALS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "dare",
        re.compile("[不莫未弗無毋]敢"),
        re.compile(r"\bdar(?:e|es|ed|ing)\b|\bventur|\bpresum", re.I),
    ),
    (
        "must",
        re.compile("必"),
        re.compile(
            r"\bmust\b|necessar|\balways\b|certain|\bsure|invariab|\bha(?:s|ve|d) to\b|bound to"
            r"|without fail|\bneeds?\b|\binsist|requir|\bonly\b|\bnever\b|\bbent on\b",
            re.I,
        ),
    ),
    (
        "perhaps",
        # 蓋 opening a clause ("probably"), not the lid (大蓋, 蓋二以重).
        re.compile("^蓋|[也者矣]蓋"),
        re.compile(
            r"probab|perhaps|presumab|likely|seem|apparent|no doubt|\bmust\b|\bwould\b|suppos"
            r"|\bmay\b|possib|doubt|\bthink|takes? it|\blids?\b|\bcover",
            re.I,
        ),
    ),
    (
        "may",
        re.compile("可也|亦可"),
        re.compile(
            r"\bmay\b|\bcan\b|permi|allow|will do|acceptab|possib|\bfine\b|no harm|enough|\bcould\b",
            re.I,
        ),
    ),
)
#: Where a sentence of the English ends.
_STOPS = (". ",)


def unrendered(text: str, run: re.Match[str]) -> list[tuple[str, str]]:
    """(the Chinese, what its modal says) for each modal of the parenthesis ``run`` of ``text``
    that the English of its sentence does not render."""
    english = _sentence(text, run.start(), run.end())
    chinese = run.group(1)
    return [
        (chinese, says)
        for says, holds, renders in MODALS
        if holds.search(chinese) and not renders.search(english)
    ]


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around a parenthesis at ``text[start:end]``, the parenthesis left out."""
    before = max((text.rfind(stop, 0, start) for stop in _STOPS), default=-1)
    after = [i for i in (text.find(stop, end) for stop in _STOPS) if i != -1]
    return text[before + 1 : start] + " " + text[end : min(after, default=len(text))]
