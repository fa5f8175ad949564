"""The command line: exit codes and the documented JSON shapes (mini corpus and glossary)."""

import json
import subprocess
import sys
from pathlib import Path

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


def test_locate_shows_the_received_texts_reading_and_a_repeated_note() -> None:
    result = invoke("locate", "舉爵者東面答拜爵止", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert "received text: 儀禮 卷17 p.18b" in result.output
    assert "reads otherwise: 止 → 上 (第9字)" in result.output
    found = invoke(
        "locate", "今主婦之席東面則宗婦南面西上歟", "--json", "--corpus", str(MINI_CORPUS)
    )
    (item,) = [d for d in json.loads(found.output) if d["work"] == "KR1d0044"]
    assert item["repeats"]["common"] == "東面則宗婦南面西上" and "received" not in item


def test_a_quote_in_both_witnesses_resolves_to_the_work_its_citation_names() -> None:
    case = Path(__file__).parent / "cases" / "good" / "both-witnesses.yaml"
    result = invoke("check", "--terms", str(case), "--corpus", str(MINI_CORPUS), "--format", "json")
    works = [
        [(l["work"], l["commentator"]) for l in r["loci"]]
        for r in json.loads(result.output)["results"]
    ]
    assert works == [[("KR1d0044", None)], [("KR1d0026", None)], [("KR1d0026", "鄭康成")]]


def test_check_json_gives_the_received_locus_of_a_classic_passage() -> None:
    case = Path(__file__).parent / "cases" / "warn" / "received-reading.yaml"
    result = invoke("check", "--terms", str(case), "--corpus", str(MINI_CORPUS), "--format", "json")
    data = json.loads(result.output)
    loci = [locus for result in data["results"] for locus in result["loci"]]
    received = [locus["received"] for locus in loci if locus["work"] == "KR1d0044"]
    assert received and all(r["work"] == "KR1d0026" and r["page_id"] for r in received)
    assert {"at": 11, "print": "官", "received": "宫"} in received[0]["readings"]


def test_locate_miss_exits_1_with_suggestion() -> None:
    result = invoke("locate", "楅长如竿博三寸", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 1
    assert "第4字: 竿 ≠ 笴（原文）" in result.output


def test_check_json_shape() -> None:
    result = invoke(
        "check", "--terms", str(MINI_TERMS), "--corpus", str(MINI_CORPUS), "--format", "json"
    )
    data = json.loads(result.output)
    assert set(data) >= {"terms", "citations", "verified", "problems", "results"}
    entries = mini_entries()
    assert data["terms"] == len(entries)
    assert (
        data["citations"]
        == data["verified"]
        == len(data["results"])
        == sum(len(e.citations) for e in entries.values())
    )
    locus = data["results"][0]["loci"][0]
    assert set(locus) >= {"work", "juan", "page", "section", "layer", "page_id"}
    assert result.exit_code == 0


def test_check_github_format_annotates_lines() -> None:
    bad = ROOT / "tests" / "cases" / "bad" / "many-problems.yaml"
    result = invoke(
        "check", "--terms", str(bad), "--corpus", str(MINI_CORPUS), "--format", "github"
    )
    assert result.exit_code == 1
    assert (
        f"::error file={bad},line=7::bi.gloss: Y008 duplicate-key: duplicate key 'gloss'"
        in result.output
    )


@pytest.mark.slow  # a real interpreter, started as users start it
def test_console_script_runs_without_traceback(tmp_path) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_text("- id: [unclosed\n", encoding="utf-8")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "glossary",
            "check",
            "--terms",
            str(terms),
            "--corpus",
            str(MINI_CORPUS),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    # The error is at the end of the only line: reported there, not on a line past the end.
    # (and at the path the line stands at: an id that is no id is not taken for one)
    assert f"{terms}:1: [entry at line 1].id: Y003 yaml-syntax: YAML syntax error" in result.stdout


def test_missing_corpus_is_a_clear_error(tmp_path) -> None:
    result = invoke("check", "--terms", str(MINI_TERMS), "--corpus", str(tmp_path / "nowhere"))
    assert result.exit_code == 1
    assert "cannot read the corpus manifest" in result.output


def test_pinyin_command_uses_the_entries_readings() -> None:
    entry = mini_entries()["sheng-shi"]  # 乘矢 shèng shǐ: 乘 is chéng in everyday reading
    quote = entry.citations[0].quote  # the passage in the 四庫 text's form (乗)
    result = invoke("pinyin", "--plain", quote, "--terms", str(MINI_TERMS))
    syllables = result.output.split()
    assert len(syllables) == len(quote)
    at = quote.index("乗矢")
    assert syllables[at : at + 2] == split_reading(entry.pinyin)
    annotated = invoke("pinyin", "乗矢", "--terms", str(MINI_TERMS))
    first, second = split_reading(entry.pinyin)
    assert annotated.output.strip() == f"乗({first})矢({second})"


def test_coverage_command() -> None:
    result = invoke(
        "coverage", "--terms", str(MINI_TERMS), "--corpus", str(MINI_CORPUS), "--top", "5"
    )
    assert result.exit_code == 0
    assert result.output.startswith(
        "Not yet in the glossary (乡射礼, 士虞礼, 特牲馈食礼; classic):"
    )
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
    line = (
        raw(passage["file"])
        .splitlines()
        .index(next(l for l in raw(passage["file"]).splitlines() if "右筮日" in l))
        + 1
    )
    assert (passage["file"], passage["line"], passage["layer"], passage["text"]) == (
        "kanripo/KR1d0044/KR1d0044_015.txt",
        line,
        "classic",
        "右筮日",
    )
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
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace("rendering_of: KR1d0044", ""), encoding="utf-8"
    )
    result = CliRunner().invoke(cli, ["--no-cache", "align", "--corpus", str(corpus)])
    assert result.exit_code == 1
    assert "rendering_of" in result.output


def test_locate_prints_the_modern_rendering_under_a_passage_of_卷15() -> None:
    result = invoke("locate", "席于門中闑西閾外", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert "modern rendering (seed-shiyu," in result.output
    assert "在门中间闑的西边、门槛外铺设席子。" in result.output
    data = json.loads(
        invoke("locate", "席于門中闑西閾外", "--json", "--corpus", str(MINI_CORPUS)).output
    )
    (modern,) = data[0]["modern"]
    assert modern["text"] == "在门中间闑的西边、门槛外铺设席子。" and modern["certain"]


def test_locate_finds_what_a_modern_phrase_renders() -> None:
    result = invoke("locate", "在门中间闑的西边", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert "renders KR1d0044 classic [kanripo/KR1d0044/KR1d0044_015.txt:" in result.output
    assert "席于門中闑西閾外" in result.output
    data = json.loads(
        invoke("locate", "在门中间闑的西边", "--json", "--corpus", str(MINI_CORPUS)).output
    )
    (renders,) = data[0]["renders"]
    assert (
        renders["text"] == "席于門中闑西閾外"
        and renders["layer"] == "classic"
        and renders["certain"]
    )


def test_locate_outside_the_rendering_shows_no_rendering() -> None:
    result = invoke("locate", "楅长如笴博三寸", "--corpus", str(MINI_CORPUS))
    assert "modern rendering" not in result.output and "renders" not in result.output


def test_check_json_results_carry_the_folds_each_match_needed() -> None:
    case = ROOT / "tests" / "cases" / "good" / "edition-variants.yaml"
    data = json.loads(
        invoke(
            "check", "--terms", str(case), "--corpus", str(MINI_CORPUS), "--format", "json"
        ).output
    )
    folds = {(r["id"], r["citation"]): r["folds"] for r in data["results"]}
    assert folds[("zhong-bin", 0)] == [
        {"quote": "賓", "corpus": "賔", "source": "yitizi", "note": "賔→賓 全等 (equivalent)"},
        {
            "quote": "荅",
            "corpus": "答",
            "source": "curated",
            "note": folds[("zhong-bin", 0)][1]["note"],
        },
        {
            "quote": "壹",
            "corpus": "一",
            "source": "edition",
            "note": folds[("zhong-bin", 0)][2]["note"],
        },
    ]
    assert folds[("zhong-bin", 0)][2]["note"].startswith("壹/一, Unihan 15.0: kSemanticVariant")
    assert all(set(f) == {"quote", "corpus", "source", "note"} for fs in folds.values() for f in fs)
    mini = json.loads(
        invoke(
            "check", "--terms", str(MINI_TERMS), "--corpus", str(MINI_CORPUS), "--format", "json"
        ).output
    )
    assert all("folds" in r for r in mini["results"])


def test_check_text_notes_folds_and_warns_on_edition_variants() -> None:
    case = ROOT / "tests" / "cases" / "good" / "edition-variants.yaml"
    result = invoke("check", "--terms", str(case), "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert (
        f"{case}:30: zhu.citations[0].quote: warning: Y211 edition-variant: verified only through an edition variant: 第8字 醋"
        in result.output
    )
    assert (
        f"{case}:18: zhong-bin.citations[1].quote: note: Y212 variant-folds: matched through variant folds: 賓/賔 (yitizi:"
        in result.output
    )
    assert result.output.rstrip().endswith("6 verified; 0 error(s), 6 warning(s)")
    assert (
        invoke("check", "--terms", str(case), "--corpus", str(MINI_CORPUS), "--strict").exit_code
        == 1
    )
    github = invoke(
        "check", "--terms", str(case), "--corpus", str(MINI_CORPUS), "--format", "github"
    ).output
    assert (
        f"::notice file={case},line=18::zhong-bin.citations[1].quote: Y212 variant-folds: matched through variant folds"
        in github
    )


def test_locate_prints_folds_under_the_hit() -> None:
    result = invoke("locate", "主婦視饎爨于西堂下", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    assert "   fold: 爨/㸑 (curated: 㸑→爨 禮經本義 WYG 卷十五" in result.output
    edition = invoke("locate", "祝酌授尸尸以醋主人", "--corpus", str(MINI_CORPUS))
    assert edition.exit_code == 0
    assert (
        "   warning: verified only through an edition variant: 第7字 醋 where the corpus prints 酢"
        in edition.output
    )


def test_locate_json_items_carry_folds_and_warning() -> None:
    data = json.loads(
        invoke("locate", "衆賓皆荅壹拜", "--json", "--corpus", str(MINI_CORPUS)).output
    )
    assert [f["source"] for f in data[0]["folds"]] == ["yitizi", "curated", "edition"]
    assert data[0]["warning"].startswith("verified only through an edition variant: 第5字 壹")
    plain = json.loads(
        invoke("locate", "楅长如笴博三寸", "--json", "--corpus", str(MINI_CORPUS)).output
    )
    assert all(item["folds"] == [] and item["warning"] is None for item in plain)


def test_corpus_variants_lists_the_old_forms_no_table_folds() -> None:
    from glossary.normalize import fold_char
    from glossary.standard import is_standard

    result = invoke("corpus", "--variants", "--json", "--corpus", str(MINI_CORPUS))
    assert result.exit_code == 0
    data = json.loads(result.output)
    rows = data["characters"]
    assert rows == sorted(rows, key=lambda r: (-r["count"], r["char"]))
    for row in rows:
        ch = row["char"]
        assert (
            not is_standard(ch) and fold_char(ch) == ch and row["codepoint"] == f"U+{ord(ch):04X}"
        )
        example = row["example"]
        line = (
            (MINI_CORPUS / example["file"])
            .read_text(encoding="utf-8")
            .splitlines()[example["line"] - 1]
        )
        assert ch in line
    # 𫝊 (an old form of 傳, in the 提要 of 儀禮釋宮) is in no table; the fold gaps of the issue are
    # folded now: none of them is listed. (The 儀禮音義 excerpt brings old forms of its own.)
    assert ("𫝊", 1, "2b") in [(r["char"], r["count"], r["example"]["page"]) for r in rows]
    assert not {r["char"] for r in rows} & set("靣歩戸懐扄㸑𦵏")
    text = invoke("corpus", "--variants", "--corpus", str(MINI_CORPUS)).output
    assert text.startswith(f"{len(rows)} character(s)")
