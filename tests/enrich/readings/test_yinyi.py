"""The 儀禮音義 of the mini corpus parsed: headwords, notes, their readings, the character read."""

import re

import pytest
from conftest import raw

from glossary.enrich.readings.yinyi import (
    EXCEPT,
    Sound,
    glossed,
    parse_note,
    parse_yinyi,
    positions_of,
)

YINYI = "kanripo/KR1g0003/KR1g0003_010.txt"


@pytest.fixture(scope="module")
def glosses(corpus):
    return parse_yinyi(next(d for d in corpus.documents if d.path == YINYI))


def gloss(glosses, headword: str, rite: str | None = None):
    return next(g for g in glosses if g.headword == headword and (rite is None or g.rite == rite))


def test_rite_headings_open_the_rites(corpus) -> None:
    document = next(d for d in corpus.documents if d.path == YINYI)
    headings = dict(document.text_info.rite_headings)
    expected = []
    offset = 0
    for line in raw(YINYI).splitlines(keepends=True):
        plain = re.sub(r"\(.*?\)|[\u3000 ¶\n]", "", line)
        rite = next((r for h, r in headings.items() if plain.startswith(h)), None)
        if rite:
            expected.append((offset, rite))
        offset += len(line)
    assert [r for _, r in expected] == ["士冠禮", "鄉射禮", "士虞禮", "特牲饋食禮"]
    assert list(document.rites) == expected


def test_headwords_and_notes_with_their_rite(glosses) -> None:
    dun = gloss(glosses, "二敦")
    # The note runs over a line end and a page mark: (音對劉/又都愛)¶<pb>¶(反後/放此).
    assert (dun.note, dun.rite, dun.headword[dun.target]) == (
        "音對劉又都愛反後放此",
        "士虞禮",
        "敦",
    )
    assert dun.main_text == "音對" and dun.main.kind == "zhiyin" and dun.main.value == "對"
    assert [(s.text, s.who, s.alternative) for s in dun.others] == [("劉又都愛反", "劉昌宗", True)]
    # A headword runs over a line end too (朝¶服).
    chao = gloss(glosses, "朝服")
    assert (
        chao.note.startswith("直遥反")
        and chao.headword[chao.target] == "朝"
        and chao.rite == "士冠禮"
    )
    bi = gloss(glosses, "楅豐")
    assert (bi.main_text, bi.rite, bi.headword[bi.target]) == ("音福", "鄉射禮", "楅")
    # The front matter (title, 儀禮音義, 陸德明's line) is no headword.
    assert not any("陸德明" in g.headword or "經典釋文" in g.headword for g in glosses)


def test_liu_changzongs_readings_are_his(glosses) -> None:
    she = gloss(glosses, "弓矢拾")
    assert she.main_text == "其劫反" and she.main.who is None and she.headword[she.target] == "拾"
    assert [(s.text, s.who) for s in she.others] == [("劉其輒反", "劉昌宗")]
    miao = gloss(glosses, "庿門")  # 陸德明 gives 劉昌宗's reading as the only one
    assert (miao.main_text, miao.main.who) == ("劉昌宗音廟", "劉昌宗")


@pytest.mark.parametrize(
    "note, readings",
    [
        ("申鴆反凡度淺深曰深後放此", [("fanqie", "申鴆", None, False)]),
        (
            "音妹又武拜反劉又武八反",
            [
                ("zhiyin", "妹", None, False),
                ("fanqie", "武拜", None, True),
                ("fanqie", "武八", "劉昌宗", True),
            ],
        ),
        ("如字劉色例反下同", [("ruzi", "", None, False), ("fanqie", "色例", "劉昌宗", False)]),
        (
            "依注音墮許恚反劉相恚反",
            [
                ("zhiyin", "墮", None, False),
                ("fanqie", "許恚", None, False),
                ("fanqie", "相恚", "劉昌宗", False),
            ],
        ),
        (
            "七絹反范散騎音倉亂反",
            [("fanqie", "七絹", None, False), ("fanqie", "倉亂", "范散騎", False)],
        ),
        ("戸交反後皆同一音如字", [("fanqie", "戸交", None, False), ("ruzi", "", None, True)]),
        # Words, not readings: 鄭玄's gloss in a heading's note, and 音同 ("the same reading").
        ("鄭云虞猶安也士旣葬其父母迎精而反日中而祭之於殯宫以安之禮", []),
        ("本又作薌音同黍曰薌合", []),
    ],
)
def test_readings_of_a_note(note: str, readings: list[tuple]) -> None:
    assert [(s.kind, s.value, s.who, s.alternative) for s in parse_note(note)] == readings


def test_which_character_a_note_reads() -> None:
    assert glossed("二敦", parse_note("音對")) == 1  # 對 has the reading of one of 敦's
    assert glossed("堂深", parse_note("申鴆反")) == 1  # 申鴆 is 深's 式禁 (書母 侵韻 去聲)
    assert (
        glossed("齊衰", parse_note("音咨")) == 0
    )  # no 廣韻 reading of 齊 is 咨's: its modern zī is
    assert (
        glossed("肵俎", parse_note("音祈")) == 0
    )  # the 廣韻 lacks 肵: the rare character is the one
    assert (
        glossed("弓", parse_note("蒲比反")) is None
    )  # no reading of 弓 comes near: a slip of the text
    assert glossed("不綏", parse_note("依注音墮許恚反")) == 1  # read as another word, 依注


def test_fanqie_spelled_out() -> None:
    def cut(upper: str, lower: str) -> tuple[str, ...]:
        return positions_of(Sound("fanqie", upper + lower, upper + lower + "反", 0))

    assert cut("申", "鴆") == ("書開三侵去",)
    assert cut("戸", "角") == ("匣二江入",)  # 角 in its usual reading (古岳), not 盧谷 (角里)
    assert cut("丁", "丈") == ("知開三陽上",)  # 類隔: a 舌頭 上字 spells a 舌上 word (長)
    assert cut("毗", "志") == ("並三之去",)  # across rhymes tshet-uinh keeps apart: unchecked


@pytest.mark.parametrize(
    ("note", "phrases"),
    [
        ("其劫反劉其輒反更也除決拾以外皆同", ("決拾",)),
        ("賢遍反注下除相見皆同", ("相見",)),
        ("力報反下除勞倦一字皆同", ("勞倦",)),
        ("直遙反除之朝一字皆同", ("之朝",)),
        ("丁狄反本又作嫡後除適人之類可以意求之", ("適人",)),
        ("音進又音箭劉又祖雞反插也後同", ()),
    ],
)
def test_a_notes_exceptions(note: str, phrases: tuple[str, ...]) -> None:
    assert tuple(m.group("phrase") for m in EXCEPT.finditer(note)) == phrases


def test_the_exception_of_the_mini_corpus_note(glosses) -> None:
    shi = next(g for g in glosses if g.headword == "弓矢拾")
    assert shi.excepted == ("決拾",) and shi.target == 2
    assert next(g for g in glosses if g.headword == "搢三").excepted == ()


def test_a_headword_with_an_unencoded_character_is_not_read_by_guess() -> None:
    # 閽人 printed &KR1377;人 (燕禮 音昬): 昬 is no reading of 人, and the entity is the one read.
    assert glossed("&KR1377;人", parse_note("音昬")) is None
    assert glossed("二敦", parse_note("音對")) == 1  # an exact reading still tells


def test_a_reading_said_to_be_the_first_characters() -> None:
    # 媵觚 上以證反又繩證反: 以證反 is 媵's (上, the first character), 繩證反 the second reading.
    sounds = parse_note("上以證反又繩證反送也")
    assert [(s.kind, s.value, s.alternative) for s in sounds] == [
        ("fanqie", "以證", False),
        ("fanqie", "繩證", True),
    ]
    assert glossed("媵觚", sounds) == 0
    assert parse_note("下之又反") == ()  # 祝祝's second 祝: not taken as the headword's reading
