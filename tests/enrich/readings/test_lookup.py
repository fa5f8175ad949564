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


def test_notes_in_other_headwords_and_graphs_are_found(corpus) -> None:
    from glossary.enrich.readings.lookup import graphs
    from glossary.enrich.readings.yinyi import key

    yinyi = Yinyi.of(corpus)

    def first(term: str, rites: list[str], i: int, **fields: Any) -> str | None:
        found = yinyi.unread(entry(term, rites, **fields), i)
        return found[0].headword if found else None

    # Inside a longer headword: 搢三 (音進) reads the 搢 of 搢扑; 中掩 the 中 of 中庭.
    assert yinyi.for_char(entry("搢扑", ["乡射礼"]), 0) is None
    assert first("搢扑", ["乡射礼"], 0) == "搢三"
    assert first("中庭", ["乡射礼"], 0) == "中掩"
    # Glossed apart: 韎 of 韎韐 (音妹, 士冠禮); only the entry's rites are read.
    assert first("韎韐", ["士冠礼"], 0) == "韎"
    assert first("韎韐", ["乡射礼"], 0) is None
    # Under another graph of the edition-variant table: 爲僎 (音遵) reads 遵.
    assert first("遵者", ["乡射礼"], 0) == "爲僎"
    assert {"朼"} <= graphs(key("匕")) and {"鈃"} <= graphs(key("鉶")) and key("僎") in graphs("遵")
    # A character with a note of its own headword is found by for_char, and unread lists it first.
    assert first("決", ["乡射礼"], 0) == "決"


def test_a_notes_exception_keeps_its_reading_off_the_phrase(corpus) -> None:
    yinyi = Yinyi.of(corpus)
    # 弓矢拾 其劫反 … 除決拾以外皆同: every 拾 but that of 決拾.
    assert headword(yinyi.for_char(entry("拾", ["乡射礼"]), 0)) == "弓矢拾"
    assert [g.headword for g in yinyi.unread(entry("拾发", ["乡射礼"]), 0)] == ["弓矢拾"]
    jue_she = entry("决拾", ["乡射礼"], traditional="決拾")
    assert yinyi.unread(jue_she, 1) == []
    named = entry("决拾", ["乡射礼"], traditional="決拾", yinyi=("決", "弓矢拾"))
    assert headword(yinyi.for_char(named, 0)) == "決" and yinyi.for_char(named, 1) is None
    # The phrase is excepted only where the headword holds it: 脫決拾 too, 拾決 not.
    assert yinyi.unread(entry("脱决拾", ["乡射礼"], traditional="脫決拾"), 2) == []
    assert yinyi.unread(entry("拾决", ["乡射礼"], traditional="拾決"), 0) != []


def test_propose_yinyi_for_a_new_entry(corpus) -> None:
    from glossary.enrich.readings.lookup import propose_yinyi

    yinyi = Yinyi.of(corpus)
    chosen, notes = propose_yinyi(yinyi, entry("韎韐", ["士冠礼"]))
    assert chosen == ["韎", None] and len(notes) == 1 and notes[0].startswith("韎: 韎 (音妹")
    assert propose_yinyi(yinyi, entry("搢扑", ["乡射礼"]))[0] == ["搢三", None]
    assert propose_yinyi(yinyi, entry("楅", ["乡射礼"]))[0] == ["楅豐"]  # its own word's note
    assert propose_yinyi(yinyi, entry("韎韐", ["有司彻"])) == ([], [])


def test_a_named_headword_may_write_another_graph(corpus) -> None:
    yinyi = Yinyi.of(corpus)
    assert yinyi.for_char(entry("遵", ["乡射礼"]), 0) is None  # found, not taken, unnamed
    assert headword(yinyi.for_char(entry("遵", ["乡射礼"], yinyi=("爲僎",)), 0)) == "爲僎"


def test_a_corpus_is_parsed_once_and_another_corpus_afresh(corpus) -> None:
    from glossary.corpus import Corpus

    assert Yinyi.of(corpus) is Yinyi.of(corpus)
    other = Corpus(corpus.texts, corpus.documents)  # equal text, another object: parsed again
    assert Yinyi.of(other) is not Yinyi.of(corpus)
    assert [g.headword for g in Yinyi.of(other).glosses] == [
        g.headword for g in Yinyi.of(corpus).glosses
    ]
    assert Yinyi.of(Corpus(corpus.texts, ())).glosses == ()
