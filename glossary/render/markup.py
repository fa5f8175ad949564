"""Markup both renderers share: Chinese runs marked ``lang="zh"``, ruby readings, tones."""
from __future__ import annotations

import re
import unicodedata

from markupsafe import Markup, escape

from glossary.enrich.pinyin import split_reading

# Han characters (BMP and supplementary planes) and the CJK punctuation that travels with them.
CJK_RUN = re.compile(r"[\u2e80-\u2fdf\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0003ffff]+")


def mark_cjk(text: str) -> Markup:
    """Escaped text whose Chinese runs are wrapped in ``<span lang="zh">``."""
    escaped = str(escape(text))
    return Markup(CJK_RUN.sub(lambda m: f'<span lang="zh">{m.group()}</span>', escaped))


TONE_MARKS = {"\u0304": 1, "\u0301": 2, "\u030c": 3, "\u0300": 4}


def tone(syllable: str) -> int:
    """1–4 from the tone mark, 5 for the neutral tone."""
    for mark in unicodedata.normalize("NFD", syllable):
        if mark in TONE_MARKS:
            return TONE_MARKS[mark]
    return 5


def ruby(term: str, reading: str) -> Markup:
    """``<ruby>楅<rt class="tone1">bī</rt></ruby>``, one character per syllable, tone-coloured."""
    syllables = split_reading(reading)
    chars = list(term)
    if len(chars) != len(syllables):
        return Markup(f'{escape(term)} <span class="pinyin">{escape(reading)}</span>')
    return Markup("".join(
        f'<ruby>{escape(ch)}<rt class="tone{tone(s)}">{escape(s)}</rt></ruby>'
        for ch, s in zip(chars, syllables)
    ))
