"""The shipped glossary's readings: the 廣韻 and 經典釋文 readings of every headword character.

Every number is computed from terms.yaml and the corpus. The readings themselves need the whole
shipped corpus (the 儀禮音義 among it), so those checks are marked slow.
"""

from __future__ import annotations

import pytest
import yaml
from conftest import SHIPPED_CORPUS, SHIPPED_TERMS

from glossary.check import check_project
from glossary.enrich.readings.guangyun import guangyun
from glossary.enrich.readings.lookup import headword_chars
from glossary.enrich.readings.rules import explained


@pytest.fixture(scope="module")
def readings(shipped_index):
    report = check_project(SHIPPED_TERMS, SHIPPED_CORPUS, index=shipped_index)
    assert not [
        p
        for p in report.problems
        if ".guangyun" in p.path or ".yinyi" in p.path or "經典釋文" in p.message
    ]
    return report.readings


def test_every_entry_chooses_a_guangyun_reading_per_character(shipped_entries) -> None:
    raw = {item["id"]: item for item in yaml.safe_load(SHIPPED_TERMS.read_text(encoding="utf-8"))}
    for entry in shipped_entries:
        assert "guangyun" in raw[entry.id], entry.id
        chars = headword_chars(entry)
        assert len(entry.guangyun) == len(chars), entry.id
        for char, fanqie in zip(chars, entry.guangyun):
            assert fanqie is None or fanqie in {g.name for g in guangyun(char)}, (
                entry.id,
                char,
                fanqie,
            )


def test_every_reading_note_names_a_character_it_explains(shipped_entries) -> None:
    noted = [e for e in shipped_entries if e.reading_note]
    assert noted
    for entry in noted:
        assert any(explained(entry, i) for i in range(len(headword_chars(entry)))), entry.id


@pytest.mark.slow  # the whole shipped corpus, read and indexed
def test_most_headword_characters_have_a_classical_reading(shipped_entries, readings) -> None:
    chars = [reading for entry in shipped_entries for reading in readings[entry.id]]
    assert len(chars) == sum(len(headword_chars(e)) for e in shipped_entries)
    read = [r for r in chars if r.guangyun is not None or r.shiwen is not None]
    assert len(read) >= 0.85 * len(chars), f"{len(read)} of {len(chars)}"
    citing = [e.id for e in shipped_entries if any(r.shiwen is not None for r in readings[e.id])]
    assert len(citing) >= 50, citing


@pytest.mark.slow
def test_every_shiwen_reading_stands_in_the_yinyi_at_its_place(
    shipped_entries, readings, shipped_doc
) -> None:
    for entry in shipped_entries:
        for reading in readings[entry.id]:
            if reading.shiwen is None:
                continue
            locus = reading.shiwen.locus
            document = shipped_doc(locus.file)
            assert document.text_info.readings, (entry.id, locus.file)
            assert locus.text == reading.shiwen.text and locus.rite
            assert reading.shiwen.text in locus.context and reading.shiwen.headword


@pytest.mark.slow
@pytest.mark.parametrize(
    "entry_id, char, text, rite",
    [
        # The agreements the reviewer found, and the fifteen decisions' sources (儀禮音義 line numbers).
        ("dui", "敦", "音對", "士虞禮"),
        ("sheng-shi", "乘", "繩證反", "鄉射禮"),
        ("wen", "免", "音問", "士虞禮"),
        ("pan-half", "胖", "音判", "士虞禮"),
        # 楅 now lists 大射儀 too: the note on 楅 alone there (楅 音福) comes before the 鄉射禮 note
        # on the longer headword 楅豐 (音福), as for_char orders notes; the reading is the same.
        ("bi", "楅", "音福", "大射儀"),
        ("ming-zi", "齊", "才計反", "士虞禮"),
        ("hu-hoof", "觳", "戸角反", "特牲饋食禮"),
        ("tang-shen", "深", "申鴆反", "士冠禮"),
        ("bi-ou", "比", "毗志反", "鄉射禮"),
        ("she", "拾", "其劫反", "鄉射禮"),
        ("she-fa", "拾", "其劫反", "鄉射禮"),
        ("she-qu-shi", "拾", "其劫反", "鄉射禮"),
        ("sui-ji", "綏", "依注音墮許恚反", "士虞禮"),
        # (挼祭, ruo-ji, is now a variant headword of sui-ji: retired.yaml.)
        ("guan", "盥", "音管", "特牲饋食禮"),
        ("gu-blessing", "嘏", "古雅反", "特牲饋食禮"),
        ("tan", "袒", "徒旱反", "鄉射禮"),
    ],
)
def test_the_readings_the_review_named(
    readings, entry_id: str, char: str, text: str, rite: str
) -> None:
    reading = next(r for r in readings[entry_id] if r.char == char)
    assert (reading.shiwen.text, reading.shiwen.locus.rite) == (text, rite)
