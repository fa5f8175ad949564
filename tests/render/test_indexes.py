"""glossary/render/indexes.py: the orders of the printed indexes."""

from __future__ import annotations

from glossary.model import Entry
from glossary.render import indexes


def entry(term: str, pinyin: str, gloss: str = "x", traditional: str | None = None) -> Entry:
    return Entry(
        id=pinyin.replace(" ", "-"),
        term=term,
        pinyin=pinyin,
        category="object",
        gloss=gloss,
        definition="d",
        line=1,
        traditional=traditional,
    )


def test_u_umlaut_sorts_after_u_with_or_without_tone_marks() -> None:
    assert (
        indexes.toneless("lǚ") == "lv"
        and indexes.toneless("lü") == "lv"
        and indexes.toneless("lù") == "lu"
    )
    lv, lu = entry("旅酬", "lǚ chóu"), entry("鹿中", "lù zhōng")
    assert sorted([lv, lu], key=indexes.pinyin_key) == [lu, lv]
    assert [e.term for _, group in indexes.by_pinyin([lv, lu]) for e in group] == ["鹿中", "旅酬"]


def test_the_same_reading_sorts_by_strokes() -> None:
    few, many = (
        entry("機", "jī"),
        entry("几", "jī"),
    )  # 機 16 strokes, 几 2: strokes, not code points, decide
    few, many = many, few
    assert sorted([many, few], key=indexes.pinyin_key) == [few, many]
    assert indexes.strokes("几") < indexes.strokes("機")


def test_traditional_forms_are_filed_under_their_kangxi_radicals() -> None:
    east, crowd, guest = (
        entry("东", "dōng", traditional="東"),
        entry("众", "zhòng", traditional="衆"),
        entry("宾", "bīn", traditional="賓"),
    )
    groups = {
        (radical.ideograph if radical else None): [e.term for e, _ in items]
        for radical, items in indexes.by_radical([east, crowd, guest])
    }
    assert groups == {"木": ["东"], "血": ["众"], "貝": ["宾"]}
    # Headers are ordinary ideographs, never Kangxi radical code points.
    assert all(
        r is not None and not 0x2E80 <= ord(r.ideograph) <= 0x2FDF
        for r, _ in indexes.by_radical([east, crowd, guest])
    )


def test_the_english_index_groups_by_keyword() -> None:
    cups = [
        entry("爵", "jué", "libation cup (one-shēng cup)"),
        entry("觶", "zhì", "three-shēng drinking cup"),
        entry("酢", "zuò", "return the cup"),
        entry("尸", "shī", "(the 尸) rises"),
    ]
    index = dict(indexes.by_gloss(cups))
    assert [e.term for e in index["cup"]] == ["爵", "酢", "觶"]
    assert "rise" in index or "rises" in index
    assert "the" not in index and "尸" not in " ".join(index)
    # A parenthesised opening does not decide the order ("(the 尸) rises" sorts under r).
    assert indexes.gloss_key(cups[3])[0] == "rises"


def test_the_english_index_leaves_out_words_that_say_nothing_of_a_thing() -> None:
    from glossary.render.indexes import keywords

    assert keywords("the cup drunk again after the shooting (爵)") == ["cup", "drunk", "shooting"]
    assert keywords("a stand added before the guest") == ["stand", "guest"]


def test_words_of_one_first_character_stay_together_under_their_radical() -> None:
    """Issue 26: 上大夫, 上介, 三加, 上佐食 … were interleaved (一 + 2 strokes is both 上 and 三)."""
    words = [
        entry("上大夫", "shang da fu"),
        entry("上介", "shang jie"),
        entry("三加", "san jia"),
        entry("上佐食", "shang zuo shi"),
        entry("三献", "san xian", traditional="三獻"),
    ]
    [(radical, items)] = indexes.by_radical(words)
    assert radical is not None and radical.ideograph == "一"
    firsts = [indexes.traditional(e)[0] for e, _ in items]
    assert firsts == sorted(firsts, key=firsts.index) and firsts.count("上") == 3
    assert len({i for i, ch in enumerate(firsts) if i == 0 or firsts[i - 1] != ch}) == 2


def test_the_forms_of_one_word_are_one_keyword() -> None:
    """Issue 26: the English index was 23 pages of unmerged keywords (answer, answering …)."""
    glosses = [
        "answer the toast",
        "answering toast",
        "the archer's station",
        "archer",
        "attendant",
        "attending the lord",
        "attendance",
        "cups",
    ]
    index = dict(indexes.by_gloss([entry(f"字{i}", f"zi{i}", g) for i, g in enumerate(glosses)]))
    assert len(index["answer"]) == 2 and len(index["archer"]) == 2
    assert len(index["attendant"]) == 3 and "attending" not in index
    assert "cups" in index and "toast" in index and "station" in index
