"""The command line: exit codes and the documented JSON shapes (mini corpus and glossary)."""
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner
from conftest import MINI_CORPUS, MINI_TERMS, ROOT, make_project, mini_entries, raw

from glossary.cli import cli
from glossary.enrich.pinyin import split_reading


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_locate_prints_every_occurrence_with_locus() -> None:
    result = invoke("locate", "楅长如笴博三寸", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert "礼经本义 卷4 p.7 〈取矢〉 classic" in result.output
    assert "KR1d0044_WYG_004-22a" in result.output


def test_locate_json_shape() -> None:
    result = invoke("locate", "司射適堂西袒決遂", "--json", "--corpus", str(MINI_CORPUS))
    data = json.loads(result.output)
    assert result.exit_code == 0
    for key in ("work", "file", "juan", "page", "section", "layer", "page_id", "text", "context"):
        assert all(key in item for item in data)
    assert {(d["file"], d["page"], d["section"]) for d in data} >= {
        ("000_b6ac9449aa5994ba.txt", "7", "请射"),
        ("kanripo/KR1d0044/KR1d0044_004.txt", "12a", "請射"),
    }


def test_locate_miss_exits_1_with_suggestion() -> None:
    result = invoke("locate", "楅长如竿博三寸", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 1
    assert "第4字: 竿 ≠ 笴（原文）" in result.output


def test_check_json_shape() -> None:
    result = invoke("check", "--terms", str(MINI_TERMS), "--corpus", str(MINI_CORPUS), "--format", "json")
    data = json.loads(result.output)
    assert set(data) >= {"terms", "citations", "verified", "problems", "results"}
    entries = mini_entries()
    assert data["terms"] == len(entries)
    assert data["citations"] == data["verified"] == len(data["results"]) == sum(len(e.citations) for e in entries.values())
    locus = data["results"][0]["loci"][0]
    assert set(locus) >= {"work", "juan", "page", "section", "layer", "page_id"}
    assert result.exit_code == 0


def test_check_github_format_annotates_lines() -> None:
    bad = ROOT / "tests" / "cases" / "bad" / "many-problems.yaml"
    result = invoke("check", "--terms", str(bad), "--corpus", str(MINI_CORPUS), "--format", "github")
    assert result.exit_code == 1
    assert f"::error file={bad},line=7::bi.gloss: duplicate key 'gloss'" in result.output


@pytest.mark.slow  # a real interpreter, started as users start it
def test_console_script_runs_without_traceback(tmp_path) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_text("- id: [unclosed\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "glossary", "check", "--terms", str(terms), "--corpus", str(MINI_CORPUS)],
        capture_output=True, text=True,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    # The error is at the end of the only line: reported there, not on a line past the end.
    assert f"{terms}:1: YAML syntax error" in result.stdout


def test_missing_corpus_is_a_clear_error(tmp_path) -> None:
    result = invoke("check", "--terms", str(MINI_TERMS), "--corpus", str(tmp_path / "nowhere"))
    assert result.exit_code == 1
    assert "cannot read the corpus manifest" in result.output


def test_pinyin_command_uses_the_entries_readings() -> None:
    entry = mini_entries()["sheng-shi"]  # 乘矢 shèng shǐ: 乘 is chéng in everyday reading
    quote = entry.citations[0].quote     # the passage in the 四庫 text's form (乗)
    result = invoke("pinyin", "--plain", quote, "--terms", str(MINI_TERMS))
    syllables = result.output.split()
    assert len(syllables) == len(quote)
    at = quote.index("乗矢")
    assert syllables[at : at + 2] == split_reading(entry.pinyin)
    annotated = invoke("pinyin", "乗矢", "--terms", str(MINI_TERMS))
    first, second = split_reading(entry.pinyin)
    assert annotated.output.strip() == f"乗({first})矢({second})"


def test_coverage_command() -> None:
    result = invoke("coverage", "--terms", str(MINI_TERMS), "--corpus", str(MINI_CORPUS), "--top", "5")
    assert result.exit_code == 0
    assert result.output.startswith("Not yet in the glossary (乡射礼, 士虞礼, 特牲馈食礼; classic):")
    lines = result.output.splitlines()
    words = lines[1].removeprefix("words: ").split("  ")
    assert len(words) == 5 and lines[2].startswith("characters: ")
    headwords = {e.term for e in mini_entries().values()}
    assert not {w.split(" ")[0] for w in words} & headwords


# -- glossary align, and locate with the modern rendering (tests/enrich/test_align.py checks the pairs) --

def test_align_json_gives_every_paragraph_with_its_passages() -> None:
    result = invoke("align", "--json", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    data = json.loads(result.output)
    blocks = [b.strip() for b in raw("002_a73e8d04fc3338bc.txt").split("\n\n") if b.strip()]
    assert [item["modern"] for item in data] == blocks
    assert [item["paragraph"] for item in data] == list(range(len(blocks)))
    marker = next(item for item in data if item["modern"] == "右筮日")
    (passage,) = marker["original"]
    line = raw(passage["file"]).splitlines().index(next(l for l in raw(passage["file"]).splitlines() if "右筮日" in l)) + 1
    assert (passage["file"], passage["line"], passage["layer"], passage["text"]) == (
        "kanripo/KR1d0044/KR1d0044_015.txt", line, "classic", "右筮日")
    assert passage["page_id"].startswith("KR1d0044_WYG_015-")
    assert all(0 <= item["confidence"] <= 1 for item in data)


def test_align_prints_the_rendering_beside_the_original() -> None:
    result = invoke("align", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert "¶" in result.output and "⇐ marker [kanripo/KR1d0044/KR1d0044_015.txt:" in result.output
    assert "no passage of the original" in result.output


def test_align_without_a_rendering_says_what_is_missing(tmp_path) -> None:
    corpus = make_project(tmp_path / "p", plan=False) / "corpus"
    manifest = corpus / "manifest.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("rendering_of: KR1d0044", ""), encoding="utf-8")
    result = CliRunner().invoke(cli, ["--no-cache", "align", "--corpus", str(corpus)])
    assert result.exit_code == 1
    assert "rendering_of" in result.output


def test_locate_prints_the_modern_rendering_under_a_passage_of_卷15() -> None:
    result = invoke("locate", "席于門中闑西閾外", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert "modern rendering (seed-shiyu," in result.output
    assert "在门中间闑的西边、门槛外铺设席子。" in result.output
    data = json.loads(invoke("locate", "席于門中闑西閾外", "--json", "--corpus", str(MINI_CORPUS)).output)
    (modern,) = data[0]["modern"]
    assert modern["text"] == "在门中间闑的西边、门槛外铺设席子。" and modern["certain"]


def test_locate_finds_what_a_modern_phrase_renders() -> None:
    result = invoke("locate", "在门中间闑的西边", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert "renders KR1d0044 classic [kanripo/KR1d0044/KR1d0044_015.txt:" in result.output
    assert "席于門中闑西閾外" in result.output
    data = json.loads(invoke("locate", "在门中间闑的西边", "--json", "--corpus", str(MINI_CORPUS)).output)
    (renders,) = data[0]["renders"]
    assert renders["text"] == "席于門中闑西閾外" and renders["layer"] == "classic" and renders["certain"]


def test_locate_outside_the_rendering_shows_no_rendering() -> None:
    result = invoke("locate", "楅长如笴博三寸", "--corpus", str(MINI_CORPUS))
    assert "modern rendering" not in result.output and "renders" not in result.output
