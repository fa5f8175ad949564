"""The regular Mandarin of a 音韻地位: tone, initial and final, spelt as pinyin."""

import pytest

from glossary.enrich.mandarin import fits, modern, position, readings, split_tone, tone_known


@pytest.mark.parametrize(
    "position_, expected",
    [
        ("書開三侵去", ("shèn",)),  # 深 式禁切: the measure of depth
        ("書開三侵平", ("shēn",)),  # 深 式針切
        ("見合一寒去", ("guàn",)),  # 盥 古玩切 (also gàn, juàn are not pinyin's spelling of it)
        ("定開一寒上", ("dàn",)),  # 袒 徒旱切: a fully voiced 上聲 goes to the fourth tone
        ("船開三蒸去", ("shèng",)),  # 乘 實證切
    ],
)
def test_a_reading_gives_its_regular_syllables(position_: str, expected: tuple[str, ...]) -> None:
    assert set(expected) <= set(readings(position_))
    for syllable in expected:
        assert fits(syllable, position_)


def test_tone_follows_the_initials_voicing() -> None:
    assert fits("jì", "從開四齊去") and not fits("zī", "從開四齊去")  # 明齊 才計反 is not zī
    assert fits("jiǎ", "見開二麻上") and not fits("gǔ", "見開二麻上")  # 嘏 古雅反
    assert fits("fú", "幫三C東入") and not fits("bī", "幫三C東入")  # 楅 方六切: 輕脣 f
    # A voiceless initial's 入聲 gives any tone; a fully voiced one the second (or fourth).
    assert {fits(s, "溪一東入") for s in ("kū", "kú", "kǔ", "kù")} == {True}
    assert not tone_known("溪一東入") and tone_known("書開三侵去")
    assert fits("huò", "匣合一唐入") and fits("huó", "匣合一唐入") and not fits("huō", "匣合一唐入")


def test_pinyin_spelling() -> None:
    assert "jué" in readings("見合四先入")  # ü after j is written u
    assert "yì" in readings("影開三B蒸入") and "wù" in readings(
        "明三C虞去"
    )  # y and w without an initial
    assert not any(
        s.startswith(("ju", "qu", "xu")) for s in readings("清開一侯上") if "ü" not in s
    )  # 侯 is never ü
    assert split_tone("lǚ") == ("lü", 3) and split_tone("zhe") == ("zhe", 5)


def test_descriptions_are_read_without_tshet_uinh_checking_them() -> None:
    # 毗志反 spells a 脂韻 word with a 之韻 下字: tshet-uinh refuses 並母 in 之韻, the derivation does not.
    assert fits("bì", "並三之去")
    assert position("端合一灰平").韻 == "灰"
    with pytest.raises(ValueError):
        position("not a position")


def test_modern_readings_come_from_pypinyin() -> None:
    assert "duì" in modern("敦") and "jiè" in modern("拾")
