"""Markup both renderers share: Chinese runs marked ``lang="zh"``, ruby readings, tones."""

from __future__ import annotations

import re
import unicodedata

from markupsafe import Markup, escape

from glossary.corpus.model import Locus
from glossary.enrich.pinyin import split_reading
from glossary.model import CharForm, CharReading
from glossary.render import glyphs

# Han characters (BMP and supplementary planes) and the CJK punctuation that travels with them.
CJK_RUN = re.compile(
    r"[\u2e80-\u2fdf\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef\U00020000-\U0003ffff]+"
)


def mark_cjk(text: str) -> Markup:
    """Escaped text whose Chinese runs are wrapped in ``<span lang="zh">``."""
    escaped = CJK_RUN.sub(lambda m: f'<span lang="zh">{m.group()}</span>', str(escape(text)))
    # Glyph entities last: their frame's tooltip holds Chinese that must not be wrapped.
    return Markup(glyphs.mark_escaped(escaped))


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
    return Markup(
        "".join(
            f'<ruby>{escape(ch)}<rt class="tone{tone(s)}">{escape(s)}</rt></ruby>'
            for ch, s in zip(chars, syllables)
        )
    )


def bracket_reading(term: str, reading: str) -> Markup:
    """The reading in Anki's bracket form, each syllable in its tone class (as the Chinese Support
    add-ons write it): ``<span class="tone1">西[xī]</span><span class="tone1">階[jiē]</span>``.

    Anki's ``{{furigana:Field}}`` filter makes ruby of it (``{{kanji:}}`` / ``{{kana:}}`` give the
    characters or the syllables alone); the spans colour both. A term whose characters and
    syllables do not pair is written ``term[reading]`` whole.
    """
    syllables = split_reading(reading)
    chars = list(term)
    if len(chars) != len(syllables):
        return Markup(f"{escape(term)}[{escape(reading)}]")
    return Markup(
        "".join(
            f'<span class="tone{tone(s)}">{escape(ch)}[{escape(s)}]</span>'
            for ch, s in zip(chars, syllables)
        )
    )


def reading_lines(readings: tuple[CharReading, ...] | list[CharReading]) -> list[dict[str, object]]:
    """The readings of an entry's headword characters, as both renderers print them (plain values,
    escaped by the templates): ``敦 duì — 釋文: 音對 (儀禮音義, 士虞禮); 廣韻: 都回切 端合一灰平``.

    Only characters the sources read are listed; others' readings that 陸德明 gives after his
    own are shown as printed, with whose they are (``劉又都愛反`` 劉昌宗).
    """
    lines = []
    for reading in readings:
        if reading.guangyun is None and reading.shiwen is None and reading.form is None:
            continue
        shiwen = None
        if reading.shiwen is not None:
            s = reading.shiwen
            shiwen = {
                "text": s.text,
                "who": s.who,
                "source": s.source or s.locus.title,
                "rite": s.locus.rite,
                "page": s.locus.page,
                "others": [{"text": text, "who": who} for text, who in s.others],
            }
        guangyun = None
        if reading.guangyun is not None:
            g = reading.guangyun
            guangyun = {"fanqie": f"{g.fanqie}切" if g.fanqie else "", "position": g.position}
        lines.append(
            {
                "char": reading.char,
                "pinyin": reading.pinyin,
                "tone": tone(reading.pinyin) if reading.pinyin else 5,
                "shiwen": shiwen,
                "guangyun": guangyun,
                "form": _form(reading.form) if reading.form is not None else None,
            }
        )
    return lines


def _form(form: CharForm) -> dict[str, object]:
    """A rare character's breakdown as the templates print it: ``9 strokes: radical 丿 (4) + 8;
    a variant of 乘 (yitizi)``."""
    less = -form.residual
    beyond = (
        f"+ {form.residual}"
        if less <= 0
        else f"less {'one stroke' if less == 1 else f'{less} strokes'}"
    )
    return {
        "strokes": form.strokes,
        "radical": form.radical,
        "number": form.number,
        "beyond": beyond,
        "standard": form.standard,
        "source": form.source,
    }


def book_place(locus: Locus, *, full: bool = True) -> Markup:
    """Where a cited passage stands, as the book prints it: ``禮經本義 卷4, p. 22a, 〈取矢〉,
    classic (鄭玄) · KR1d0044_004-22a`` (``full=False``: work, 卷, page and layer only, as the
    plan's list of sources has it). The cards name a place with ``Locus.label``."""
    parts = [f'<span lang="zh">{escape(locus.title)}</span>']
    if locus.juan is not None:
        parts.append(f' <span lang="zh">卷</span>{escape(locus.juan)}')
    if locus.page:
        parts.append(f", p. {escape(locus.page)}")
    if full and locus.section:
        parts.append(f', 〈<span lang="zh">{escape(locus.section)}</span>〉')
    parts.append(f", {escape(locus.layer)}")
    if full and locus.commentator:
        parts.append(f' (<span lang="zh">{escape(locus.commentator)}</span>)')
    if full and locus.page_id:
        parts.append(f" · {escape(locus.page_id)}")
    return Markup("".join(parts))
