"""`glossary new`: the next free id, a reading, the locus of a quote (mini glossary and corpus)."""
from pathlib import Path

from click.testing import CliRunner
from conftest import MINI_CORPUS, MINI_TERMS, mini_entries

from glossary.check import check_project
from glossary.cli import cli
from glossary.contribute.new import next_id, slug
from glossary.load import load_yaml


def test_ids() -> None:
    assert slug("shèng shǐ") == "sheng-shi"
    assert slug("lǚ chóu") == "lv-chou"
    assert next_id("bī", {"bi", "bi-2"}) == "bi-3"


def new(*args: str, terms: Path = MINI_TERMS):
    return CliRunner().invoke(cli, ["new", *args, "--terms", str(terms), "--corpus", str(MINI_CORPUS)])


def test_scaffold_fills_id_reading_and_locus() -> None:
    # 司正 has no entry in the mini glossary; the quote stands in 請射 of 卷四, page 13b.
    result = new("司正", "--category", "role", "--quote", "司正為司馬司馬命張侯")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "- id: si-zheng\n" in text and "NOTE" not in text
    assert "  pinyin: sī zhèng" in text
    # The 廣韻 reading that fits each syllable: 司 息兹切 sī; 正 之盛切 zhèng (not 諸盈切 zhēng).
    assert "  guangyun: [息兹, 之盛]  #" in text
    assert "      work: 禮經本義\n      juan: 4\n      page: 13b\n      section: 請射\n      layer: classic\n" in text
    assert "  rites: [乡射礼]" in text


def test_scaffold_of_a_term_with_an_entry_takes_the_next_id() -> None:
    existing = mini_entries()["si-she"]
    result = new(existing.term, "--category", existing.category)
    assert result.exit_code == 0, result.output
    assert f"already has an entry ({existing.id})" in result.output
    assert f"- id: {existing.id}-2\n" in result.output


def test_scaffold_with_a_misquote_suggests() -> None:
    result = new("楅", "--category", "object", "--quote", "楅长如竿博三寸")
    assert result.exit_code == 1
    assert "第4字: 竿 ≠ 笴（原文）" in result.output


def test_append_writes_a_checkable_scaffold(tmp_path: Path, index) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_bytes(MINI_TERMS.read_bytes())
    result = new("司正", "--category", "role", "--quote", "司正為司馬司馬命張侯", "--append", terms=terms)
    assert result.exit_code == 0, result.output
    report = check_project(terms, MINI_CORPUS, index=index)
    # The scaffold verifies its quote; only the TODO fields remain for a person to write.
    assert report.verified == report.citations == sum(len(e.citations) for e in mini_entries().values()) + 1
    assert terms.read_text(encoding="utf-8").endswith("  tags: []\n")
    assert terms.read_bytes().startswith(MINI_TERMS.read_bytes().rstrip(b"\n"))
    assert [item["id"] for item in load_yaml(terms).data][-1] == "si-zheng"
