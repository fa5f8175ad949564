import pytest

from glossary.normalize import PROTECTED, VARIANTS, fold_char, normalize, normalize_with_map


@pytest.mark.parametrize(
    "a, b",
    [
        ("楅長如笴博三寸", "楅长如笴博三寸"),
        ("司射適堂西袒決遂", "司射适堂西袒决遂"),
        ("賔", "宾"),
        ("賓", "宾"),
        ("乗矢", "乘矢"),
        ("逺", "远"),
        ("髙", "高"),
        ("亷", "廉"),
        ("𤣥酒", "玄酒"),
        ("徧", "遍"),
        ("衆", "众"),
        ("筭", "算"),
        ("荅拜", "答拜"),
        ("禮經本義", "礼经本义"),
    ],
)
def test_scripts_and_variants_fold_together(a: str, b: str) -> None:
    assert normalize(a) == normalize(b)


@pytest.mark.parametrize("ch", ["楅", "柶", "肵", "搢", "酳", "甒", "臑"])
def test_ritual_characters_are_never_folded(ch: str) -> None:
    assert ch in PROTECTED
    assert fold_char(ch) == ch
    assert all(target != ch for target in VARIANTS.values())


@pytest.mark.parametrize(
    "a, b", [("楅", "福"), ("柶", "四"), ("酳", "酌"), ("于", "亏"), ("朿", "束")]
)
def test_distinct_characters_stay_distinct(a: str, b: str) -> None:
    assert normalize(a) != normalize(b)


def test_punctuation_and_spacing_are_ignored() -> None:
    assert normalize("楅，长如笴。「博三寸」 厚\u3000寸¶") == normalize("楅长如笴博三寸厚寸")


def test_offset_map_points_back_to_the_printed_text() -> None:
    text = "司射，適堂西。"
    key, index = normalize_with_map(text)
    assert key == "司射适堂西"
    assert [text[i] for i in index] == list("司射適堂西")


def test_placeholder_is_kept() -> None:
    assert normalize("穿〇服") == "穿〇服"


def test_the_fold_tables_are_bounded_and_give_the_same_keys_after_starting_again(
    monkeypatch,
) -> None:
    import glossary.normalize as module

    text = "賔歩馀鄉射禮之楅"
    before = module.normalize_for_index(text)
    assert module.tabled(text) == {"賔", "歩", "馀"}  # a variant table, not OpenCC, folds them
    expected = (before[0], before[2], before[3], module.tabled(text))
    monkeypatch.setattr(module, "MAX_LEARNED", 8)
    module.normalize_with_map("".join(chr(0x4E00 + i) for i in range(50)))
    after = module.normalize_for_index(text)
    assert (after[0], after[2], after[3], module.tabled(text)) == expected
    assert len(module._SEEN) == len(set(text))  # the 50 characters before were forgotten
