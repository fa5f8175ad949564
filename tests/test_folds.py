"""Why a quote matched: folds from the variant tables and edition variants, each with its source."""

from __future__ import annotations

import pytest
from conftest import MINI_CORPUS, ROOT

import glossary.citations
import glossary.matching
from glossary.check import check_project
from glossary.citations import CitationChecker, locate
from glossary.folds import (
    EDITION,
    Fold,
    differences,
    edition_alternatives,
    edition_pairs,
    explain,
    folds,
)
from glossary.model import Citation
from glossary.normalize import PROTECTED, normalize, normalize_for_index

CASES = ROOT / "tests" / "cases"


@pytest.mark.parametrize("a, b", [("設", "设"), ("衆", "众"), ("楅", "楅"), ("盤", "盘")])
def test_script_alone_is_not_a_fold(a: str, b: str) -> None:
    assert explain(a, b) is None and explain(b, a) is None


@pytest.mark.parametrize(
    "quote, corpus, source",
    [  # corpus: the old form
        ("步", "歩", "yitizi"),
        ("户", "戸", "yitizi"),
        ("懷", "懐", "yitizi"),
        ("賓", "賔", "yitizi"),
        ("余", "馀", "unihan"),
        ("爨", "㸑", "curated"),
        ("葬", "𦵏", "curated"),
        ("面", "靣", "curated"),
    ],
)
def test_a_fold_names_its_table_both_ways_round(quote: str, corpus: str, source: str) -> None:
    for q, c in ((quote, corpus), (corpus, quote)):
        fold = explain(q, c)
        assert fold is not None and (fold.quote, fold.corpus, fold.source) == (q, c, source)
        # The note names the table's step: the old form, folded to its standard character.
        assert fold.note.startswith(f"{corpus}→")


@pytest.mark.parametrize(
    "quote, corpus, pair",
    [
        ("壹", "一", "壹/一"),
        ("醋", "酢", "醋/酢"),
        ("說", "脱", "說/脫"),
        ("徧", "辯", "辯/徧"),
        ("遍", "辯", "辯/徧"),
        ("辟", "避", "辟/避"),
        ("亨", "烹", "亨/烹"),
        ("枋", "柄", "枋/柄"),
        ("朼", "匕", "朼/匕"),
        ("槃", "盤", "槃/盤"),
        ("太", "大", "大/太"),
        ("𧃊", "餕", "𧃊/餕"),
        # The graphic variants where 禮經本義's print and the received text (KR1d0026) differ:
        # pairs, not folds, so a quote written with the other graph still draws a warning.
        ("鴈", "雁", "雁/鴈"),
        ("閒", "間", "間/閒"),
        ("罋", "甕", "甕/罋"),
        ("鬻", "粥", "粥/鬻"),
        ("圜", "圓", "圓/圜"),
        ("腵", "腶", "腶/腵"),
    ],
)
def test_an_edition_pair_names_itself_and_its_provenance(
    quote: str, corpus: str, pair: str
) -> None:
    fold = explain(quote, corpus)
    assert fold is not None and fold.source == EDITION and fold.note.startswith(pair + ", ")


@pytest.mark.parametrize(
    "quote, corpus", [("酌", "酢"), ("福", "楅"), ("四", "柶"), ("太", "泰"), ("二", "一")]
)
def test_other_differences_are_neither_folds_nor_pairs(quote: str, corpus: str) -> None:
    # 太 and 泰 are each paired with 大, not with each other: pairs do not chain.
    assert explain(quote, corpus) is None


def test_every_edition_pair_has_provenance_and_no_ritual_character() -> None:
    pairs = set(edition_pairs().values())
    assert len(pairs) >= 10
    for pair in pairs:
        assert pair.source.strip() and pair.locus.strip()
        assert pair.a not in PROTECTED and pair.b not in PROTECTED
        assert normalize(pair.a) != normalize(pair.b)  # a pair is never a fold
    assert edition_alternatives()["大"] == "太泰"
    assert edition_alternatives()["太"] == "大"


@pytest.mark.parametrize("a, b", ["雁鴈", "間閒", "甕罋", "粥鬻", "圓圜", "腶腵"])
def test_the_witness_comparison_takes_a_graphic_pair_for_one_reading(a: str, b: str) -> None:
    # The received text's comparison (glossary.enrich.witness.readings) compares keys and skips
    # the edition alternatives both ways round: 雁 in the print against 鴈 is no other reading.
    ka, kb = normalize(a), normalize(b)
    assert ka != kb
    assert kb in edition_alternatives()[ka] and ka in edition_alternatives()[kb]


def test_differences_are_numbered_as_written() -> None:
    found = differences("衆賓，皆荅壹拜", "衆賔皆答一拜")
    assert [(at, f.quote, f.corpus, f.source) for at, f in found] == [
        (2, "賓", "賔", "yitizi"),
        (5, "荅", "答", "curated"),
        (6, "壹", "一", EDITION),
    ]
    assert folds("賓賓", "賔賔") == [folds("賓", "賔")[0]]  # each fold once


def test_fold_json_shape() -> None:
    fold = folds("歩", "步")[0]
    assert isinstance(fold, Fold)
    assert fold.to_json() == {"quote": "歩", "corpus": "步", "source": "yitizi", "note": fold.note}


def test_index_keeps_the_positions_a_table_folded() -> None:
    key, index, tabled, printed = normalize_for_index("尊于戸東，𤣥酒在西，設")
    assert key == normalize("尊于户东玄酒在西设")
    assert [key[p] for p in tabled] == [
        "户",
        "玄",
    ] and printed == "戸𤣥"  # 設 → 设 is OpenCC's: not listed
    assert [p for p in index] == [0, 1, 2, 3, 5, 6, 7, 8, 10]


def test_index_says_which_passages_hold_such_characters(index) -> None:
    [hit] = index.find(normalize("尊于户東玄酒在西"))
    assert index.may_have_tabled(normalize("尊于户東")) and not index.may_have_tabled(
        normalize("楅長如笴")
    )
    assert index.tabled_in([hit.start], hit.end - hit.start) == {
        hit.start: {hit.start + 2: "戸", hit.start + 4: "𤣥"}
    }
    assert index.printed(hit.start, hit.end) == "尊于戸東𤣥酒在西"
    [plain] = [
        h for h in index.find(normalize("楅長如笴博三寸")) if index.locus(h).work == "KR1d0044"
    ]
    assert index.tabled_in([plain.start], plain.end - plain.start) == {}


def test_passage_with_an_old_form_reports_its_fold(index) -> None:
    # The quote is in standard characters; the corpus prints 㸑 (an old form of 爨).
    checker = CitationChecker(index)
    result, problems = checker.check(
        "t.yaml", "cuan", 0, Citation(quote="主婦視饎爨于西堂下", line=1)
    )
    assert result.verified and not problems
    assert [(f.quote, f.corpus, f.source) for f in result.folds] == [("爨", "㸑", "curated")]


def test_quote_with_an_old_form_reports_its_fold(index) -> None:
    checker = CitationChecker(index)
    result, _ = checker.check("t.yaml", "shi", 0, Citation(quote="士喪既𦵏而虞祭之禮", line=1))
    assert result.verified and result.folds == ()  # as printed: nothing folded
    result, _ = checker.check("t.yaml", "shi", 0, Citation(quote="士丧既葬而虞祭之礼", line=1))
    assert [(f.quote, f.corpus) for f in result.folds] == [
        ("葬", "𦵏")
    ]  # script differences are not listed


def test_a_plain_check_explains_no_match_that_needed_no_table(index, monkeypatch) -> None:
    # A quote and passages without a character a table folds: no fold is worked out.
    calls = []
    monkeypatch.setattr(glossary.citations, "explain", lambda *a: calls.append(a))
    checker = CitationChecker(index)
    citation = Citation(quote="楅長如笴博三寸", line=1)
    checker.prepare([citation])
    result, _ = checker.check("t.yaml", "bi", 0, citation)
    assert result.verified and result.folds == () and calls == []


def test_edition_variant_verifies_with_a_warning_naming_the_pair(index) -> None:
    # 禮經本義 卷十四 (士虞禮) prints 尸以酢主人; the 鄭注本 reads 醋 (經典釋文: 以醋, 本亦作酢).
    checker = CitationChecker(index)
    citation = Citation(quote="祝酌授尸，尸以醋主人", line=3, juan=14)
    checker.prepare([citation])
    result, problems = checker.check("t.yaml", "zhu", 0, citation)
    assert result.verified
    assert [(l.juan, l.text) for l in result.loci] == [(14, "祝酌授尸尸以酢主人")]
    [warning] = problems
    assert warning.severity == "warning" and warning.line == 3
    assert (
        "第8字 醋 where the corpus prints 酢 (醋/酢, 經典釋文: 士虞禮: 「以醋(才各反本亦作酢)」"
        in warning.message
    )
    assert [(f.quote, f.corpus, f.source) for f in result.folds] == [("醋", "酢", EDITION)]


def test_edition_variant_through_many_readings_or_an_anchor(index, monkeypatch) -> None:
    # With few alternatives a quote's readings are looked for; with many, its longest plain run.
    key = normalize("主人西南面三拜衆賓衆賓皆荅壹拜")
    expected = [hit.start for hit in index.find(normalize("主人西南面三拜衆賔衆賔皆答一拜"))]
    assert (
        expected
        and [h.start for h in index.find_alternatives(key, edition_alternatives())] == expected
    )
    monkeypatch.setattr(glossary.matching, "MAX_READINGS", 1)
    assert [h.start for h in index.find_alternatives(key, edition_alternatives())] == expected


def test_edition_readings_are_found_in_the_near_miss_pass(index) -> None:
    # prepare() looks for the readings of missed quotes in the same pass as the near-miss votes.
    checker = CitationChecker(index)
    quote = "衆賓徧有脯醢"
    checker.prepare([Citation(quote=quote, line=1)])
    assert normalize("衆賓辯有脯醢") in index.remembered()


def test_locate_reports_folds_and_the_edition_warning(index) -> None:
    found = locate(index, "衆賓皆荅壹拜")
    assert len(found.loci) == len(found.folds) == len(found.warnings) == 1
    assert [(f.quote, f.corpus, f.source) for f in found.folds[0]] == [
        ("賓", "賔", "yitizi"),
        ("荅", "答", "curated"),
        ("壹", "一", EDITION),
    ]
    assert "第5字 壹 where the corpus prints 一 (壹/一, Unihan 15.0" in found.warnings[0]
    plain = locate(index, "楅長如笴博三寸")
    assert plain.warnings == ("",) * len(plain.loci) and plain.folds == ((),) * len(plain.loci)


def test_check_report_notes_folds_and_never_fails_on_them() -> None:
    report = check_project(CASES / "good" / "variant-folds.yaml", MINI_CORPUS)
    assert not report.failed(strict=True)  # notes are not warnings
    assert [n.path for n in report.notes] == [
        "cuan.citations[0].quote",
        "hu.citations[0].quote",
        "yu.citations[0].quote",
        "huai.citations[0].quote",
    ]
    assert all(n.severity == "note" for n in report.notes)
