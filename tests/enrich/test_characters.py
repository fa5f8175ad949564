"""glossary/enrich/characters.py: which headword characters are rare, and their breakdown."""

from __future__ import annotations

import pytest

from glossary.enrich.characters import char_form, radicals, rare
from glossary.model import CharForm


@pytest.mark.parametrize("ch", ["𤣥", "𦵏", "韠", "衆", "乗"])
def test_characters_outside_both_everyday_sets_are_rare(ch: str) -> None:
    assert rare(ch)


@pytest.mark.parametrize("ch", ["玄", "儀", "礼", "賓", "宾", "a", "、", "1"])
def test_characters_of_either_everyday_set_and_non_characters_are_not(ch: str) -> None:
    assert not rare(ch)
    assert char_form(ch) is None


def test_a_taboo_form_is_its_radical_less_a_stroke_and_a_variant_of_the_standard() -> None:
    assert char_form("𤣥") == CharForm(
        "𤣥", "玄", 95, -1, 4, standard="玄", source="the glossary's variant table"
    )


def test_a_rare_standard_character_has_its_radical_and_no_variant() -> None:
    form = char_form("韠")
    assert form is not None and (form.radical, form.number, form.residual) == ("韋", 178, 11)
    assert form.strokes == 9 + 11 and form.standard is None and form.source == ""


def test_the_variant_tables_source_is_named() -> None:
    assert char_form("衆") == CharForm("衆", "血", 143, 6, 12, standard="眾", source="yitizi")
    groom = char_form("壻")
    assert groom is not None and (groom.standard, groom.source) == ("婿", "Unihan")


def test_kangxi_counts_add_up() -> None:
    info = radicals()["乗"]
    assert (info.ideograph, info.radical_strokes, info.residual, info.kangxi_strokes) == (
        "丿",
        1,
        8,
        9,
    )


def test_kangxi_stroke_counts_agree_with_the_residual() -> None:
    jue = radicals()["爵"]
    assert (jue.number, jue.residual, jue.radical_strokes, jue.kangxi_strokes) == (87, 14, 4, 18)
    assert radicals()["一"].radical_strokes == 1 and radicals()["龠"].radical_strokes == 17
