"""The note of the mini corpus' 儀禮音義 that reads an entry's headword character."""

from typing import Any

from conftest import rite_named

from glossary.enrich.readings.lookup import Yinyi
from glossary.enrich.readings.yinyi import Gloss
from glossary.model import Entry


def entry(
    term: str, rites: list[str], pinyin: str = "x", traditional: str | None = None, **fields: Any
) -> Entry:
    return Entry(
        id="x",
        term=term,
        pinyin=pinyin,
        category="object",
        gloss="g",
        definition="d",
        line=1,
        traditional=traditional,
        rites=tuple(rite_named(r) for r in rites),
        **fields,
    )


def headword(gloss: Gloss | None) -> str | None:
    """The headword of the note found, None for none."""
    return gloss.headword if gloss is not None else None


def test_an_entry_is_read_by_a_note_on_its_own_word(corpus) -> None:
    yinyi = Yinyi.of(corpus)
    assert headword(yinyi.for_char(entry("楅", ["乡射礼"]), 0)) == "楅豐"
    assert headword(yinyi.for_char(entry("敦", ["士虞礼"]), 0)) == "二敦"
    assert yinyi.for_char(entry("敦", ["乡射礼"]), 0) is None  # only the entry's rites are read
    # A note of an earlier chapter that says later chapters read so too (堂深 …後放此, 士冠禮).
    shen = yinyi.for_char(entry("堂深", ["乡射礼"]), 1)
    assert shen is not None and (shen.headword, shen.rite) == ("堂深", "士冠禮")
    # A character of a longer headword is not read from a note on another word: 中掩 丁仲反 ("hit").
    assert any(g.headword == "中掩" for g in yinyi.glosses)
    assert yinyi.for_char(entry("中庭", ["乡射礼"]), 0) is None
    # …unless the entry names the 音義's headword: 不綏 of 不綏祭.
    assert yinyi.for_char(entry("绥祭", ["士虞礼"], traditional="綏祭"), 0) is None
    named = entry("绥祭", ["士虞礼"], traditional="綏祭", yinyi=("不綏", None))
    assert headword(yinyi.for_char(named, 0)) == "不綏" and yinyi.for_char(named, 1) is None
    # null: no note reads it, though one would be found (祝曰 州又反 reads the verb, not the 祝).
    assert headword(yinyi.for_char(entry("祝", ["特牲馈食礼"]), 0)) == "祝曰"
    assert yinyi.for_char(entry("祝", ["特牲馈食礼"], yinyi=(None,)), 0) is None
