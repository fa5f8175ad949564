"""The glyph table's evidence stands in the shipped corpus, and every entity the glossary quotes
is in the table (so no card of the shipped glossary shows 〓)."""

from __future__ import annotations

import re

from conftest import SHIPPED_CORPUS, SHIPPED_TERMS

from glossary.render import glyphs

_MARKUP = re.compile(r"[\s¶()/　]")


def _line(at: str) -> str:
    name, number = at.split(":")
    path = next(SHIPPED_CORPUS.glob(f"kanripo/*/{name}"))
    return _MARKUP.sub("", path.read_text(encoding="utf-8").splitlines()[int(number) - 1])


def test_each_row_names_a_place_of_the_entity_and_one_of_its_character_in_the_same_words() -> None:
    assert glyphs.glyphs()
    for code, glyph in glyphs.glyphs().items():
        assert glyph.words.count("～") == 1, code
        assert glyph.words.replace("～", f"&{code};") in _line(glyph.entity_at), code
        assert glyph.words.replace("～", glyph.char) in _line(glyph.char_at), code


def test_every_entity_the_glossary_quotes_is_in_the_table() -> None:
    quoted = set(re.findall(r"&(KR\d{4});", SHIPPED_TERMS.read_text(encoding="utf-8")))
    assert quoted and quoted <= glyphs.glyphs().keys()
