"""The received text as a second witness: the alignment, readings and repeated notes (mini corpus:
禮經本義 卷十六's 有司徹 beside the received 儀禮 卷十七)."""

from __future__ import annotations

import pytest
from conftest import MINI_CORPUS, raw

from glossary.corpus import Corpus, load_corpus
from glossary.corpus.mandoku import read_mandoku
from glossary.corpus.model import TextInfo
from glossary.enrich import witness
from glossary.index import CorpusIndex, Hit
from glossary.normalize import normalize


@pytest.fixture(scope="module")
def witnessed() -> CorpusIndex:
    """The mini corpus indexed, its loci annotated (no cache)."""
    return witness.attach(CorpusIndex(load_corpus(MINI_CORPUS)))


RECEIVED = "kanripo/KR1d0026/KR1d0026_017.txt"


def line_of(path: str, text: str) -> int:
    """The line of the mini corpus file ``path`` that ``text`` starts on."""
    whole = raw(path)
    return whole[: whole.index(text)].count("\n") + 1


def locus(index: CorpusIndex, passage: str, work: str = "KR1d0044"):
    found = [index.locus(hit) for hit in index.find(normalize(passage))]
    return next(l for l in found if l.work == work)


def test_a_classic_locus_carries_the_received_texts_locus_and_both_readings(witnessed) -> None:
    # 禮經本義 prints 爵止 where the received text (卷十七 p.18b) reads 爵上.
    place = locus(witnessed, "舉爵者東面答拜爵止")
    received = place.received
    assert received is not None
    assert (received.work, received.juan, received.page) == ("KR1d0026", 17, "18b")
    assert received.page_id == "KR1d0026_SBCK_017-18b"
    assert received.file == RECEIVED and received.line == line_of(RECEIVED, "位舉爵者東面荅拜爵上")
    assert received.text == "舉爵者東面荅拜爵上"
    assert [(r.at, r.printed, r.received) for r in received.readings] == [(8, "止", "上")]
    assert place.to_json()["received"]["readings"] == [{"at": 8, "print": "止", "received": "上"}]


def test_script_and_variant_forms_are_no_other_reading(witnessed) -> None:
    # 賓/賔 and 于/於 are folded: the passage reads the same in both.
    place = locus(witnessed, "賓一人舉爵于尸如初亦遂之于下")
    assert place.received is not None and place.received.text == "賔一人舉爵于尸如初亦遂之於下"
    assert place.received.readings == ()


def test_a_passage_of_the_2nd_page_is_found_in_its_own_rite(witnessed) -> None:
    place = locus(witnessed, "酌致爵于主婦主婦北堂司官設席東面")
    assert place.received is not None and place.received.page == "22b"
    assert [(r.printed, r.received) for r in place.received.readings] == [("官", "宫")]


def test_only_the_primary_texts_classic_is_annotated(witnessed) -> None:
    assert locus(witnessed, "舉爵者東面荅拜爵上", "KR1d0026").received is None
    assert locus(witnessed, "爵止者奠之于薦左也").received is None  # a note
    assert "received" not in locus(witnessed, "爵止者奠之于薦左也").to_json()


def test_a_note_of_the_authors_that_repeats_zheng_xuans_is_marked(witnessed) -> None:
    # 蔡德晉: …今主婦之席東面則宗婦南面西上歟; 鄭玄: …内子東面則宗婦南面西上: nine in a row.
    place = locus(witnessed, "今主婦之席東面則宗婦南面西上歟")
    assert place.speakers == ("蔡德晉",)
    note = place.repeats
    assert note is not None and note.common == "東面則宗婦南面西上"
    assert (note.work, note.juan, note.page) == ("KR1d0026", 17, "22b")
    assert note.line == line_of(RECEIVED, "席東面(北堂中房")
    # The words cited are what repeats: the start of the same note does not.
    assert locus(witnessed, "主婦北堂謂立于北堂也").repeats is None
    assert place.to_json()["repeats"]["common"] == "東面則宗婦南面西上"


def test_fewer_than_eight_characters_in_common_is_no_repeat(witnessed) -> None:
    # 蔡德晉: 徹徹堂上堂下之薦俎也; 鄭玄: 徹堂上下之薦俎也 (之薦俎也: four in a row).
    assert locus(witnessed, "徹徹堂上堂下之薦俎也").repeats is None


def test_another_commentators_note_is_not_the_authors_repeat(witnessed) -> None:
    place = locus(witnessed, "郝仲輿曰上賓舉爵獻于尸如三獻尸之初")
    assert place.repeats is None


def test_a_run_of_the_classic_in_both_notes_is_no_repeat(witnessed) -> None:
    grams = witness.Notes(witnessed, "KR1d0026", "KR1d0044").grams
    classic = normalize("賔長獻于尸如初無湆爵不止")
    assert classic[:8] not in grams and normalize("東面則宗婦南面") + "西" in grams


def test_a_locus_without_an_annotator_is_the_corpus_alone() -> None:
    index = CorpusIndex(load_corpus(MINI_CORPUS))
    hit = index.find(normalize("舉爵者東面答拜爵止"))[0]
    assert index.locus(hit).received is None
    assert index.locus(Hit(hit.start, hit.end), annotate=False).received is None


def _text(id_: str, rites: tuple, **extra) -> TextInfo:
    return TextInfo(
        id=id_,
        title=id_,
        work=id_,
        author="",
        edition="",
        script="",
        format="mandoku",
        files=("x",),
        rites=rites,
        **extra,
    )


def _funeral_witnesses(ours: str, theirs_12: str, theirs_13: str) -> CorpusIndex:
    """A primary text's 卷十二 (士喪禮) and its witness's 卷十二 and 卷十三 (既夕禮), one line each."""
    primary = _text("P", ((12, "士喪禮"),), primary=True)
    received = _text("R", ((12, "士喪禮"), (13, "既夕禮")), witness_of="P")
    corpus = Corpus(
        texts=(primary, received),
        documents=(
            read_mandoku(primary, "p12", f"#+PROPERTY: JUAN 12\n<pb:P_WYG_012-1a>¶\n{ours}¶\n"),
            read_mandoku(
                received, "r12", f"#+PROPERTY: JUAN 12\n<pb:R_SBCK_012-1a>¶\n{theirs_12}¶\n"
            ),
            read_mandoku(
                received, "r13", f"#+PROPERTY: JUAN 13\n<pb:R_SBCK_013-1a>¶\n{theirs_13}¶\n"
            ),
        ),
    )
    return witness.attach(CorpusIndex(corpus))


def test_a_passage_moved_from_another_rite_is_found_there() -> None:
    # 蔡德晉 gives in 士喪禮 (卷十二) a sentence of 既夕禮's 記 (received 卷十三).
    index = _funeral_witnesses(
        "士喪禮死于適室(注/也)綴足用燕几校在南",
        "士喪禮死于適室(注/也)",
        "記士處適寢綴足用燕几校在南(注/也)",
    )
    moved = locus(index, "綴足用燕几校在南", "P")
    assert moved.received is not None and (moved.received.file, moved.received.juan) == ("r13", 13)
    assert locus(index, "士喪禮死于適室", "P").received.file == "r12"


def test_most_of_a_passage_in_the_received_classic_is_the_received_texts(witnessed) -> None:
    """Y310's second look (witness_rules.received_has): a passage the alignment pairs with
    nothing is still the received text's where two thirds of it stand in its classic (a 記 moved,
    a graph that differs); never through 鄭玄's notes, and never by a short common run."""
    from glossary.enrich.witness_rules import received_has

    whole = normalize("于阼階南長在左坐奠爵拜執爵以興")
    assert received_has(witnessed, "KR1d0026", whole)
    one_graph_otherwise = whole[:10] + "於" + whole[11:]
    assert received_has(witnessed, "KR1d0026", one_graph_otherwise)
    assert not received_has(witnessed, "KR1d0026", normalize("于阼階南") + "甲乙丙丁戊己庚辛")
    # 鄭玄's note (commentary), not the classic:
    assert not received_has(witnessed, "KR1d0026", normalize("辛巳有事于大廟仲遂卒于垂"))


def test_a_stretch_across_a_lost_leaf_is_no_counterpart() -> None:
    """Where the received copy lacks a leaf, the alignment runs across the gap: 至於邦門… (既夕禮,
    on 卷13's lost 5b) came out as 輅北面致命, and its 'readings' were another passage's. A
    stretch holding most of the passage in order is one, even with a 傳 printed apart inside it."""
    assert not witness.same_passage(
        normalize("至於邦門公使宰夫贈玄纁束主人去杖不哭由左聴命賔由右致命"), normalize("輅北面致命")
    )
    ours = normalize("緦麻三月者族曾祖父母族祖父母")
    theirs = normalize("緦麻三月者傳曰緦者十五升抽其半族曾祖父母族祖父母")
    assert witness.same_passage(ours, theirs)
    assert not witness.same_passage("", "")


def test_a_line_set_inside_a_passage_is_found_where_the_received_text_has_it() -> None:
    # 蔡德晉 sets a line of 既夕禮's 記 inside a passage of 士喪禮's classic: the alignment places
    # the passage whole and reads the line against its neighbour (禭者左執領右執要入升致), where
    # the received text has the line word for word in the 記 (卷十三).
    index = _funeral_witnesses(
        "以衣尸復者降自後西榮復者朝服左執領右執要招而左楔齒用角柶綴足用燕几(注/也)",
        "以衣尸復者降自後西榮禭者左執領右執要入升致楔齒用角柶綴足用燕机(注/也)",
        "記遷尸復者朝服左執領右執要招而左楔齒用角柶綴足用燕几(注/也)",
    )
    line = locus(index, "復者朝服左執領右執要招而左", "P").received
    assert line is not None and (line.file, line.juan) == ("r13", 13) and not line.readings
    # A character read otherwise at the aligned place (机 for 几) is that place's reading, even
    # where the print's words stand word for word elsewhere in the received text.
    near = locus(index, "楔齒用角柶綴足用燕几", "P").received
    assert near is not None and near.file == "r12" and near.readings
