"""The seed reader: pages, sections, layers, commentators, brackets (mini corpus)."""

import re
from dataclasses import replace
from typing import Any

from conftest import raw

from glossary.corpus.model import TextInfo
from glossary.corpus.seed import read_seed

XIANGSHE = "000_b6ac9449aa5994ba.txt"
SHIYU = "002_a73e8d04fc3338bc.txt"


def info(**kw: Any) -> TextInfo:
    base = TextInfo(
        id="t",
        title="礼经本义",
        work="禮經本義",
        author="",
        edition="",
        script="",
        format="seed",
        files=("t.txt",),
        section_markers=True,
        juan=4,
        rites=((4, "乡射礼"), (14, "士虞礼"), (15, "特牲馈食礼")),
    )
    return replace(base, **kw)


def test_page_header_and_sections(doc) -> None:
    d = doc(XIANGSHE)
    assert d.page_at(100) == ("7", None)
    names = [name for _, name in d.sections]
    # The page's own markers, read off its lines: 右 and a name, up to a space or a note.
    assert names == re.findall(r"^右([^\s【]+)", raw(XIANGSHE), re.MULTILINE)
    assert names[:2] == ["立司正", "请射"]


def test_marker_line_notes_belong_to_the_marker_section(doc) -> None:
    d = doc(XIANGSHE)
    at = raw(XIANGSHE).index("楅长如笴博三寸")
    assert d.section_at(at) == "取矢"
    assert d.section_at(raw(XIANGSHE).index("三耦俟于堂西")) == "请射"


def test_layers_and_commentators(doc) -> None:
    d = doc(XIANGSHE)
    classic = [s for s in d.streams if s.layer == "classic"]
    assert len(classic) == 1
    assert classic[0].text.startswith("三耦俟于堂西南面东上")
    assert "郝仲舆曰" not in classic[0].text
    first = next(s for s in d.streams if s.layer == "commentary")
    # Named as glossary/data/commentators.tsv names them, whatever the script of the text.
    assert [name for _, name in first.commentators][:3] == ["郝仲輿", "敖君善", "髙紫超"]
    assert first.commentator_at(0) == "郝仲輿"


def test_sentence_marks_are_not_text(doc) -> None:
    classic = next(s for s in doc(XIANGSHE).streams if s.layer == "classic").text
    assert "句" not in classic[classic.index("比三耦") : classic.index("北面命上射")]
    assert "比三耦于堂西三耦之南北面命上射" in classic


def test_modern_rendering_juan_rites_and_yi_paragraphs(doc) -> None:
    d = doc(SHIYU)
    assert d.juan_at(0) == 14 and d.rite_at(0) == "士虞礼"
    at = raw(SHIYU).index("右筮日")
    assert d.juan_at(at) == 15 and d.rite_at(at) == "特牲馈食礼"
    yi = next(s for s in d.streams if s.text.startswith("至于烹饪"))
    assert yi.layer == "commentary"
    assert "译" not in yi.text[:2]
    assert any(name == "右，主人酳尸" or name == "主人酳尸" for _, name in d.sections)


def test_unbalanced_brackets_warn_with_position(doc) -> None:
    warnings = [str(w) for w in doc(SHIYU).warnings]
    text = raw(SHIYU)
    # 译吉也】 closes a bracket that its paragraph never opened.
    at = text.index("译吉也】") + len("译吉也")
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    assert f"{SHIYU}:{line}:{column}: '】' closes a 译 paragraph whose '【' is missing" in warnings
    assert any(w.endswith("'【' not closed at the end of the file") for w in warnings)


def test_reader_survives_broken_brackets() -> None:
    text = "经文一【注一\n\n经文二】】【\n右某节 记文【记注】\n"
    d = read_seed(info(), "t.txt", text)
    messages = [w.message for w in d.warnings]
    assert "'【' not closed before the next paragraph" in messages
    assert "'】' without '【'" in messages
    assert [s.layer for s in d.streams].count("classic") == 1
    assert d.section_at(text.index("记文")) == "某节"


def test_placeholder_text_is_kept(doc) -> None:
    assert any("穿〇服" in s.text for s in doc(SHIYU).streams)
