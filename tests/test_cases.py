"""Folders of good, warned and bad terms files: each bad or warned one lists the problems it must
produce (a good one gives none, warnings included).

The cases quote the mini corpus (tests/fixtures/corpus-mini), as the shipped corpus would
be quoted: every quote of a case is a passage of both.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MINI_CORPUS

from glossary.check import check_project
from glossary.cli import cli
from glossary.problems import WARNING

CASES = Path(__file__).parent / "cases"
BAD = sorted((CASES / "bad").glob("*.yaml"))
GOOD = sorted((CASES / "good").glob("*.yaml"))
#: Files that pass the check but must give exactly the warnings their .expected lists.
WARN = sorted((CASES / "warn").glob("*.yaml"))


def expectations(case: Path) -> list[tuple[int, str, str]]:
    rows = []
    for line in case.with_suffix(".expected").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            number, path, message = (part.strip() for part in line.split("|", 2))
            rows.append((int(number), path, message))
    return rows


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_bad_case_reports_every_problem_at_its_line(case: Path, index) -> None:
    report = check_project(case, MINI_CORPUS, index=index)
    assert report.failed()
    found = [(p.line, p.path, str(p)) for p in report.problems]
    for line, path, fragment in expectations(case):
        assert any(
            line == got_line and path == got_path and fragment in text
            for got_line, got_path, text in found
        ), f"missing {line} | {path} | {fragment}\ngot:\n" + "\n".join(text for *_, text in found)


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_bad_case_exits_1_without_traceback(case: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--terms", str(case), "--corpus", str(MINI_CORPUS)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{case}:" in result.output


@pytest.mark.parametrize("case", GOOD, ids=lambda p: p.stem)
def test_good_case_verifies(case: Path, index) -> None:
    report = check_project(case, MINI_CORPUS, index=index)
    listed = case.with_suffix(".expected").exists()
    # A good case passes --strict, unless it lists the warnings it must give (edition variants).
    assert not report.failed(strict=not listed), "\n".join(map(str, report.problems))
    assert report.citations == report.verified > 0
    if listed:
        # Its warnings and notes (edition variants, variant folds): each expected one, and no other.
        said = [(p.line, p.path, str(p)) for p in report.problems + report.notes]
        expected = expectations(case)
        for line, path, fragment in expected:
            assert any(line == l and path == p and fragment in text for l, p, text in said), (
                f"missing {line} | {path} | {fragment}\ngot:\n"
                + "\n".join(text for *_, text in said)
            )
        unexpected = [
            text
            for l, p, text in said
            if not any(l == line and p == path for line, path, _ in expected)
        ]
        assert not unexpected, "\n".join(unexpected)


@pytest.mark.parametrize("case", WARN, ids=lambda p: p.stem)
def test_warn_case_passes_with_every_warning_at_its_line(case: Path, index) -> None:
    report = check_project(case, MINI_CORPUS, index=index)
    assert not report.failed() and report.failed(strict=True)
    assert all(p.severity == WARNING for p in report.problems), "\n".join(map(str, report.problems))
    found = [(p.line, p.path, str(p)) for p in report.problems]
    expected = expectations(case)
    for line, path, fragment in expected:
        assert any(
            line == got_line and path == got_path and fragment in text
            for got_line, got_path, text in found
        ), f"missing {line} | {path} | {fragment}\ngot:\n" + "\n".join(text for *_, text in found)
    assert len(found) == len(expected), "\n".join(text for *_, text in found)


SYNTAX = [case for case in BAD if case.stem.startswith("syntax")]


@pytest.mark.parametrize("case", SYNTAX, ids=lambda p: p.stem)
def test_a_syntax_error_comes_alone_even_beside_a_plan(case: Path, tmp_path: Path, index) -> None:
    """Nothing else is checked until the file can be read: not the plan against an empty glossary."""
    from conftest import MINI_PLAN

    terms = tmp_path / "terms.yaml"
    terms.write_bytes(case.read_bytes())
    (tmp_path / "plan.yaml").write_bytes(MINI_PLAN.read_bytes())
    report = check_project(terms, MINI_CORPUS, index=index)
    assert [p.message.split(":")[0] for p in report.problems] == ["YAML syntax error"], (
        report.problems
    )
    line, _, fragment = expectations(case)[0]
    assert report.problems[0].line == line and fragment in report.problems[0].message
