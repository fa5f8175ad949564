"""The project's checks (glossary/rules/project.py): one signature in one list, each run by
`glossary check`, and the ledger compared only once retired.yaml has read cleanly."""

from __future__ import annotations

import inspect
import shutil
import typing
from pathlib import Path

from conftest import MINI_CORPUS

from glossary.check import check_project
from glossary.rules import entry as entry_rules
from glossary.rules import project
from glossary.rules.project import PROJECT_CHECKS, ProjectContext


def test_every_check_takes_the_one_context() -> None:
    for rules, context in ((PROJECT_CHECKS, ProjectContext), (entry_rules.ENTRY_CHECKS, None)):
        for check in rules:
            params = list(inspect.signature(check).parameters)
            assert len(params) == 1, check.__name__
            if context is not None:
                hints = typing.get_type_hints(check, vars(project))
                assert hints[params[0]] is context, check.__name__
                assert check.__doc__, check.__name__


def test_the_ledger_waits_for_retired_ids_that_read(tmp_path: Path) -> None:
    """A broken retired.yaml is said alone: the ledger's published ids cannot be compared with
    ids it may retire (tests/cases/projects/ledger-id-gone: an id the ledger published is gone)."""
    case = Path(__file__).resolve().parents[1] / "cases" / "projects" / "ledger-id-gone"
    for name in ("terms.yaml", "anki-ledger.json"):
        shutil.copy(case / name, tmp_path / name)
    gone = {p.code for p in check_project(tmp_path / "terms.yaml", MINI_CORPUS).problems}
    assert any(code.startswith("Y8") for code in gone), gone
    (tmp_path / "retired.yaml").write_text("- id: [not, an, id]\n", encoding="utf-8")
    report = check_project(tmp_path / "terms.yaml", MINI_CORPUS)
    assert report.problems and all(p.file.endswith("retired.yaml") for p in report.problems)


def test_each_check_runs_in_a_check(monkeypatch, tmp_path: Path) -> None:
    ran: list[str] = []
    for i, check in enumerate(PROJECT_CHECKS):

        def spy(ctx: ProjectContext, check=check) -> list:
            ran.append(check.__name__)
            return list(check(ctx))

        monkeypatch.setattr(
            project,
            "PROJECT_CHECKS",
            (*project.PROJECT_CHECKS[:i], spy, *project.PROJECT_CHECKS[i + 1 :]),
        )
    terms = tmp_path / "terms.yaml"
    terms.write_text("[]\n", encoding="utf-8")
    check_project(terms, MINI_CORPUS)
    assert ran == [c.__name__ for c in PROJECT_CHECKS]
