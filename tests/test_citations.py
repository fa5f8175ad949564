"""Citation checking: locus agreement, headword warnings (on the mini corpus)."""

from pathlib import Path

import pytest
from conftest import MINI_CORPUS

from glossary.check import check_project


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "terms.yaml"
    path.write_text(body, encoding="utf-8")
    return path


#: One entry citing 楅長如笴博三寸 (the 記 on the arrow rack); tests/test_cache.py uses it too.
ENTRY = """- id: bi
  term: {term}
  pinyin: bī
  category: object
  rites: [乡射礼]
  gloss: arrow rack
  definition: The rack.
  citations:
    - quote: 楅長如笴博三寸
{locus}
"""


def run(tmp_path: Path, index, term: str = "楅", locus: str = ""):
    return check_project(
        write(tmp_path, ENTRY.format(term=term, locus=locus)), MINI_CORPUS, index=index
    )


def test_all_occurrences_are_resolved(tmp_path: Path, index) -> None:
    report = run(tmp_path, index)
    assert not report.failed()
    # The mini corpus has the passage in the seed page of 乡射礼 and in 卷四 of the 四庫 text.
    assert sorted((l.work, l.file) for l in report.results[0].loci) == [
        ("KR1d0044", "kanripo/KR1d0044/KR1d0044_004.txt"),
        ("seed-xiangshe", "000_b6ac9449aa5994ba.txt"),
    ]


def test_locus_fields_narrow_the_occurrences(tmp_path: Path, index) -> None:
    report = run(
        tmp_path, index, locus="      work: 禮經本義\n      page: 22a\n      layer: classic"
    )
    assert [l.page_id for l in report.results[0].loci] == ["KR1d0044_WYG_004-22a"]


def test_wrong_layer_is_a_locus_mismatch_at_the_layer_line(tmp_path: Path, index) -> None:
    report = run(tmp_path, index, locus="      work: KR1d0044\n      layer: commentary")
    assert report.failed()
    # The entry's only citation no longer stands: its rite is unbacked too (an apparatus problem).
    [problem] = [p for p in report.problems if p.severity == "error" and ".citations[" in p.path]
    assert (problem.line, problem.path) == (11, "bi.citations[0].layer")
    assert "not at work=KR1d0044, layer=commentary" in problem.message
    assert report.results[0].status == "locus-mismatch"


def test_unknown_section_is_reported(tmp_path: Path, index) -> None:
    report = run(tmp_path, index, locus="      section: 射箭")
    assert any(p.path == "bi.citations[0].section" and "射箭" in p.message for p in report.problems)


def test_headword_missing_from_quotes_is_a_warning(tmp_path: Path, index) -> None:
    report = run(tmp_path, index, term="乏")
    assert not report.failed()
    assert report.failed(strict=True)
    assert any(p.severity == "warning" and "乏" in p.message for p in report.problems)


def test_placeholder_match_is_verified_with_a_warning(tmp_path: Path, index) -> None:
    body = (
        ENTRY.format(term="丧服", locus="")
        .replace("楅長如笴博三寸", "主人和兄弟穿丧服")
        .replace("乡射礼", "士虞礼")
    )
    report = check_project(write(tmp_path, body), MINI_CORPUS, index=index)
    assert report.verified == 1
    assert any("〇 placeholder" in p.message and "第7字" in p.message for p in report.problems)


def test_a_variant_headword_in_a_quote_satisfies_the_headword_rule() -> None:
    from glossary.citations import headword_problem
    from glossary.model import Citation, Entry

    base = dict(
        id="sui-ji",
        term="绥祭",
        pinyin="suí jì",
        category="action",
        gloss="g",
        definition="d",
        line=1,
        citations=(Citation(quote="祝命挼祭尸左執觶", line=2),),
    )
    assert (
        headword_problem("t.yaml", Entry(**base)).message
        == "the headword 绥祭 occurs in none of the entry's quotes"
    )
    assert headword_problem("t.yaml", Entry(**base, variants=("挼祭",))) is None


def _quoting(tmp_path: Path, index, quote: str, locus: str = ""):
    body = ENTRY.format(term="楅", locus=locus).replace("楅長如笴博三寸", quote)
    return check_project(write(tmp_path, body), MINI_CORPUS, index=index)


def test_a_quote_found_at_more_places_than_a_reader_can_use_is_an_error(
    tmp_path: Path, index, monkeypatch
) -> None:
    import glossary.citations as citations

    # 郝仲舆 (a commentator's name) stands 27 times in the mini corpus: over a limit of 10.
    monkeypatch.setattr(citations, "MAX_PLACES", 10)
    report = _quoting(tmp_path, index, "郝仲舆")
    messages = [p.message for p in report.problems if p.path == "bi.citations[0].quote"]
    assert messages == [
        "the quote matches 27 places, more than the 10 a reader can use: quote a longer passage "
        "(or name its juan, page or section)"
    ]
    assert report.results[0].loci == ()
    # Where the citation names the place, only the occurrences there count.
    monkeypatch.setattr(citations, "MAX_PLACES", 50)
    assert not _quoting(tmp_path, index, "郝仲舆").failed()


def test_a_quote_of_placeholders_is_counted_never_found(tmp_path: Path, index, monkeypatch) -> None:
    import glossary.citations as citations

    # 〇 stands for any character: counting stops past the limit, no occurrence is made.
    assert index.count("〇", 5) == 6
    assert index.count("主人〇", 10_000) == 133 == len(index.find("主人〇"))
    monkeypatch.setattr(citations, "MAX_SCAN", 10)
    find = index.find

    def never_the_quote(key: str):
        assert "〇" not in key, f"{key}: its occurrences made"
        return find(key)

    monkeypatch.setattr(index, "find", never_the_quote)
    report = _quoting(tmp_path, index, "郝仲舆〇")
    messages = [p.message for p in report.problems if p.path == "bi.citations[0].quote"]
    assert messages == [
        "the quote matches more than 10 places, more than the 50 a reader can use: quote a longer "
        "passage (or name its juan, page or section)"
    ]


def test_locate_refuses_a_passage_of_placeholders_and_counts_before_it_finds(
    index, monkeypatch
) -> None:
    import glossary.citations as citations
    from glossary.errors import GlossaryError

    with pytest.raises(GlossaryError, match="placeholders 〇 only"):
        citations.locate(index, "〇〇")
    monkeypatch.setattr(citations, "MAX_SCAN", 10)
    with pytest.raises(GlossaryError, match="more than 10 places"):
        citations.locate(index, "郝仲舆")
    assert citations.locate(index, "楅長如笴博三寸").loci
