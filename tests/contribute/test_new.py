from pathlib import Path

from click.testing import CliRunner
from conftest import CORPUS, TERMS

from glossary.check import check_project
from glossary.cli import cli
from glossary.contribute.new import next_id, slug


def test_ids() -> None:
    assert slug("shèng shǐ") == "sheng-shi"
    assert slug("lǚ chóu") == "lv-chou"
    assert next_id("bī", {"bi", "bi-2"}) == "bi-3"


def test_scaffold_fills_id_reading_and_locus() -> None:
    result = CliRunner().invoke(cli, ["new", "侯道", "--category", "position", "--quote", "乏參侯道居侯黨之一西五步",
                                      "--terms", str(TERMS), "--corpus", str(CORPUS)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "- id: hou-dao-2\n" in text  # hou-dao is taken
    assert "  pinyin: hóu dào" in text
    assert "      work: 禮經本義\n      juan: 4\n      page: 3a\n      section: 張侯\n      layer: classic\n" in text
    assert "  rites: [乡射礼]" in text


def test_scaffold_with_a_misquote_suggests() -> None:
    result = CliRunner().invoke(cli, ["new", "楅", "--category", "object", "--quote", "楅长如竿博三寸",
                                      "--terms", str(TERMS), "--corpus", str(CORPUS)])
    assert result.exit_code == 1
    assert "第4字: 竿 ≠ 笴（原文）" in result.output


def test_append_writes_a_checkable_scaffold(tmp_path: Path, index) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_bytes(TERMS.read_bytes())
    result = CliRunner().invoke(cli, ["new", "侯道", "--category", "position", "--quote", "乏參侯道居侯黨之一西五步",
                                      "--append", "--terms", str(terms), "--corpus", str(CORPUS)])
    assert result.exit_code == 0, result.output
    report = check_project(terms, CORPUS, index=index)
    # The scaffold verifies its quote; only the TODO fields remain for a person to write.
    assert report.verified == report.citations
    assert terms.read_text(encoding="utf-8").endswith("  tags: []\n")
