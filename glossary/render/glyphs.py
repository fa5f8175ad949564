"""Kanripo glyph entities (``&KR1152;``) as a reader can see them: the character they stand for,
framed, or 〓 where no witness says which character it is (``glossary/data/glyphs.tsv``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from markupsafe import Markup, escape

#: An entity as the corpus writes it, and as it stands once the text is HTML-escaped.
ENTITY = re.compile(r"&KR(\d{4});")
ESCAPED = re.compile(r"&amp;KR(\d{4});")
#: What stands for a glyph no row of the table names (the geta mark of Chinese and Japanese print).
MISSING = "〓"


@dataclass(frozen=True)
class Glyph:
    """One row of the table: the entity, the character it stands for, and the evidence."""

    entity: str  # KR1152
    char: str
    entity_at: str  # file:line of a witness printing the entity
    char_at: str  # file:line of the other witness printing the character in the same words
    words: str  # the words, ～ for the glyph


@lru_cache(maxsize=1)
def glyphs() -> dict[str, Glyph]:
    """Entity code (``KR1152``) → its row."""
    table = resources.files("glossary.data").joinpath("glyphs.tsv").read_text(encoding="utf-8")
    rows = (line.split("\t") for line in table.splitlines() if line and not line.startswith("#"))
    return {row[0]: Glyph(*row) for row in rows}


def title(code: str) -> str:
    """What the frame's tooltip says of entity ``KR<code>`` (written without ``&…;``, so that
    marking the HTML again finds no entity inside the attribute)."""
    glyph = glyphs().get(f"KR{code}")
    if glyph is None:
        return f"a glyph outside Unicode (Kanripo entity KR{code}); no witness here names it"
    return (
        f"a glyph outside Unicode (Kanripo entity KR{code}), a form of {glyph.char}: "
        f"{glyph.words.replace('～', glyph.char)} ({glyph.char_at})"
    )


def mark_escaped(html: str) -> str:
    """Escaped HTML with each (escaped) entity as a framed character with its tooltip."""
    return ESCAPED.sub(_span, html)


def mark(text: str) -> Markup:
    """``text`` escaped, each entity a framed character."""
    return Markup(mark_escaped(str(escape(text))))


def _char(code: str) -> str:
    glyph = glyphs().get(f"KR{code}")
    return glyph.char if glyph else MISSING


def _span(match: re.Match[str]) -> str:
    code = match.group(1)
    return (
        f'<span class="glyph" lang="zh" title="{escape(title(code))}">{escape(_char(code))}</span>'
    )
