"""`glossary new`: the next free id, a reading, the locus of a quote (mini glossary and corpus)."""

import json
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
    # Taken: a word tells the two apart (the guide's rule), never a bare number.
    assert next_id("bī", {"bi"}, ("object", "xiangshe")) == "bi-object"
    assert next_id("bī", {"bi", "bi-object"}, ("object", "xiangshe")) == "bi-xiangshe"
    assert (
        next_id("bī", {"bi", "bi-object", "bi-xiangshe"}, ("object", "xiangshe"))
        == "bi-object-xiangshe"
    )


def new(*args: str, terms: Path = MINI_TERMS):
    return CliRunner().invoke(
        cli, ["new", *args, "--terms", str(terms), "--corpus", str(MINI_CORPUS)]
    )


def test_scaffold_fills_id_reading_and_locus() -> None:
    # 司正 has no entry in the mini glossary; the quote stands in 請射 of 卷四, page 13b.
    result = new("司正", "--category", "role", "--quote", "司正為司馬司馬命張侯")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "- id: si-zheng\n" in text and "NOTE" not in text
    assert "  pinyin: sī zhèng" in text
    # The 廣韻 reading that fits each syllable: 司 息兹切 sī; 正 之盛切 zhèng (not 諸盈切 zhēng).
    assert "  guangyun: [息兹, 之盛]  #" in text
    assert (
        "      work: 禮經本義\n      juan: 4\n      page: 13b\n      section: 請射\n      layer: classic\n"
        in text
    )
    assert "  rites: [乡射礼]" in text


def test_scaffold_of_a_term_with_an_entry_takes_a_readable_id() -> None:
    existing = mini_entries()["si-she"]
    result = new(existing.term, "--category", existing.category)
    assert result.exit_code == 0, result.output
    assert f"already has an entry ({existing.id})" in result.output
    assert (
        f"- id: {existing.id}-{existing.category}  # {existing.id} is {existing.term}"
        in result.output
    )
    assert "-2" not in result.output


def test_every_occurrence_is_listed_and_one_chosen() -> None:
    # 司馬 stands in several places of corpus-mini: all are listed, numbered as locate numbers them.
    located = CliRunner().invoke(cli, ["locate", "司馬", "--corpus", str(MINI_CORPUS), "--json"])
    places = json.loads(located.output)
    assert len(places) > 2
    default = CliRunner().invoke(
        cli,
        [
            "new",
            "司馬",
            "--category",
            "role",
            "--quote",
            "司馬",
            "--terms",
            str(MINI_TERMS),
            "--corpus",
            str(MINI_CORPUS),
        ],
    )
    assert default.exit_code == 0, default.output
    assert f"the quote stands in {len(places)} places" in default.stderr
    for number, place in enumerate(places[:12], 1):
        assert (
            f"{number}. " in default.stderr
            and f"[{place['file']}:{place['line']}]" in default.stderr
        )
    last = new("司馬", "--category", "role", "--quote", "司馬", "--occurrence", str(len(places)))
    assert last.exit_code == 0, last.output
    chosen = places[-1]
    assert f"* {len(places)}. " in last.stderr
    assert f"      layer: {chosen['layer']}\n" in last.stdout
    too_far = new(
        "司馬", "--category", "role", "--quote", "司馬", "--occurrence", str(len(places) + 1)
    )
    assert too_far.exit_code == 1 and f"stands in {len(places)} place(s)" in too_far.output


def test_the_scaffold_quotes_the_corpus_not_the_pasted_form() -> None:
    # Pasted in simplified script with modern punctuation; the 四庫 text prints it otherwise.
    result = new("司正", "--category", "role", "--quote", "司正为司马，司马命张侯")
    assert result.exit_code == 0, result.output
    assert "    - quote: 司正為司馬司馬命張侯\n" in result.stdout


def test_rite_names_come_from_the_vocabulary() -> None:
    result = new("司正", "--category", "role", "--rite", "士丧礼下")
    assert result.exit_code == 1 and "unknown rite '士丧礼下'" in result.output
    assert "  rites: [士虞礼]" in new("司正", "--category", "role", "--rite", "士虞禮").output


def test_scaffold_with_a_misquote_suggests() -> None:
    result = new("楅", "--category", "object", "--quote", "楅长如竿博三寸")
    assert result.exit_code == 1
    assert "第4字: 竿 ≠ 笴（原文）" in result.output


def test_append_writes_a_checkable_scaffold(tmp_path: Path, index) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_bytes(MINI_TERMS.read_bytes())
    result = new(
        "司正", "--category", "role", "--quote", "司正為司馬司馬命張侯", "--append", terms=terms
    )
    assert result.exit_code == 0, result.output
    report = check_project(terms, MINI_CORPUS, index=index)
    # The scaffold verifies its quote; only the TODO fields remain for a person to write, and each
    # of them fails the check until it is written.
    assert (
        report.verified
        == report.citations
        == sum(len(e.citations) for e in mini_entries().values()) + 1
    )
    todo = [str(p) for p in report.problems if "still the scaffold's placeholder" in p.message]
    assert [p.split(": ")[1] for p in todo] == [
        "si-zheng.gloss",
        "si-zheng.definition",
        "si-zheng.definition_zh",
    ]
    assert report.failed()
    assert terms.read_text(encoding="utf-8").endswith("  tags: []\n")
    assert terms.read_bytes().startswith(MINI_TERMS.read_bytes().rstrip(b"\n"))
    data = load_yaml(terms).data
    assert isinstance(data, list) and data[-1]["id"] == "si-zheng"


def test_scaffold_names_the_notes_of_the_yinyi() -> None:
    # 韎 glossed alone in 士冠禮 (韐 is not in the mini corpus' 音義): the rite given, no quote.
    result = new("韎韐", "--category", "object", "--rite", "士冠禮")
    assert result.exit_code == 0, result.output
    assert "  yinyi: [韎, null]  # 經典釋文's 儀禮音義: 韎: 韎 (音妹" in result.output
    # The quote's rite: 搢三 (音進) reads the 搢 of 搢扑 in 鄉射禮.
    result = new("搢扑", "--category", "action", "--quote", "搢扑反位執其事也")
    assert result.exit_code == 0, result.output
    assert "  yinyi: [搢三, null]  #" in result.output
    # No note on any character: no line.
    result = new("司正", "--category", "role", "--quote", "司正為司馬司馬命張侯")
    assert "yinyi" not in result.output
