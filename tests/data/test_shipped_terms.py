"""The shipped glossary: terms.yaml and plan.yaml against the shipped corpus.

Every number here is computed from the data itself (terms.yaml is read independently with
PyYAML where a count is needed), so the tests hold as the glossary grows from three rites
to all seventeen. The checks of the whole shipped corpus are marked slow.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from collections import Counter

import pytest
import yaml
from click.testing import CliRunner
from conftest import ROOT, SHIPPED_CORPUS, SHIPPED_PLAN, SHIPPED_TERMS

from glossary.check import check_project
from glossary.cli import cli
from glossary.corpus import read_manifest
from glossary.enrich.pinyin import RitualReadings, split_reading, valid_syllables
from glossary.load import load_yaml
from glossary.normalize import normalize
from glossary.schema_check import _valid, validator
from glossary.vocab import vocabulary

TONED = re.compile("[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]")


@pytest.fixture(scope="module")
def raw_terms() -> list[dict]:
    """terms.yaml as PyYAML reads it: the counts below do not go through our own loader."""
    return yaml.safe_load(SHIPPED_TERMS.read_text(encoding="utf-8"))


@pytest.mark.slow  # the whole shipped corpus, read and indexed
def test_every_citation_of_terms_and_plan_verifies(shipped_index, raw_terms) -> None:
    report = check_project(SHIPPED_TERMS, SHIPPED_CORPUS, index=shipped_index, plan=SHIPPED_PLAN)
    # The two checks against the received text (another reading; 蔡德晉 credited with 鄭玄's words)
    # warn on entries that the second reading of every entry (issue 23) answers one by one; any
    # other warning fails.
    pending = ("the print has ", "gives as 蔡德晉's words a note of his that repeats 鄭玄's")
    problems = [p for p in report.problems if not p.message.startswith(pending)]
    assert not report.failed() and not problems, "\n".join(map(str, problems))
    assert report.total_terms == len(raw_terms)
    assert report.citations == report.verified == sum(len(item["citations"]) for item in raw_terms)
    places = yaml.safe_load(SHIPPED_PLAN.read_text(encoding="utf-8"))["places"]
    assert set(report.plan_loci) == {place["id"] for place in places}
    for place in places:
        loci = report.plan_loci[place["id"]]
        assert len(loci) == len(place["citations"]) and all(loci), place["id"]


def test_every_entry_is_read(shipped_entries, raw_terms) -> None:
    assert [e.id for e in shipped_entries] == [item["id"] for item in raw_terms]


def test_every_category_is_used(shipped_entries) -> None:
    assert set(Counter(e.category for e in shipped_entries)) == set(vocabulary().category_ids)


def test_most_entries_have_two_citations(shipped_entries) -> None:
    # CONTRIBUTING.md: give two or more (the classic and the commentary); most entries must.
    assert sum(len(e.citations) >= 2 for e in shipped_entries) >= 0.8 * len(shipped_entries)


def test_every_rite_of_the_glossary_is_a_rite_of_the_corpus(shipped_entries) -> None:
    vocab = vocabulary()
    # A rite opens either at its 卷 (rites) or inside one, at its heading (rite_headings: 有司徹 in 卷十六).
    known = {
        vocab.rite(name)
        for text in read_manifest(SHIPPED_CORPUS)
        for _, name in (*text.rites, *text.rite_headings)
    }
    rites = {rite for e in shipped_entries for rite in e.rites}
    assert rites and rites <= known, sorted(r.simplified for r in rites - known)


def test_every_pinyin_is_valid_syllables_with_tone_marks(shipped_entries) -> None:
    for entry in shipped_entries:
        syllables = split_reading(entry.pinyin)
        assert syllables, entry.id
        for syllable in syllables:
            assert syllable in valid_syllables(), (entry.id, syllable)
            assert TONED.search(syllable), (entry.id, syllable)
        assert len(syllables) == len(entry.term), entry.id


@pytest.mark.parametrize(
    "passage, expected",
    [
        ("設敦于階間", "shè duì yú jiē jiān"),
        ("遂命三耦拾取矢", "suì mìng sān ǒu jiè qǔ shǐ"),
        ("拾發以將乗矢", "jiè fā yǐ jiāng shèng shǐ"),
        ("南北以堂深", "nán běi yǐ táng shèn"),
        ("豆實葵菹", "dòu shí kuí zū"),
        ("兼挾乗矢", "jiān xié shèng shǐ"),
        ("尸酢主人", "shī zuò zhǔ rén"),
        ("腊用棘心匕", "xī yòng jí xīn bǐ"),
        ("大羹湆自門入", "tài gēng qì zì mén rù"),
        ("齊衰三年正服", "zī cuī sān nián zhèng fú"),
    ],
)
def test_ritual_readings_inside_passages(shipped_entries, passage: str, expected: str) -> None:
    # The readings README.md promises (敦 duì, 拾 jiè, 菹 zū, 乘矢 shèng shǐ …) come from the entries.
    assert RitualReadings(shipped_entries).plain(passage) == expected


def _stats():
    spec = importlib.util.spec_from_file_location("stats", ROOT / "scripts" / "stats.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_counts_are_current() -> None:
    table = _stats().table(SHIPPED_TERMS)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    if f"<!-- stats -->\n{table}<!-- /stats -->" not in readme:
        shown = readme.split("<!-- stats -->\n", 1)[-1].split("<!-- /stats -->", 1)[0]
        diff = "".join(
            difflib.unified_diff(
                shown.splitlines(True), table.splitlines(True), "README.md", "terms.yaml"
            )
        )
        pytest.fail(
            "README.md's table does not count terms.yaml's entries: run `python scripts/stats.py --write` "
            f"(.venv/bin/python without an active environment)\n{diff}",
            pytrace=False,
        )


def test_stats_write_puts_the_table_in_the_readme(tmp_path) -> None:
    readme, terms = tmp_path / "README.md", tmp_path / "terms.yaml"
    terms.write_bytes(SHIPPED_TERMS.read_bytes())
    readme.write_text("# x\n\n<!-- stats -->\nold\n<!-- /stats -->\n\nmore\n", encoding="utf-8")
    stats = _stats()
    assert stats.write(readme, terms) is True
    assert (
        readme.read_text(encoding="utf-8")
        == f"# x\n\n<!-- stats -->\n{stats.table(terms)}<!-- /stats -->\n\nmore\n"
    )
    assert stats.write(readme, terms) is False


def test_readme_table_lists_every_rite_of_the_glossary(shipped_entries) -> None:
    table = _stats().table(SHIPPED_TERMS)
    listed = {
        normalize(row.split("|")[1].strip())
        for row in table.splitlines()[2:]
        if row.startswith("| ")
    }
    rites = {rite.simplified for e in shipped_entries for rite in e.rites}
    assert rites <= listed, f"scripts/stats.py leaves out {sorted(rites - listed)}"


@pytest.mark.slow  # ruamel.yaml round trip of the whole file
def test_shipped_terms_are_formatted() -> None:
    result = CliRunner().invoke(cli, ["fmt", "--check", "--terms", str(SHIPPED_TERMS)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    "path, schema",
    [(SHIPPED_TERMS, "terms.schema.json"), (SHIPPED_PLAN, "plan.schema.json")],
    ids=["terms", "plan"],
)
def test_fast_and_full_validators_agree_on_the_shipped_files(path, schema: str) -> None:
    data = load_yaml(path).data
    assert _valid(data, schema)
    assert not list(validator(schema).iter_errors(data))
