"""Where a stage plan's actors stand: each step of a rite resolved into marks (an actor, his
place, qualifier and facing, and the passage that puts him there) and moves, the point of a
place a qualifier names, actors on one spot set side by side, and the window a section's steps
share (so that stepping through them the plan does not move). Plan units throughout;
:mod:`glossary.render.stage_svg` draws what this resolves."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from glossary.model import Glossary, Movement, Place, Placement, Plan, StageSection, StageStep
from glossary.stages.carry import Origin, standing

#: Group qualifiers: which way the row runs (dx, dy of the senior end).
ROWS = {"東上": (1.0, 0.0), "西上": (-1.0, 0.0), "北上": (0.0, -1.0), "南上": (0.0, 1.0)}
#: A facing → the unit vector it points (x east, y south).
_S = math.sqrt(0.5)
FACINGS = {
    "北面": (0.0, -1.0),
    "南面": (0.0, 1.0),
    "東面": (1.0, 0.0),
    "西面": (-1.0, 0.0),
    "東北面": (_S, -_S),
    "西北面": (-_S, -_S),
    "東南面": (_S, _S),
    "西南面": (-_S, _S),
}
#: Direction words of a qualifier (東 of the east stairs …) → unit vector.
_SIDES = {"東": (1.0, 0.0), "西": (-1.0, 0.0), "南": (0.0, 1.0), "北": (0.0, -1.0)}
#: Plan units: the mark's radius, the facing arrow's length, the spacing of a group's row, the
#: distance of a place's side (東, 南 …) from its edge.
DOT = 1.3
ARROW = 4.0
ROW_GAP = 2.6
SIDE = 4.5

#: The least share of the plan's width and height a section's window shows (a section whose
#: actors all stand at the gate still shows the court they face).
MIN_VIEW = (0.5, 0.4)

View = tuple[float, float, float, float]


@dataclass(frozen=True)
class Mark:
    """An actor drawn at one step: his entry, headword, place (with qualifier and facing) and the
    passage that puts him there (for a carried placement, the earlier one's)."""

    actor: str
    label: str
    place: str
    qualifier: str | None = None
    facing: str | None = None
    quote: str | None = None
    carried: bool = False


@dataclass(frozen=True)
class Move:
    """An actor going from one place to another during the step, and the passage that says it."""

    actor: str
    label: str
    origin: str
    to: str
    quote: str | None = None


@dataclass(frozen=True)
class Figure:
    """One step resolved for drawing: its section, the step, its marks and moves."""

    section: StageSection
    step: StageStep
    marks: tuple[Mark, ...]
    moves: tuple[Move, ...]


def figures(glossary: Glossary) -> list[Figure]:
    """Every step of the glossary's stage plans, resolved (in the file's order); a movement's actor
    with no placement in its step is drawn where the movement ends."""
    if glossary.stages is None:
        return []
    entries = {entry.id: entry for entry in glossary.entries}

    def name(actor: str) -> str:
        entry = entries.get(actor)
        return (entry.traditional or entry.term) if entry is not None else actor

    origins = standing(glossary.stages)
    out = []
    for section in glossary.stages.sections:
        for step in section.steps:
            marks = [_mark(p, name(p.actor), origins.get(p.path)) for p in step.placements]
            placed = {p.actor for p in step.placements}
            for movement in step.movements:
                if movement.actor not in placed:
                    placed.add(movement.actor)
                    marks.append(
                        Mark(
                            movement.actor,
                            name(movement.actor),
                            movement.to,
                            None,
                            None,
                            movement.citation.quote,
                        )
                    )
            moves = tuple(_move(m, name(m.actor)) for m in step.movements)
            out.append(Figure(section, step, tuple(marks), moves))
    return out


def _mark(placement: Placement, label: str, origin: Origin | None) -> Mark:
    source = origin if origin is not None else placement
    citation = source.citation
    return Mark(
        placement.actor,
        label,
        placement.place,
        placement.qualifier,
        placement.facing,
        citation.quote if citation is not None else None,
        placement.carried,
    )


def _move(movement: Movement, label: str) -> Move:
    return Move(movement.actor, label, movement.origin, movement.to, movement.citation.quote)


def anchor(plan: Plan, place: Place, qualifier: str | None) -> tuple[float, float]:
    """The point of ``place`` a qualifier names (plan units): the top of stairs for 上, their foot
    for 下, beside it for 東/西/南/北, outside (south of) a gate for 外, inside it on the west for
    門左, level with a wall in the court below it for 當 …; the place's middle otherwise. Never
    off the plan (outside the great gate at its southern edge is drawn at that edge)."""
    x, y = _anchor(plan, place, qualifier)
    return min(max(x, EDGE), plan.width - EDGE), min(max(y, EDGE), plan.height - EDGE)


#: How near the plan's edge a mark may stand (plan units): its dot and facing arrow stay on it.
EDGE = DOT + ARROW


def _anchor(plan: Plan, place: Place, qualifier: str | None) -> tuple[float, float]:
    words = set((qualifier or "").split())
    cx, cy = place.x + place.w / 2, place.y + place.h / 2
    if place.kind == "steps" and "上" in words:
        return cx, place.y - (4.0 if "當楣" in words else 2.2)
    if "下" in words or (place.kind == "steps" and "前" in words):
        return cx, place.y + place.h + 2.5
    if place.kind == "door" and "外" in words:
        return cx, place.y + place.h + SIDE
    if place.kind == "door" and ("門左" in words or "門右" in words):
        x = place.x + 1.0 if "門左" in words else place.x + place.w - 1.0
        return x, place.y - 2 * SIDE
    if place.kind == "door" and "內" in words:
        return cx, place.y - SIDE
    if "當" in words and place.kind == "wall":
        below = [
            p
            for p in plan.places
            if p.kind == "area" and p.x <= cx <= p.x + p.w and p.y >= place.y + place.h
        ]
        return cx, (min(p.y for p in below) if below else place.y + place.h) + SIDE
    for word, (dx, dy) in _SIDES.items():
        if word in words:
            return cx + dx * (place.w / 2 + SIDE), cy + dy * (place.h / 2 + SIDE)
    return cx, cy


def _row(qualifier: str | None) -> tuple[float, float] | None:
    words = (qualifier or "").split()
    return next((ROWS[w] for w in words if w in ROWS), None)


@dataclass(frozen=True)
class Drawn:
    """A mark resolved to plan units: its dots (the senior first), the facing vector, its box."""

    mark: Mark
    dots: tuple[tuple[float, float], ...]
    facing: tuple[float, float] | None

    @property
    def box(self) -> tuple[float, float, float, float]:
        xs, ys = [], []
        for x, y in self.dots:
            xs += [x - DOT, x + DOT]
            ys += [y - DOT, y + DOT]
            if self.facing is not None:
                xs.append(x + self.facing[0] * (DOT + ARROW))
                ys.append(y + self.facing[1] * (DOT + ARROW))
        return min(xs), min(ys), max(xs), max(ys)


def resolve(plan: Plan, marks: Sequence[Mark]) -> list[Drawn]:
    """Each mark's dots; two actors the text puts on one spot stand side by side."""
    by_id = {p.id: p for p in plan.places}
    drawn: list[Drawn] = []
    used: list[tuple[float, float]] = []
    for mark in marks:
        place = by_id.get(mark.place)
        if place is None:
            continue
        x, y = anchor(plan, place, mark.qualifier)
        facing = FACINGS.get(mark.facing or "")
        # Side by side, across the way he faces (east of the other when he faces north or south).
        step = (
            (0.0, 2 * DOT + ARROW * 0.6)
            if facing and abs(facing[0]) > abs(facing[1])
            else (
                2 * DOT + ARROW * 0.6,
                0.0,
            )
        )
        while any(abs(x - ux) < 2 * DOT + 0.5 and abs(y - uy) < 2 * DOT + 0.5 for ux, uy in used):
            x, y = x + step[0], y + step[1]
        row = _row(mark.qualifier)
        if row is None:
            dots: tuple[tuple[float, float], ...] = ((x, y),)
        else:
            dx, dy = row
            dots = tuple((x + dx * ROW_GAP * (1 - k), y + dy * ROW_GAP * (1 - k)) for k in range(3))
        found = Drawn(mark, dots, facing)
        # Moved aside or set in a row past the plan's edge: drawn just inside it.
        x0, y0, x1, y1 = found.box
        dx = max(0.0, -x0) - max(0.0, x1 - plan.width)
        dy = max(0.0, -y0) - max(0.0, y1 - plan.height)
        if dx or dy:
            found = Drawn(mark, tuple((x + dx, y + dy) for x, y in dots), facing)
        used += list(found.dots)
        drawn.append(found)
    return drawn


def points(plan: Plan, marks: Iterable[Mark], moves: Iterable[Move]) -> list[tuple[float, float]]:
    """Every point a step draws at (its marks and the ends of its moves)."""
    drawn = resolve(plan, list(marks))
    by_id = {p.id: p for p in plan.places}
    out = [corner for d in drawn for corner in (d.box[:2], d.box[2:])]
    for move in moves:
        for end in (move.origin, move.to):
            if end in by_id:
                out.append(anchor(plan, by_id[end], None))
    return out


def section_view(plan: Plan, figs: Iterable[Figure], margin: float = 6.0) -> View:
    """The window a section's steps share: every point they draw and the areas it falls in, with a
    margin, within the plan."""
    pts = [pt for f in figs for pt in points(plan, f.marks, f.moves)]
    if not pts:
        return (0.0, 0.0, plan.width, plan.height)
    xs = [x for x, _ in pts]
    ys = [y for _, y in pts]
    for place in plan.places:
        if place.kind == "area" and any(
            place.x <= x <= place.x + place.w and place.y <= y <= place.y + place.h for x, y in pts
        ):
            xs += [place.x, place.x + place.w]
            ys += [place.y, place.y + place.h]
    x0, x1 = _span(min(xs) - margin, max(xs) + margin, plan.width * MIN_VIEW[0], plan.width)
    y0, y1 = _span(min(ys) - margin, max(ys) + margin, plan.height * MIN_VIEW[1], plan.height)
    return (x0, y0, x1 - x0, y1 - y0)


def _span(lo: float, hi: float, least: float, limit: float) -> tuple[float, float]:
    """``lo``..``hi`` widened about its middle to at least ``least``, kept within 0..``limit``,
    in whole units."""
    if hi - lo < least:
        mid = (lo + hi) / 2
        lo, hi = mid - least / 2, mid + least / 2
    if lo < 0:
        lo, hi = 0.0, hi - lo
    if hi > limit:
        lo, hi = max(0.0, lo - (hi - limit)), limit
    return float(math.floor(lo)), float(math.ceil(hi))
