"""Preview rules (Y307): checked in every run, reported only when ``--select`` names them in full."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from conftest import MINI_CORPUS

from glossary.cli import cli
from glossary.problems import WARNING, Problem
from glossary.rules.codes import BY_CODE, PREVIEW
from glossary.rules.select import previewed

#: tests/cases/warn/rite-not-listed.yaml: 堂 lists 士虞禮, the classic of three more rites uses it.
CASE = Path(__file__).parents[1] / "cases" / "warn" / "rite-not-listed.yaml"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli, ["check", "--terms", str(CASE), "--corpus", str(MINI_CORPUS), *args]
    )
    return result.exit_code, result.output


def test_rite_coverage_is_a_preview_rule() -> None:
    assert "Y307" in PREVIEW and BY_CODE["Y307"].preview and not BY_CODE["Y308"].preview


def test_a_preview_rule_is_off_by_default_and_under_a_prefix() -> None:
    for args in ((), ("--strict",), ("--select", "Y3"), ("--select", "Y")):
        code, output = run(*args)
        assert code == 0 and "Y307" not in output, (args, output)


def test_a_preview_rule_named_in_full_is_reported_and_strict_fails_on_it() -> None:
    code, output = run("--select", "Y307")
    assert code == 0 and output.count("Y307 rite-not-listed") == 3
    assert "stands 10× in the classic of 鄉射禮, first at 卷4, 12a" in output
    code, output = run("--select", "Y307", "--strict")
    assert code == 1
    code, output = run("--select", "Y307", "--ignore", "Y307")
    assert "Y307" not in output


def test_an_entry_may_waive_it_with_its_reason(tmp_path: Path) -> None:
    text = CASE.read_text(encoding="utf-8").replace(
        "  rites: [士虞礼]\n",
        "  rites: [士虞礼]\n  ignore:\n    - code: Y307\n      why: the case's reason\n",
        1,
    )
    terms = tmp_path / "terms.yaml"
    terms.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["check", "--terms", str(terms), "--corpus", str(MINI_CORPUS), "--select", "Y307,Y123"]
    )
    assert "ignore:" in text and result.exit_code == 0
    assert "Y307" not in result.output and "Y123" not in result.output, result.output


def test_previewed_keeps_only_codes_named_in_full() -> None:
    found = [Problem("t.yaml", 1, "tang.rites", WARNING, "m", code="Y307")]
    assert previewed(found, ("Y307",), ()) == found
    assert previewed(found, ("Y3",), ()) == [] == previewed(found, (), ())


def test_a_project_turns_a_preview_rule_on_in_its_pyproject(tmp_path: Path) -> None:
    """``[tool.glossary] preview = ["Y307"]`` beside the terms file: reported in every run,
    and --strict fails on it, as on the shipped glossary."""
    (tmp_path / "terms.yaml").write_bytes(CASE.read_bytes())
    (tmp_path / "pyproject.toml").write_text('[tool.glossary]\npreview = ["Y307"]\n')
    args = ["check", "--terms", str(tmp_path / "terms.yaml"), "--corpus", str(MINI_CORPUS)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0 and result.output.count("Y307 rite-not-listed") == 3
    assert CliRunner().invoke(cli, [*args, "--strict"]).exit_code == 1
    # Another table, or none: the rule stays a preview.
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 100\n")
    assert "Y307" not in CliRunner().invoke(cli, args).output


def test_the_shipped_glossary_turns_its_answered_preview_rules_on() -> None:
    """Rite coverage (Y307), 鄭玄 repeated unsaid (Y309), the classic the received text lacks
    (Y310) or reads with a character more or fewer (Y311), Chinese in a definition that no quote
    holds (Y312), a modal of the Chinese the English drops (Y313): each answered for every entry."""
    import tomllib

    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert config["tool"]["glossary"]["preview"] == ["Y307", "Y309", "Y310", "Y311", "Y312", "Y313"]
