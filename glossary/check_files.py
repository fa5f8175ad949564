"""The checks of the project's other files beside the terms: the hall plan (plan.yaml: every
place's term and citations) and the stage plans (stages.yaml: every quote in its rite's 卷 and
section, and what the passages say, glossary.stages.rules)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from glossary.model import Plan
from glossary.plan import load_plan
from glossary.problems import ERROR, Problem, did_you_mean
from glossary.report import Report, fold_note

if TYPE_CHECKING:
    from glossary.citations import CitationChecker
    from glossary.corpus.model import Locus


def load_plan_into(report: Report, path: Path) -> bool:
    """Load the hall plan into ``report``: whether there is one to check."""
    if not os.path.lexists(path):
        return False  # no plan: nothing to check
    plan, problems = load_plan(path)
    report.problems.extend(problems)
    report.plan = plan
    return plan is not None


def check_plan(report: Report, path: Path, plan: Plan, checker: CitationChecker) -> list[Problem]:
    """The hall plan's problems: each place's term, citations and rites (its loci and the notes of
    its folds kept on ``report``)."""
    from glossary.apparatus import rite_problems

    found: list[Problem] = []
    notes: list[Problem] = []
    checker.prepare([citation for place in plan.places for citation in place.citations])
    ids = {entry.id for entry in report.entries}
    for place in plan.places:
        if place.term is not None and place.term not in ids:
            found.append(
                Problem(
                    str(path),
                    place.line,
                    f"{place.id}.term",
                    ERROR,
                    f"unknown glossary id {place.term!r}{did_you_mean(place.term, sorted(ids))}",
                    code="Y603",
                )
            )
        loci = []
        for i, citation in enumerate(place.citations):
            result, problems = checker.check(str(path), place.id, i, citation)
            found.extend(problems)
            if (note := fold_note(str(path), place.id, i, citation, result)) is not None:
                notes.append(note)
            loci.append(result.loci if result.verified else ())
        report.plan_loci[place.id] = tuple(loci)
        found.extend(
            rite_problems(
                str(path), place.id, place.rites, place.line, [l for each in loci for l in each]
            )
        )
    report.notes.extend(notes)
    return found


def check_stages(report: Report, path: Path, checker: CitationChecker) -> list[Problem]:
    """Load the stage plans, verify every quote in its rite's 卷 and section, and check what the
    passages say (glossary.stages.rules): their problems (the plans and loci kept on ``report``)."""
    from glossary.enrich.sequence import sequences
    from glossary.stages.load import load_stages
    from glossary.stages.rules import (
        carry_problems,
        choose_loci,
        section_problems,
        step_problems,
    )

    stages, problems = load_stages(path)
    if stages is None:
        return problems
    assert report.index is not None
    report.stages = stages
    file = str(path)
    items = [
        (item.path, item.citation)
        for section in stages.sections
        for step in section.steps
        for item in step.items
        if item.citation is not None
    ]
    checker.prepare([citation for _, citation in items])
    loci: dict[str, tuple[Locus, ...]] = {}
    for owner, citation in items:
        result, found = checker.check(file, owner, 0, citation)
        # The checker names a citation of an entry (owner.citations[0].quote): here the quote
        # is the placement's own field.
        prefix = f"{owner}.citations[0]"
        problems.extend(
            replace(p, path=owner + p.path[len(prefix) :]) if p.path.startswith(prefix) else p
            for p in found
        )
        if (note := fold_note(file, owner, 0, citation, result)) is not None:
            report.notes.append(replace(note, path=f"{owner}.quote"))
        if result.verified:
            loci[owner] = result.loci
    entries = {entry.id: entry for entry in report.entries}
    plan = report.plan if report.plan is not None else Plan(1, 1, ())
    primary = report.index.corpus.primary
    report.stage_loci = choose_loci(stages, loci, primary.id if primary else None)
    problems.extend(section_problems(file, stages, sequences(report.index.corpus)))
    problems.extend(step_problems(file, stages, plan, entries))
    problems.extend(carry_problems(file, stages, report.stage_loci))
    return problems
