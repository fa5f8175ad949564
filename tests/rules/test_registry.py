"""The registry of rules: codes stable and unique, documented, chosen and waived by code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from glossary.cli import cli
from glossary.errors import GlossaryError
from glossary.model import Entry, Waiver
from glossary.problems import ERROR, Problem
from glossary.rules.codes import BY_CODE, BY_NAME, RULES
from glossary.rules.docs import GROUPS, checks_markdown, explain
from glossary.rules.select import apply_ignores, chosen, parse_codes

ROOT = Path(__file__).resolve().parents[2]


def test_codes_and_names_are_unique_and_well_formed() -> None:
    assert len(BY_CODE) == len(RULES) == len(BY_NAME)
    for rule in RULES:
        assert re.fullmatch(r"Y\d{3}", rule.code) and rule.code[:2] in GROUPS, rule
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule
        assert rule.severity in ("error", "warning", "note") and rule.summary and rule.fix


def test_every_rule_names_a_function_that_exists() -> None:
    import importlib

    for rule in RULES:
        module, _, name = rule.check.partition(":")
        found = importlib.import_module(module)
        for part in filter(None, name.split(".")):
            found = getattr(found, part)
        assert callable(found) or not name, rule


def test_docs_checks_md_is_generated_from_the_registry() -> None:
    current = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    assert current == checks_markdown(), "run python scripts/gen_checks_doc.py"


def test_every_code_in_the_package_is_a_rule_and_every_rule_is_used() -> None:
    """A code written in the package is the registry's; a rule no code of the package reports is dead."""
    written: set[str] = set()
    for path in (ROOT / "glossary").rglob("*.py"):
        if path.name in ("codes.py", "docs.py"):
            continue
        written.update(re.findall(r'"(Y\d{3})"', path.read_text(encoding="utf-8")))
    assert written <= set(BY_CODE), sorted(written - set(BY_CODE))
    assert set(BY_CODE) <= written, sorted(set(BY_CODE) - written)


def test_a_message_shows_its_code_and_name_in_text_github_and_json() -> None:
    problem = Problem("terms.yaml", 42, "bi.citations[0].quote", ERROR, "not found", code="Y201")
    assert str(problem) == "terms.yaml:42: bi.citations[0].quote: Y201 quote-not-found: not found"
    assert "Y201 quote-not-found: not found" in problem.to_github()
    assert problem.to_json()["code"] == "Y201"


def test_select_and_ignore_take_codes_and_their_starts() -> None:
    problem = Problem("t", 1, "x", ERROR, "m", code="Y201")
    assert chosen(problem, parse_codes("Y2"), ())
    assert not chosen(problem, parse_codes("Y3,Y4"), ())
    assert not chosen(problem, (), parse_codes("y20"))
    with pytest.raises(GlossaryError):
        parse_codes("Y999")


def test_explain_by_code_or_name_and_refuses_an_unknown_one() -> None:
    assert explain("Y201").startswith("### Y201 quote-not-found")
    assert explain("quote-not-found") == explain("y201")
    with pytest.raises(GlossaryError):
        explain("Y777")
    result = CliRunner().invoke(cli, ["check", "--explain", "Y501"])
    assert result.exit_code == 0 and "headword-other-script" in result.output


def entry(*waivers: Waiver) -> Entry:
    return Entry("bi", "楅", "bī", "object", "g", "d", 1, ignore=waivers)


def test_an_ignore_waives_its_code_on_its_entry_only() -> None:
    mine = Problem("t.yaml", 3, "bi.term", "warning", "m", code="Y305")
    other = Problem("t.yaml", 9, "si-ma.term", "warning", "m", code="Y305")
    kept = apply_ignores("t.yaml", [entry(Waiver("Y305", "why", 5))], [mine, other])
    assert kept == [other]


def test_an_ignore_that_does_not_fire_unknown_or_not_waivable_is_said() -> None:
    waivers = (Waiver("Y305", "why", 5), Waiver("Y777", "why", 6), Waiver("Y003", "why", 7))
    codes = sorted(p.code for p in apply_ignores("t.yaml", [entry(*waivers)], []))
    assert codes == ["Y122", "Y123", "Y124"]
