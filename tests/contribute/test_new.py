"""`glossary new`: the next free id, a reading, the locus of a quote (mini glossary and corpus)."""

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import MINI_CORPUS, MINI_TERMS, make_project, mini_entries

from glossary.check import check_project
from glossary.cli import cli
from glossary.ids import next_id, slug
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
    assert f"already has an entry ({existing.id}, line {existing.line})" in result.output
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
            "司正",
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
    last = new("司正", "--category", "role", "--quote", "司馬", "--occurrence", str(len(places)))
    assert last.exit_code == 0, last.output
    chosen = places[-1]
    assert f"* {len(places)}. " in last.stderr
    assert f"      layer: {chosen['layer']}\n" in last.stdout
    too_far = new(
        "司正", "--category", "role", "--quote", "司馬", "--occurrence", str(len(places) + 1)
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


def merged_copy(folder: Path) -> Path:
    """The mini glossary with 卒哭 (zu-ku) merged into 哭 (ku): its id retired, its word a variant."""
    from test_retired import merge

    root = merge(make_project(folder, corpus=False))
    terms = root / "terms.yaml"
    text = terms.read_text(encoding="utf-8")
    terms.write_text(
        text.replace("- id: ku\n  term: 哭\n", "- id: ku\n  term: 哭\n  variants: [卒哭]\n")
    )
    return terms


def test_a_retired_id_is_never_proposed(tmp_path: Path) -> None:
    # 卒 read zú: zu-ku is retired.yaml's, so the scaffold adds a word and says why.
    terms = merged_copy(tmp_path / "p")
    result = new("卒哭", "--category", "action", terms=terms)
    assert result.exit_code == 1  # the word itself went into ku (below)
    # A word read the same way (卒 zú, 枯 kū), not the merged one: a free id, and the reason.
    other = new("卒枯", "--category", "action", terms=terms)
    assert other.exit_code == 0, other.output
    assert "- id: zu-ku-action  # zu-ku is a retired id (" in other.output
    assert "retired.yaml:1: 卒哭, merged into ku), never used again" in other.output


def test_a_merged_word_names_the_entry_it_went_into(tmp_path: Path) -> None:
    terms = merged_copy(tmp_path / "p")
    ku = mini_entries()["ku"]
    result = new("卒哭", "--category", "action", terms=terms)
    assert result.exit_code == 1 and "Traceback" not in result.output
    retired = terms.parent / "retired.yaml"
    assert (
        f"{retired}:1: zu-ku.term: Y807 merged-term: 卒哭 was merged into ku (哭, {terms}:{ku.line}), "
        "and its id zu-ku retired: add what you would write to ku rather than a new entry"
    ) in result.output
    assert (
        f"{terms}:" in result.output
        and "ku.variants[0]: Y504 headword-a-variant: 卒哭 is a variant of ku" in result.output
    )
    assert "- id:" not in result.output  # no scaffold


def test_a_headword_in_the_other_script_names_its_entry() -> None:
    si_ma = mini_entries()["si-ma"]
    result = new("司馬", "--category", "role")
    assert result.exit_code == 1 and "- id:" not in result.output
    assert (
        f"{MINI_TERMS}:{si_ma.line}: si-ma.term: Y501 headword-other-script: 司馬 is the headword "
        "of si-ma in the other script (司马)"
    ) in result.output


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
