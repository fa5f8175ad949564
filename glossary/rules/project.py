"""The project's checks, beside the entries' (glossary.rules.entry): one signature, in one list.

Each takes the :class:`ProjectContext` of a run and returns its problems (beancount's validators
are the model). The checks of the files beside the terms (the hall plan, the stage plans,
retired.yaml) also keep on the report what they resolve, for the outputs: the plan's and stage
plans' loci, the retired ids, the notes of the folds their quotes needed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from glossary.problems import Problem
from glossary.report import Report

if TYPE_CHECKING:
    from glossary.citations import CitationChecker


@dataclass
class ProjectContext:
    """What the project's checks read: the run's report (entries, index, plan), the citation
    checker (None when the corpus was not opened), and where the project's files are."""

    display: str  # the terms file as messages name it
    folder: Path  # the project folder (the terms file's)
    report: Report
    checker: CitationChecker | None
    plan_path: Path
    base: str | None  # the revision whose ledger this one extends (glossary.published)
    #: Every id the terms file names (entries that failed validation too).
    ids: frozenset[str]
    #: Whether the terms file itself read cleanly (the ledger is compared only then).
    terms_read: bool
    #: Set by :func:`retired`: whether retired.yaml read cleanly (the ledger is compared only then).
    retired_read: bool = True
    #: A preview's entries (glossary.check.check_project): the entries' rules run for these
    #: alone and rite coverage (whose counts need every headword: longer ones hide shorter) not
    #: at all; None in a check.
    only: frozenset[str] | None = None


def rite_coverage(ctx: ProjectContext) -> Iterable[Problem]:
    """Y307, Y308: rites whose classic uses a headword the entry does not list (one pass)."""
    if ctx.checker is None or ctx.report.index is None:
        return []
    from glossary.enrich.rite_coverage import coverage_problems

    if ctx.only is not None:
        return []  # a preview: its warnings are nobody's to read, and every headword counts
    missing, declined = coverage_problems(ctx.display, ctx.report.entries, ctx.report.index)
    return missing + declined


def plan(ctx: ProjectContext) -> Iterable[Problem]:
    """Y6xx of the hall plan: each place's term and citations (its loci kept on the report)."""
    if ctx.report.plan is None or ctx.checker is None:
        return []
    from glossary.check_files import check_plan

    return check_plan(ctx.report, ctx.plan_path, ctx.report.plan, ctx.checker)


def stages(ctx: ProjectContext) -> Iterable[Problem]:
    """Y604–Y613: the stage plans' quotes and what their passages say."""
    from glossary.stages.load import FILENAME

    path = ctx.folder / FILENAME
    if ctx.checker is None or not os.path.lexists(path):
        return []
    from glossary.check_files import check_stages

    return check_stages(ctx.report, path, ctx.checker)


def media(ctx: ProjectContext) -> Iterable[Problem]:
    """Y7xx: media/ and the files entries name (media change apart from the entries)."""
    from glossary.media import media_problems, media_size_problems

    found = media_problems(ctx.folder, ctx.display, ctx.report.entries)
    return found + media_size_problems(ctx.folder, ctx.display, ctx.report.entries)


def retired(ctx: ProjectContext) -> Iterable[Problem]:
    """Y8xx of retired.yaml: retired ids and merged headwords (the ids kept on the report)."""
    from glossary.retired import FILENAME, load_retired, merged_terms

    path = ctx.folder / FILENAME
    if not os.path.lexists(path):
        return []
    ctx.report.retired, found = load_retired(path, ctx.report.entries, ctx.display)
    ctx.retired_read = not found
    return found + merged_terms(ctx.display, ctx.report.entries, ctx.report.retired, str(path))


def ledger(ctx: ProjectContext) -> Iterable[Problem]:
    """Y8xx of the Anki ledger: published ids and assignments are permanent (a broken terms
    file or retired.yaml is said first, alone)."""
    if not (ctx.retired_read and ctx.terms_read):
        return []
    from glossary.published import ledger_problems
    from glossary.render.anki.ledger import FILENAME

    return ledger_problems(ctx.folder / FILENAME, set(ctx.ids), ctx.report.retired, ctx.base)


#: The project's checks, in the order they run (``ledger`` after ``retired``, whose ids it needs).
PROJECT_CHECKS: tuple[Callable[[ProjectContext], Iterable[Problem]], ...] = (
    rite_coverage,
    plan,
    stages,
    media,
    retired,
    ledger,
)
