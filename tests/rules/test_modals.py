"""Y313: a modal of the parenthesised Chinese that the English of its sentence does not carry."""

from __future__ import annotations

from glossary.rules.modals import unrendered
from glossary.rules.parentheses import PARENTHESES


def found(text: str) -> list[tuple[str, str]]:
    return [hit for run in PARENTHESES.finditer(text) for hit in unrendered(text, run)]


def test_a_dropped_modal_is_found_and_a_rendered_one_is_not() -> None:
    assert found("He does not hold the rod (不敢執刑器).") == [("不敢執刑器", "dare")]
    assert not found("He does not dare hold an instrument of punishment (不敢執刑器).")
    assert found("They are taken off below (必說於下者).") == [("必說於下者", "must")]
    assert not found("They must be taken off below (必說於下者).")
    assert found("Hides and horses alternate (皮馬相間可也).") == [("皮馬相間可也", "may")]
    assert not found("Hides and horses may alternate (皮馬相間可也).")


def test_the_sentence_is_the_english_around_the_parenthesis() -> None:
    # Rendered earlier in the same sentence, across another parenthesis: no finding.
    assert not found("Not daring to reuse it (更爵), the host changes cups (更爵者不敢襲至尊).")
    # Rendered only in another sentence: a finding (the reviewer decides).
    assert found("He does not dare. The reason is 鄭玄's (不敢襲至尊).") == [("不敢襲至尊", "dare")]


def test_gai_opening_a_clause_is_probably_and_gai_the_lid_is_no_modal() -> None:
    assert found("It is for warmth (也蓋爲尚温).") == [("也蓋爲尚温", "perhaps")]
    assert not found("It is probably for warmth (也蓋爲尚温).")
    assert not found("The great lid of the tripod (大蓋).")
    assert not found("He sets the lids in twos (蓋二以重設于敦南).")
