"""The stage plans as the book, the web page and the reader view show them: for each section of a
rite with stage plans, its steps, each drawn (:mod:`glossary.render.stage_svg`) with its note and
the passages that place each actor; the template ``stage.html`` prints them (in the book, several
steps a page; on a screen, a step-through with previous / next buttons, ``stages.js``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import groupby

from markupsafe import Markup

from glossary.model import Glossary, Plan, StageSection
from glossary.render.stage_layout import Figure, Mark, figures, section_view
from glossary.render.stage_svg import render_step

#: The width (CSS px) a printed step is drawn for: three to a row of the page (about 57 mm,
#: 215 px), the labels print at about 8 pt; a screen shows it wider.
BOOK_FIT_PX = 260
#: The reader's plans are drawn for a phone: 350 px (a 390 px screen less its margins shows them
#: 358 px wide, labels of 13.3 px).
READER_FIT_PX = 350


@dataclass(frozen=True)
class Said:
    """One line under a step: an actor, where he stands (or goes) and the passage that says it."""

    actor: str
    label: str
    where: str
    quote: str | None
    carried: bool = False
    href: str | None = None


@dataclass(frozen=True)
class StepView:
    anchor: str
    number: int
    total: int
    note: str | None
    svg: Markup
    said: tuple[Said, ...]


@dataclass(frozen=True)
class SectionView:
    """A section with its steps (``repeat``: 2 for the second section of this name in the rite)."""

    rite: str
    name: str
    repeat: int
    anchor: str
    steps: tuple[StepView, ...]


def anchor(rite_id: str, number: int) -> str:
    """The id of a rite's ``number``-th section with stage plans (from 1): ``st-xiangshe-3``."""
    return f"st-{rite_id}-{number}"


def sections(
    glossary: Glossary,
    *,
    link: Callable[[str], str],
    fit: float,
    auto_dark: bool,
    legend: bool = True,
) -> dict[str, tuple[SectionView, ...]]:
    """Rite id → its sections with steps, in the file's order (sections with no step left out).
    ``link(entry id)`` is where a mark leads; ``legend=False``: the plans' symbols explained by the
    page, not under each plan. Nothing when the project has no plan or stages."""
    if glossary.plan is None or glossary.stages is None:
        return {}
    plan = glossary.plan
    names = _place_names(plan)
    found: dict[str, list[SectionView]] = {}
    for _, group in groupby(figures(glossary), key=lambda f: f.section.path):
        figs = list(group)
        section = figs[0].section
        views = found.setdefault(section.rite.id, [])
        views.append(
            _section(plan, section, figs, names, len(views) + 1, link, fit, auto_dark, legend)
        )
    return {rite: tuple(views) for rite, views in found.items()}


def _section(
    plan: Plan,
    section: StageSection,
    figs: list[Figure],
    names: Mapping[str, str],
    number: int,
    link: Callable[[str], str],
    fit: float,
    auto_dark: bool,
    legend: bool,
) -> SectionView:
    view = section_view(plan, figs)
    used = {m.place for f in figs for m in f.marks}
    used |= {end for f in figs for m in f.moves for end in (m.origin, m.to)}
    base = anchor(section.rite.id, number)
    steps = []
    for f in figs:
        title = f"{section.name}, step {f.step.number} of {len(figs)}"
        if f.step.note:
            title += f": {f.step.note}"

        def href(mark: Mark) -> str:
            return link(mark.actor)

        svg = render_step(
            plan,
            f.marks,
            f.moves,
            title=title,
            view=view,
            named=used,
            link=href,
            fit=fit,
            style=False,
            auto_dark=auto_dark,
            legend=legend,
        )
        steps.append(
            StepView(
                f"{base}-{f.step.number}",
                f.step.number,
                len(figs),
                f.step.note,
                Markup(svg),
                _said(f, names, link),
            )
        )
    return SectionView(section.rite.id, section.name, section.repeat, base, tuple(steps))


def _place_names(plan: Plan) -> dict[str, str]:
    return {p.id: p.label for p in plan.places}


def _said(f: Figure, names: Mapping[str, str], link: Callable[[str], str]) -> tuple[Said, ...]:
    """Each mark's place and passage, then each movement's (the passage of a carried placement is
    the one that put the actor there)."""
    out = []
    moved = {(move.actor, move.quote) for move in f.moves}
    for mark in f.marks:
        if (mark.actor, mark.quote) in moved:
            continue  # drawn where his movement ends: the movement's line says it
        where = " ".join(
            x for x in (names.get(mark.place, mark.place), mark.qualifier, mark.facing) if x
        )
        out.append(Said(mark.actor, mark.label, where, mark.quote, mark.carried, link(mark.actor)))
    for move in f.moves:
        where = f"{names.get(move.origin, move.origin)} → {names.get(move.to, move.to)}"
        out.append(Said(move.actor, move.label, where, move.quote, False, link(move.actor)))
    return tuple(out)
