"""The Kanripo (mandoku) reader: page ids, double-line notes, headings, sections (mini corpus)."""

import re

from conftest import raw

from glossary.corpus.mandoku import read_mandoku
from glossary.corpus.model import TextInfo

JUAN4 = "kanripo/KR1d0044/KR1d0044_004.txt"

SAMPLE = """#+TITLE: 禮經本義
#+PROPERTY: JUAN 卷四
<pb:KR1d0044_WYG_004-1a>¶
欽定四庫全書¶
　禮經本義卷四¶
　　鄉射禮¶
主人戒賔賔出迎¶
　(不謀賔者射以觀徳/非主於禮賔故也)¶
<pb:KR1d0044_WYG_004-1b>¶
　(乃請亦謂/致戒辭)¶
無介¶
　　　右戒賔　大夫與則公士為賔(公士公朝之士/鄉射之賔)¶
　　　(鄉之處士)¶
乃席賔南面¶
"""


def info() -> TextInfo:
    return TextInfo(
        id="KR1d0044",
        title="禮經本義",
        work="禮經本義",
        author="",
        edition="",
        script="",
        format="mandoku",
        files=("x",),
        section_markers=True,
        rites=((4, "鄉射禮"),),
    )


def test_sample_structure() -> None:
    d = read_mandoku(info(), "x", SAMPLE)
    classic = [s for s in d.streams if s.layer == "classic"]
    assert [s.text for s in classic] == ["主人戒賔賔出迎無介大夫與則公士為賔乃席賔南面"]
    notes = [s.text for s in d.streams if s.layer == "commentary"]
    # Right column, then left; a note runs on across lines and page breaks.
    assert notes[0] == "不謀賔者射以觀徳非主於禮賔故也乃請亦謂致戒辭"
    assert notes[1] == "公士公朝之士鄉射之賔鄉之處士"
    assert d.juan_at(SAMPLE.index("主人")) == 4
    assert d.rite_at(SAMPLE.index("主人")) == "鄉射禮"
    assert d.page_at(SAMPLE.index("主人")) == ("1a", "KR1d0044_WYG_004-1a")
    assert d.page_at(SAMPLE.index("無介")) == ("1b", "KR1d0044_WYG_004-1b")
    assert d.section_at(SAMPLE.index("主人")) == "戒賔"
    assert d.section_at(SAMPLE.index("大夫與")) == "戒賔"
    assert d.section_at(SAMPLE.index("乃席")) is None
    assert not d.warnings


def test_unbalanced_parentheses_warn() -> None:
    d = read_mandoku(info(), "x", "<pb:KR1d0044_WYG_004-1a>¶\n經文(注文¶\n經文)二¶\n")
    assert [w.message for w in d.warnings] == ["'(' not closed on its line", "')' without '('"]


def markers(text: str) -> list[str]:
    """The section names of a mandoku file, read off its lines: ``　　　右取矢　…``."""
    return re.findall(r"^\u3000{3}右([^\u3000(¶]+)", text, re.MULTILINE)


def test_juan_sections_pages_and_rite_of_an_excerpt(doc) -> None:
    d = doc(JUAN4)
    names = [name for _, name in d.sections]
    assert names == markers(raw(JUAN4)) and "取矢" in names
    at = raw(JUAN4).index("楅長如笴博三寸")
    assert d.section_at(at) == "取矢"
    assert d.page_at(at) == ("22a", "KR1d0044_WYG_004-22a")
    assert d.rite_at(at) == "鄉射禮" and d.juan_at(at) == 4


def test_headings_are_not_text(doc) -> None:
    d = doc(JUAN4)
    classic = next(s for s in d.streams if s.layer == "classic").text
    assert not classic.startswith("欽定") and "無錫蔡徳晉撰" not in classic
    assert classic.startswith("主人戒賔")


def test_reference_work_discussion_is_text(doc) -> None:
    d = doc("kanripo/KR1d0031/KR1d0031_000.txt")
    text = next(s for s in d.streams if s.layer == "text").text
    assert "周之禮文盛矣今僅見於儀禮" in text


JUAN16 = "kanripo/KR1d0044/KR1d0044_016.txt"
RECEIVED17 = "kanripo/KR1d0026/KR1d0026_017.txt"


def test_a_section_marker_that_wraps_onto_a_second_line_is_a_marker(doc) -> None:
    # KR1d0044_016.txt:885-886: 右兄弟之後生者舉觶于其長賓及次賓舉爵 / 于尸遂無算爵.
    d = doc(JUAN16)
    classic = "".join(s.text for s in d.streams if s.layer == "classic")
    assert "于尸遂無算爵" not in classic
    assert "兄弟之後生者舉觶于其長賓及次賓舉爵于尸遂無算爵" in [name for _, name in d.sections]
    # The marker is kept where it is printed (its first line).
    assert (
        raw(JUAN16).index("右兄弟之後生者"),
        "右兄弟之後生者舉觶于其長賓及次賓舉爵",
    ) in d.markers
    # The classic after it is read on, in the marker's rite.
    at = raw(JUAN16).index("尸出侑從")
    assert "尸出侑從主人送于廟門之外" in classic and d.rite_at(at) == "有司徹"


def test_a_marker_line_with_its_appended_notes_does_not_swallow_the_next_line() -> None:
    text = "<pb:KR1d0044_WYG_001-1a>¶\n主人冠¶\n　　　右筮日　記曰¶\n　　　筮于庿門¶\n賓出¶\n"
    d = read_mandoku(info(), "x", text)
    classic = next(s for s in d.streams if s.layer == "classic").text
    assert classic == "主人冠記曰筮于庿門賓出" and [name for _, name in d.sections] == ["筮日"]


def test_listed_heading_lines_and_the_count_of_characters_are_not_text(doc) -> None:
    # 儀禮卷第十七 / 有司第十七　儀禮　鄭氏注 open the received text's 卷; a count (經…字/注…字)
    # follows its closing title.
    d = doc(RECEIVED17)
    classic = next(s for s in d.streams if s.layer == "classic").text
    assert classic.startswith("有司徹埽堂") and "鄭氏注" not in classic
    text = "#+PROPERTY: JUAN 3\n<pb:KR1d0026_SBCK_003-1a>¶\n儀禮卷第三¶\n士相見禮第三　儀禮　鄭氏注¶\n士相見之禮(摯/也)¶\n儀禮卷第三¶\n(經七百五十三字/注一千六百八十九字)¶\n"
    listed = TextInfo(**{**info().__dict__, "heading_lines": ("儀禮卷第", "士相見禮第三")})
    d = read_mandoku(listed, "x", text)
    assert [s.text for s in d.streams] == ["士相見之禮", "摯也"]


def test_the_received_texts_notes_are_zheng_xuans(doc) -> None:
    d = doc(RECEIVED17)
    notes = [s for s in d.streams if s.layer == "commentary"]
    assert notes and all(s.commentator_at(0) == "鄭康成" for s in notes)


def test_a_page_marked_twice_or_skipped_is_a_corpus_warning() -> None:
    """The received text (KR1d0026) lost leaves: 卷13 9b is marked twice with nothing between, 卷9
    4b is skipped; `glossary corpus` names each, with its line."""
    from glossary.corpus.summary import page_gaps

    text = SAMPLE.replace(
        "<pb:KR1d0044_WYG_004-1b>¶\n",
        "<pb:KR1d0044_WYG_004-1b>¶\n<pb:KR1d0044_WYG_004-1b>¶\n",
    ).replace("乃席賔南面¶\n", "乃席賔南面¶\n<pb:KR1d0044_WYG_004-3a>¶\n主人¶\n")
    gaps = page_gaps(read_mandoku(info(), "kanripo/x.txt", text))
    assert gaps == [
        "kanripo/x.txt:10: page KR1d0044_WYG_004-1b is marked twice with nothing between: its "
        "text is missing",
        "kanripo/x.txt:16: page(s) 2a, 2b missing between KR1d0044_WYG_004-1b and "
        "KR1d0044_WYG_004-3a",
    ]
    assert page_gaps(read_mandoku(info(), "kanripo/x.txt", SAMPLE)) == []


def test_a_page_marked_with_no_text_before_a_skip_is_lost_with_it() -> None:
    """卷1 9a marked, then 10a: the whole leaf 9 is lost (the helpers met 9a empty too)."""
    from glossary.corpus.summary import page_gaps

    text = SAMPLE + "<pb:KR1d0044_WYG_004-2a>¶\n<pb:KR1d0044_WYG_004-3a>¶\n主人¶\n"
    assert page_gaps(read_mandoku(info(), "kanripo/x.txt", text)) == [
        "kanripo/x.txt:16: page(s) 2a (marked, with no text), 2b missing between "
        "KR1d0044_WYG_004-2a and KR1d0044_WYG_004-3a"
    ]
