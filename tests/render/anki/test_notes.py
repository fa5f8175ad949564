"""Note contents (glossary/render/anki/notes.py): masking, passage windows and grouping, the
sequence fronts, cloze numbers kept by the ledger, TTS text and readings in bracket form."""

from __future__ import annotations

from dataclasses import replace

from conftest import mini_entries, rite_named

from glossary.corpus.model import Locus
from glossary.enrich.pinyin import tts_problems, tts_text
from glossary.model import Citation, Cited, Step
from glossary.render.anki.ledger import Ledger, parse_ledger
from glossary.render.anki.notes import masked, sequence_notes, spans, text
from glossary.render.anki.passages import MIN_CONTEXT, choose_passages, cloze_note
from glossary.render.markup import bracket_reading


def locus(quote: str, context: str, start: int = 0) -> Locus:
    return Locus(
        work="KR1d0044",
        title="禮經本義",
        file="f.txt",
        juan=4,
        page="1a",
        page_id=None,
        rite="鄉射禮",
        section="取矢",
        layer="classic",
        commentator=None,
        line=1,
        start=start,
        end=start + len(quote),
        text=quote,
        context=context,
    )


def cited(found: Locus) -> tuple[Cited, ...]:
    """A citation resolved to the one place ``found``."""
    return (Cited(Citation(found.text, 1), (found,), None, found),)


def test_masking_finds_the_headword_in_any_script_and_variant() -> None:
    assert masked("wear the 免 mourning headdress", ("免",)) == "wear the ～ mourning headdress"
    assert (
        masked("the 西階 and 西阶", ("西阶",)) == "the ～ and ～"
    )  # traditional and simplified alike
    assert masked("guest's <b>", ("楅",)) == "guest's &lt;b&gt;"  # escaped, apostrophe kept
    assert spans("乃設楅于中庭", ("楅",)) == [(2, 3)]


def test_a_short_quote_gets_context_and_a_shared_passage_is_one_note() -> None:
    entries = mini_entries()
    bi, si_ma = entries["bi"], entries["si-ma"]
    context = "一二三四五六七八九十甲乙丙丁戊己乃設楅于司馬庚辛壬癸子丑寅卯辰巳午未申酉"
    shared = locus("設楅于司馬", context, 100)
    passages = choose_passages(
        [bi, replace(si_ma, term="司马")], {"bi": cited(shared), "si-ma": cited(shared)}
    )
    assert len(passages) == 1 and [e.id for e in passages[0].members] == ["bi", "si-ma"]
    assert passages[0].outside() >= MIN_CONTEXT and "乃設楅于司馬" in passages[0].window()
    ledger = Ledger()
    note = cloze_note(passages[0], ledger.cloze_order)
    assert note is not None
    assert note.key == "cloze:bi" and "{{c1::" in note.fields[0] and "{{c2::" in note.fields[0]
    # The ledger keeps the numbers: a new member comes after, never before.
    assert parse_ledger(ledger.to_bytes()).cloze_order("cloze:bi", ["zz", "bi", "si-ma"]) == [
        "bi",
        "si-ma",
        "zz",
    ]


def test_identical_windows_with_different_answers_are_widened() -> None:
    entries = mini_entries()
    a, b = (
        replace(entries["bi"], id="a", term="肩"),
        replace(entries["si-ma"], id="b", term="骼", pinyin="gé"),
    )
    first = locus("舉肩祭如初", "主人洗爵獻尸又三飯舉肩祭如初佐食", 10)
    second = locus("舉骼祭如初", "尸卒食祝酌授尸又三飯舉骼祭如初佐食舉幹", 50)
    passages = choose_passages([a, b], {"a": cited(first), "b": cited(second)})
    fronts = [p.fronts() for p in passages]
    assert fronts[0]["a"] != fronts[1]["b"]


def test_a_repeated_section_is_told_apart_by_what_precedes_it() -> None:
    rite = rite_named("乡射礼")
    names = ["請射", "飲不勝者", "取矢", "飲不勝者", "退"]
    steps = [
        Step(rite, i + 1, name, "f", None, names[:i].count(name) + 1)
        for i, name in enumerate(names)
    ]
    fields = [
        dict(zip(["Key", "Rite", "Number", "Section", "Next", "Previous", "Locus"], n.fields))
        for n in sequence_notes(steps)
    ]
    assert [f["Previous"] for f in fields] == [
        "",
        "〈請射〉",
        "〈飲不勝者〉",
        "〈取矢〉",
        "〈飲不勝者〉",
    ]
    assert fields[-1]["Next"] == "" and fields[0]["Key"] == f"{rite.order:02d} 乡射礼 001 請射"


def test_the_grades_of_mourning_ask_for_the_next_lighter_grade() -> None:
    from glossary.render.anki.models import SEQUENCE_FIELDS

    names = [name for name, _ in SEQUENCE_FIELDS]
    for rite, expected in (("丧服", "grades"), ("乡射礼", "")):
        steps = [
            Step(rite_named(rite), i + 1, name, "f", None)
            for i, name in enumerate(["斬衰三年", "齊衰三年"])
        ]
        assert {dict(zip(names, n.fields))["Grades"] for n in sequence_notes(steps)} == {expected}


def test_tts_reads_the_ritual_reading_or_nothing() -> None:
    entry = mini_entries()["bi"]
    assert tts_text(replace(entry, term="司马", pinyin="sī mǎ")) == "司马"
    # a voice would say dūn: a common character read duì is spoken instead
    assert tts_text(replace(entry, term="敦", pinyin="duì")) not in ("", "敦")
    assert tts_text(replace(entry, term="瑱", pinyin="tiàn")) == ""  # none reads so
    assert tts_text(replace(entry, term="敦", pinyin="duì", tts="对")) == "对"
    assert tts_problems(replace(entry, term="敦", pinyin="duì", tts="敦"))


def test_readings_in_bracket_form_with_tone_classes() -> None:
    assert (
        bracket_reading("西阶", "xī jiē")
        == '<span class="tone1">西[xī]</span><span class="tone1">阶[jiē]</span>'
    )
    assert bracket_reading("大羹", "tài") == "大羹[tài]"
    assert text("guest's [x]") == "guest's &#91;x&#93;"


def test_a_window_is_whole_sense_units_and_no_blank_opens_it() -> None:
    entries = mini_entries()
    bi = entries["bi"]
    units = ("司馬命弟子設楅", "楅長如笴博三寸", "乃設楅于中庭南當洗")
    # The quote opens its unit: the unit before it is shown, whole, and the one after is not.
    opening = replace(locus("楅長如笴", "", 100), units=units, units_at=len(units[0]))
    [passage] = choose_passages([bi], {"bi": cited(opening)})
    assert passage.window() == "司馬命弟子設楅楅長如笴博三寸"
    # The headword twice in a row (設楅楅長) is one blank, never two side by side.
    assert passage.fronts()["bi"] == "司馬命弟子設[...]長如笴博三寸"
    # Inside its unit, with words on both sides: the unit alone.
    inside = replace(locus("設楅于中庭", "", 200), units=units, units_at=15)
    [passage] = choose_passages([bi], {"bi": cited(inside)})
    assert passage.window() == "乃設楅于中庭南當洗"


def test_a_blank_that_opens_all_the_units_gets_the_classics_stream_around_it() -> None:
    """Issue 25, point 6: 楅 opening the only units there are would leave its blank bare on one
    side; the passage stays the entry's (its note and reviews with it), shown in the classic's
    stream across the note before it."""
    bi = mini_entries()["bi"]
    before = "一二三四五六七八九十甲乙丙丁司馬"
    bare = replace(
        locus("楅長如笴", before + "楅長如笴博三寸", 100), units=("楅長如笴博三寸",), units_at=0
    )
    [passage] = choose_passages([bi], {"bi": cited(bare)})
    assert passage.locus is bare
    window = passage.window()
    assert window.index("楅長如笴") > 0 and not window.endswith("楅長如笴"), window


def test_two_quotes_in_one_sense_unit_are_one_note() -> None:
    entries = mini_entries()
    bi, si_ma = entries["bi"], replace(entries["si-ma"], term="司馬")
    units = ("弟子取矢", "乃設楅于司馬之南當洗", "司馬命弟子")
    first = replace(locus("設楅于", "", 100), units=units, units_at=5)
    second = replace(locus("司馬之南", "", 103), units=units, units_at=8)
    [passage] = choose_passages([bi, si_ma], {"bi": cited(first), "si-ma": cited(second)})
    assert [e.id for e in passage.members] == ["bi", "si-ma"]


def test_a_long_definition_keeps_its_first_sentences_open_and_the_rest_behind_more() -> None:
    from glossary.render.anki.notes import SHOWN_DEFINITION, definition_html

    short = "The rack. It holds the arrows."
    assert definition_html(short) == short
    sentence = "In one rite the guest <b> stands west of the steps. "
    long = sentence * (SHOWN_DEFINITION // len(sentence) + 4)
    shown, rest = definition_html(long.strip()).split('<details class="more">')
    import html

    assert len(html.unescape(shown)) <= SHOWN_DEFINITION + len(sentence)
    assert shown.endswith("steps.")
    assert "&lt;b&gt;" in rest and rest.endswith("</details>")  # escaped, closed


def test_senses_by_rite_stand_under_the_definition() -> None:
    """Issue 23: where the word differs by rite, the back says so per rite, escaped."""
    from glossary.model import Sense
    from glossary.render.anki.notes import senses_html

    entry = mini_entries()["bi"]
    assert senses_html(()) == ""
    html = senses_html(
        (
            Sense(entry.rites, "the archery's <marshal>", "He directs the shooting."),
            Sense((rite_named("少牢馈食礼"),), "the officer at the sheep"),
        )
    )
    assert html.count("<li>") == 2 and "&lt;marshal&gt;" in html and "<marshal>" not in html
    assert "少牢馈食礼</span>: the officer at the sheep</li>" in html
    assert "He directs the shooting." in html
