"""The command line: exit codes and the documented JSON shapes."""
import json
import subprocess
import sys

from click.testing import CliRunner
from conftest import CORPUS, ROOT, TERMS

from glossary.cli import cli


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_locate_prints_every_occurrence_with_locus() -> None:
    result = invoke("locate", "楅长如笴博三寸", "--corpus", str(CORPUS))
    assert result.exit_code == 0
    assert "礼经本义 卷4 p.7 〈取矢〉 classic" in result.output
    assert "KR1d0044_WYG_004-22a" in result.output


def test_locate_json_shape() -> None:
    result = invoke("locate", "司射適堂西袒決遂", "--json", "--corpus", str(CORPUS))
    data = json.loads(result.output)
    assert result.exit_code == 0
    for key in ("work", "file", "juan", "page", "section", "layer", "page_id", "text", "context"):
        assert all(key in item for item in data)
    assert {(d["file"], d["page"], d["section"]) for d in data} >= {
        ("000_b6ac9449aa5994ba.txt", "7", "请射"),
        ("kanripo/KR1d0044/KR1d0044_004.txt", "12a", "請射"),
    }


def test_locate_miss_exits_1_with_suggestion() -> None:
    result = invoke("locate", "楅长如竿博三寸", "--corpus", str(CORPUS))
    assert result.exit_code == 1
    assert "第4字: 竿 ≠ 笴（原文）" in result.output


def test_check_json_shape() -> None:
    result = invoke("check", "--terms", str(TERMS), "--corpus", str(CORPUS), "--format", "json")
    data = json.loads(result.output)
    assert set(data) >= {"terms", "citations", "verified", "problems", "results"}
    assert data["citations"] == data["verified"] == len(data["results"])
    locus = data["results"][0]["loci"][0]
    assert set(locus) >= {"work", "juan", "page", "section", "layer", "page_id"}
    assert result.exit_code == 0


def test_check_github_format_annotates_lines() -> None:
    bad = ROOT / "tests" / "cases" / "bad" / "many-problems.yaml"
    result = invoke("check", "--terms", str(bad), "--corpus", str(CORPUS), "--format", "github")
    assert result.exit_code == 1
    assert f"::error file={bad},line=7::bi.gloss: duplicate key 'gloss'" in result.output


def test_console_script_runs_without_traceback(tmp_path) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_text("- id: [unclosed\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "glossary", "check", "--terms", str(terms), "--corpus", str(CORPUS)],
        capture_output=True, text=True,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    # The error is at the end of the only line: reported there, not on a line past the end.
    assert f"{terms}:1: YAML syntax error" in result.stdout


def test_missing_corpus_is_a_clear_error(tmp_path) -> None:
    result = invoke("check", "--terms", str(TERMS), "--corpus", str(tmp_path / "nowhere"))
    assert result.exit_code == 1
    assert "cannot read the corpus manifest" in result.output


def test_pinyin_command_uses_ritual_readings() -> None:
    result = invoke("pinyin", "--plain", "設敦于階間，拾取矢", "--terms", str(TERMS))
    assert result.output.strip() == "shè duì yú jiē jiān shè qǔ shǐ"
    annotated = invoke("pinyin", "乗矢", "--terms", str(TERMS))
    assert annotated.output.strip() == "乗(shèng)矢(shǐ)"


def test_coverage_command() -> None:
    result = invoke("coverage", "--terms", str(TERMS), "--corpus", str(CORPUS), "--top", "5")
    assert result.exit_code == 0
    assert result.output.startswith("Not yet in the glossary (乡射礼, 士虞礼, 特牲馈食礼; classic):")
    assert "words: " in result.output and "characters: " in result.output
