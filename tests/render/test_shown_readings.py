"""The readings in the outputs: terms.json, the Anki term note and the printed entry (mini project)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, make_project, mini_entries, raw, set_field

from glossary.build import gather
from glossary.check import check_project
from glossary.cli import cli
from glossary.corpus.model import Locus
from glossary.enrich.readings.guangyun import guangyun
from glossary.enrich.readings.lookup import headword_chars
from glossary.model import CharForm, CharReading, GuangyunReading, ShiwenReading
from glossary.render.anki import models
from glossary.render.anki.notes import template_env as anki_env
from glossary.render.anki.render import note_specs
from glossary.render.markup import reading_lines
from glossary.render.printed import render_entry

YINYI = "kanripo/KR1g0003/KR1g0003_010.txt"


def build(project: Path, out: Path, terms: str | None = None):
    if terms is not None:
        (project / "terms.yaml").write_text(terms, encoding="utf-8")
    return CliRunner(env={"SOURCE_DATE_EPOCH": "1700000000"}).invoke(
        cli,
        [
            "build",
            "--terms",
            str(project / "terms.yaml"),
            "--corpus",
            str(project / "corpus"),
            "--out",
            str(out),
        ],
    )


def line_of(path: str, text: str) -> int:
    """The 1-based line of the mini corpus file ``path`` holding ``text``."""
    return next(i for i, line in enumerate(raw(path).splitlines(), 1) if text in line)


@pytest.fixture(scope="module")
def glossary(tmp_path_factory, index):
    project = make_project(tmp_path_factory.mktemp("readings") / "project")
    report = check_project(project / "terms.yaml", project / "corpus", index=index)
    return gather(report, project)


def test_terms_json_gives_each_headword_characters_readings(
    mini_project: Path, tmp_path: Path
) -> None:
    assert build(mini_project, tmp_path / "dist").exit_code == 0
    data = {
        t["id"]: t
        for t in json.loads((tmp_path / "dist" / "terms.json").read_text(encoding="utf-8"))["terms"]
    }
    for entry_id, entry in mini_entries().items():
        readings = data[entry_id]["readings"]
        chars = headword_chars(entry)
        assert [r["char"] for r in readings] == list(chars)
        assert [r["pinyin"] for r in readings] == entry.pinyin.split()
        assert entry.guangyun is not None, entry_id
        for reading, char, fanqie in zip(readings, chars, entry.guangyun, strict=True):
            assert set(reading) == {"char", "pinyin", "guangyun", "shiwen", "form"}
            assert reading["form"] is None  # the mini glossary's characters are everyday ones
            if fanqie is None:
                assert reading["guangyun"] is None
            else:
                position = next(g.position for g in guangyun(char) if g.fanqie == fanqie)
                assert reading["guangyun"] == {"fanqie": fanqie, "position": position}
            assert reading["shiwen"] is None or set(reading["shiwen"]) == {"text", "locus"}
    # 楅: 音福, at its place in the 儀禮音義's 鄉射禮, with the usual locus fields.
    [bi] = data["bi"]["readings"]
    assert bi["shiwen"]["text"] == "音福"
    locus = bi["shiwen"]["locus"]
    # (received and repeats only where they apply: a passage of 禮經本義's classic, a note of his;
    # the sense units around a passage are the cards' windows, not a place.)
    inner = {"start", "end", "received", "repeats", "units", "units_at"}
    assert set(Locus.__dataclass_fields__) - inner <= set(locus)
    assert (locus["work"], locus["title"], locus["file"], locus["rite"], locus["layer"]) == (
        "KR1g0003",
        "經典釋文",
        YINYI,
        "鄉射禮",
        "commentary",
    )
    assert locus["line"] == line_of(YINYI, "楅豐(音")
    # The entries' own fields reach terms.json too.
    assert data["tan"]["reading_note"] == mini_entries()["tan"].reading_note
    assert data["zhu"]["yinyi"] == [None] and data["zhu"]["readings"][0]["shiwen"] is None


def test_the_term_note_has_a_readings_field(glossary) -> None:
    # Appended after the first release's fields (fields are only ever appended, ids never reused).
    assert models.TERM_FIELDS[17] == ("Readings", 7400120018)
    assert len({field_id for _, field_id in models.TERM_FIELDS}) == len(models.TERM_FIELDS)
    for template in ("recognition_back.html", "recall_back.html"):
        assert "{{Readings}}" in models.template_text(template)
    specs = {spec.key: spec for spec in note_specs(glossary)}
    names = [name for name, _ in models.TERM_FIELDS]
    readings = html.unescape(
        re.sub(r"<[^>]+>", "", specs["note:bi"].fields[names.index("Readings")])
    )
    assert readings == "楅 fú — 釋文: 音福 (儀禮音義, 鄉射禮, p.10a); 廣韻: 方六切 幫三C東入"
    tan = html.unescape(re.sub(r"<[^>]+>", "", specs["note:tan"].fields[names.index("Readings")]))
    assert "釋文: 徒旱反" in tan and "廣韻: 徒旱切" in tan


def test_others_readings_are_theirs_and_everything_is_escaped() -> None:
    locus = Locus(
        work="KR1g0003",
        title="經典釋文",
        file=YINYI,
        juan=10,
        page="31b",
        page_id=None,
        rite="士虞禮",
        section=None,
        layer="commentary",
        commentator="陸德明",
        line=1,
        start=0,
        end=2,
        text="音對",
        context="音對",
    )
    reading = CharReading(
        "敦",
        "duì",
        GuangyunReading("都<b>", "端合一灰平"),
        ShiwenReading(
            "音對<i>", locus, "二敦", others=(("劉又都愛反", "劉昌宗"),), source="儀禮音義"
        ),
    )
    out = anki_env().get_template("readings.html").render(lines=reading_lines([reading]))
    assert "<b>" not in out and "<i>" not in out and "&lt;b&gt;" in out
    shown = html.unescape(re.sub(r"<[^>]+>", "", out))
    assert (
        shown
        == "敦 duì — 釋文: 音對<i>; 劉又都愛反 (劉昌宗) (儀禮音義, 士虞禮, p.31b); 廣韻: 都<b>切 端合一灰平"
    )
    assert (
        reading_lines([CharReading("之", "zhī")]) == []
    )  # a character no source reads is not listed


def test_a_rare_character_is_broken_down_beside_its_readings_or_alone() -> None:
    form = CharForm("𤣥", "玄", 95, -1, 4, standard="玄", source="the glossary's variant table")
    read = CharReading("𤣥", "xuán", GuangyunReading("胡涓", "匣合四先平"), form=form)
    unread = CharReading("韠", "bì", form=CharForm("韠", "韋", 178, 11, 20))
    lines = reading_lines([read, unread])
    out = anki_env().get_template("readings.html").render(lines=lines).replace("</div>", " ")
    shown = html.unescape(re.sub(r"<[^>]+>", "", out)).strip()
    assert shown == (
        "𤣥 xuán — 廣韻: 胡涓切 匣合四先平; 4 strokes: radical 玄 (95) less one stroke; "
        "a variant of 玄 (the glossary's variant table) "
        "韠 bì — 20 strokes: radical 韋 (178) + 11"
    )
    assert lines[1]["guangyun"] is None and lines[1]["shiwen"] is None


def test_the_printed_entry_shows_readings_and_note(glossary) -> None:
    text = str(render_entry(glossary, "tan"))
    shown = html.unescape(re.sub(r"<[^>]+>", "", text))
    assert "袒 tǎn — 釋文: 徒旱反 (儀禮音義, 鄉射禮, p.10a); 廣韻: 徒旱切 定開一寒上" in shown
    note = mini_entries()["tan"].reading_note
    assert note is not None and " ".join(note.split()) in " ".join(shown.split())
    assert text.index('class="readings"') < text.index('class="gloss"')  # under the headword


def test_a_reading_note_is_escaped_in_print(tmp_path: Path) -> None:
    source = set_field(
        (ROOT / "tests" / "fixtures" / "terms-mini.yaml").read_text(encoding="utf-8"),
        "tan",
        "reading_note",
        "袒 <script>alert(1)</script>",
    )
    result = build(make_project(tmp_path / "p"), tmp_path / "dist", terms=source)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "dist" / "glossary.html").read_text(encoding="utf-8")
    assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
