"""Folders of good, warned and bad terms files: each bad or warned one lists the problems it must
produce, as line, path and rule code (a good one gives none, warnings included; a case's
``# select: Y307`` line reports that preview rule too, as `--select` would). Tests match
codes, never the messages' prose; every code of the registry has a bad or warned case.

The cases quote the mini corpus (tests/fixtures/corpus-mini), as the shipped corpus would
be quoted: every quote of a case is a passage of both.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MINI_CORPUS

from glossary.check import check_project
from glossary.cli import cli
from glossary.problems import WARNING, Problem
from glossary.report import Report
from glossary.rules.codes import BY_CODE
from glossary.rules.select import parse_codes, previewed

CASES = Path(__file__).parent / "cases"
BAD = sorted((CASES / "bad").glob("*.yaml"))
GOOD = sorted((CASES / "good").glob("*.yaml"))
#: Files that pass the check but must give exactly the warnings their .expected lists.
WARN = sorted((CASES / "warn").glob("*.yaml"))
#: Whole projects (terms.yaml beside a plan, media/, the ledger, retired.yaml, a corpus of its
#: own): each folder's `expected` lists every problem its check must report (errors or warnings).
FOLDERS = sorted((CASES / "projects").glob("*/terms.yaml"))


def expectations(case: Path) -> list[tuple[int, str, str]]:
    """(line, path, code) of each problem a case's .expected lists (its code's name checked)."""
    rows = []
    expected = (
        case.parent / "expected" if case.name == "terms.yaml" else case.with_suffix(".expected")
    )
    for line in expected.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            number, path, rule = (part.strip() for part in line.split("|", 2))
            code, _, name = rule.partition(" ")
            assert code in BY_CODE and BY_CODE[code].name == name, f"{case.name}: {rule}"
            rows.append((int(number), path, code))
    return rows


def checked(case: Path, index) -> Report:
    """The check of a case, with the preview rules its ``# select: Y307`` line names reported
    as `glossary check --select` reports them."""
    report = check_project(case, MINI_CORPUS, index=index)
    text = case.read_bytes().decode("utf-8", errors="replace")  # a bad case may be no UTF-8
    heads = [line for line in text.splitlines() if line.startswith("#")]
    select = parse_codes(",".join(h.split(":", 1)[1] for h in heads if h.startswith("# select:")))
    report.problems = sorted(report.problems + previewed(report.preview, select, ()))
    return report


def found(problems: list[Problem]) -> Counter[tuple[int, str, str]]:
    return Counter((p.line, p.path, p.code) for p in problems)


def missing(case: Path, problems: list[Problem]) -> str:
    """What the case expects that the check did not report (as many times as listed)."""
    lacking = Counter(expectations(case)) - found(problems)
    return "".join(f"missing {l} | {p} | {c}\n" for l, p, c in lacking.elements()) + (
        "got:\n" + "\n".join(map(str, problems)) if lacking else ""
    )


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_bad_case_reports_every_problem_at_its_line(case: Path, index) -> None:
    report = checked(case, index)
    assert report.failed()
    assert not (lacking := missing(case, report.problems)), lacking


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_bad_case_exits_1_without_traceback(case: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--terms", str(case), "--corpus", str(MINI_CORPUS)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{case}:" in result.output


@pytest.mark.parametrize("case", GOOD, ids=lambda p: p.stem)
def test_good_case_verifies(case: Path, index) -> None:
    report = checked(case, index)
    listed = case.with_suffix(".expected").exists()
    # A good case passes --strict, unless it lists the warnings it must give (edition variants).
    assert not report.failed(strict=not listed), "\n".join(map(str, report.problems))
    assert report.citations == report.verified > 0
    if listed:
        # Its warnings and notes (edition variants, variant folds): each expected one, and no other.
        said = report.problems + report.notes
        assert found(said) == Counter(expectations(case)), "\n".join(map(str, said))


@pytest.mark.parametrize("case", WARN, ids=lambda p: p.stem)
def test_warn_case_passes_with_every_warning_at_its_line(case: Path, index) -> None:
    report = checked(case, index)
    assert not report.failed() and report.failed(strict=True)
    assert all(p.severity == WARNING for p in report.problems), "\n".join(map(str, report.problems))
    assert found(report.problems) == Counter(expectations(case)), "\n".join(
        map(str, report.problems)
    )


@pytest.mark.parametrize("case", FOLDERS, ids=lambda p: p.parent.name)
def test_project_case_reports_every_problem(case: Path, tmp_path: Path, index) -> None:
    import shutil

    project = tmp_path / case.parent.name
    shutil.copytree(case.parent, project, symlinks=True)
    corpus = project / "corpus"
    report = check_project(
        project / "terms.yaml",
        corpus if corpus.exists() else MINI_CORPUS,
        index=None if corpus.exists() else index,
    )
    assert report.failed(strict=True)
    assert not (lacking := missing(case, report.problems)), lacking


#: Codes whose case is not yet a folder here: made by generated or hostile inputs (a file over
#: the limit, 20,001 entries, a link), or by files beside the terms (plan, media, ledger, retired,
#: corpus) that tests/cases/projects/ is for. Each has its test elsewhere; the list only shrinks.
NO_CASE_YET = frozenset("Y001 Y011 Y012 Y111 Y208 Y706 Y803 Y901".split())


def test_every_code_has_a_bad_or_warned_case_and_every_case_code_a_rule() -> None:
    """The registry and the cases agree: each rule is shown failing (or warning) by a case."""
    listed = {
        code
        for case in [*BAD, *WARN, *FOLDERS, *GOOD]
        if case.with_suffix(".expected").exists() or case.name == "terms.yaml"
        for _, _, code in expectations(case)
    }
    assert not (untested := sorted(set(BY_CODE) - listed - NO_CASE_YET)), (
        f"without a case: {untested}"
    )
    assert not (done := sorted(NO_CASE_YET & listed)), f"has a case now, off the list: {done}"
    assert NO_CASE_YET <= set(BY_CODE)


SYNTAX = [case for case in BAD if case.stem.startswith("syntax")]


@pytest.mark.parametrize("case", SYNTAX, ids=lambda p: p.stem)
def test_a_syntax_error_comes_alone_even_beside_a_plan(case: Path, tmp_path: Path, index) -> None:
    """Nothing else is checked until the file can be read: not the plan against an empty glossary."""
    from conftest import MINI_PLAN

    terms = tmp_path / "terms.yaml"
    terms.write_bytes(case.read_bytes())
    (tmp_path / "plan.yaml").write_bytes(MINI_PLAN.read_bytes())
    report = check_project(terms, MINI_CORPUS, index=index)
    assert [p.code for p in report.problems] == ["Y003"], report.problems
    line, _, code = expectations(case)[0]
    assert report.problems[0].line == line and report.problems[0].code == code
