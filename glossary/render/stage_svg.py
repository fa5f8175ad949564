"""A stage plan: one step of a rite drawn on the hall plan, every actor where the text puts him.

Each actor is a labelled mark (his headword) at his place, with an arrow the way he faces; a
group placed in a row (``東上``, ``西上``) or a column (``北上``, ``南上``) is a short row of marks,
the senior end larger; a movement is a dashed arrow from the place he leaves to where he goes.
Labels are placed by :mod:`glossary.render.plan_labels` with the plan's own (none over another
or over a symbol, at least ``MIN_LABEL_PX`` CSS px high at the width ``fit``), the actors' first.
Colours are the plan's (presentation attributes for the light drawing, ``yp-…``/``ys-…`` classes
repainted at night under Anki's night classes or ``yp-dark``, and, with ``auto_dark``, under the
reader's ``prefers-color-scheme: dark`` on screen).

:func:`render_step` draws one step from its resolved :class:`Mark` s and :class:`Move` s;
:func:`figures` resolves every step of a :class:`~glossary.model.Glossary` (a carried placement
shows the passage that put the actor there); :func:`section_view` is the window a section's
steps share, so that stepping through them the plan does not move.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from glossary.model import Glossary, Movement, Place, Placement, Plan, StageSection, StageStep
from glossary.render.plan_labels import LABEL_PX, Label, layout_labels, text_width
from glossary.render.plan_svg import CLASSES, FIT_PX, FONT, LAYERS, SCALE, WIDTH_PX
from glossary.render.plan_svg import _shape as plan_shape
from glossary.stages.carry import Origin, standing

#: Light and night colours of the stage's own classes (the plan's are ``plan_svg.CLASSES``).
STAGE_CLASSES = {
    "ys-actor": ("#1f4f9f", "#8fb4ff"),
    "ys-move": ("#8a4b00", "#f0c58e"),
}
ALL_CLASSES = {**CLASSES, **STAGE_CLASSES}
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


# --- where an actor stands --------------------------------------------------------------


def anchor(plan: Plan, place: Place, qualifier: str | None) -> tuple[float, float]:
    """The point of ``place`` a qualifier names (plan units): the top of stairs for 上, their foot
    for 下, beside it for 東/西/南/北, outside (south of) a gate for 外, inside it on the west for
    門左, level with a wall in the court below it for 當 …; the place's middle otherwise."""
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
class _Drawn:
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


def _resolve(plan: Plan, marks: Sequence[Mark]) -> list[_Drawn]:
    """Each mark's dots; two actors the text puts on one spot stand side by side."""
    by_id = {p.id: p for p in plan.places}
    drawn: list[_Drawn] = []
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
        used += list(dots)
        drawn.append(_Drawn(mark, dots, facing))
    return drawn


def points(plan: Plan, marks: Iterable[Mark], moves: Iterable[Move]) -> list[tuple[float, float]]:
    """Every point a step draws at (its marks and the ends of its moves)."""
    drawn = _resolve(plan, list(marks))
    by_id = {p.id: p for p in plan.places}
    out = [dot for d in drawn for dot in d.dots]
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


# --- drawing ------------------------------------------------------------------------------


def _n(value: float) -> str:
    """Coordinates with at most one decimal (as the plan's), so the bytes never depend on float noise."""
    text = f"{value * SCALE:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _up(value: float) -> str:
    """A font size rounded up to one decimal: never below the size the labels were placed for."""
    text = f"{math.ceil(value * SCALE * 10 - 1e-6) / 10:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _paint(fill: str | None = None, stroke: str | None = None) -> str:
    attrs = [f'fill="{ALL_CLASSES[fill][0]}"'] if fill else ['fill="none"']
    classes = [f"{fill}-f"] if fill else []
    if stroke:
        attrs.append(f'stroke="{ALL_CLASSES[stroke][0]}"')
        classes.append(f"{stroke}-s")
    return " ".join(attrs) + (f' class="{" ".join(classes)}"' if classes else "")


def stage_style(auto_dark: bool = False) -> str:
    """The night colours of a stage plan (and the plan under it): under Anki's night classes or a
    ``yp-dark`` ancestor; with ``auto_dark`` also on a dark screen (``prefers-color-scheme``; print
    stays light). One ``<style>`` serves every stage plan of a page."""
    rules, media = [], []
    for cls, (_, night) in sorted(ALL_CLASSES.items()):
        for attr in ("fill", "stroke"):
            sel = f".{cls}-{attr[0]}"
            rules.append(
                f".yp-dark {sel},.nightMode .yp {sel},.night_mode .yp {sel}{{{attr}:{night}}}"
            )
            media.append(f".ys {sel}{{{attr}:{night}}}")
    css = "".join(rules)
    if auto_dark:
        css += "@media screen and (prefers-color-scheme:dark){" + "".join(media) + "}"
    return "<style>" + css + "</style>"


def _arrow(x: float, y: float, ux: float, uy: float, length: float, cls: str, dashed: bool) -> str:
    """A line from (x, y) ``length`` along (ux, uy), with a filled head at its end."""
    head = 1.5
    ex, ey = x + ux * length, y + uy * length
    bx, by = ex - ux * head, ey - uy * head
    px, py = -uy * head * 0.55, ux * head * 0.55
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return (
        f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(bx)}" y2="{_n(by)}" {_paint(None, cls)} '
        f'stroke-width="{"1.6" if dashed else "2"}" vector-effect="non-scaling-stroke"{dash}/>'
        f'<path d="M{_n(ex)},{_n(ey)} L{_n(bx + px)},{_n(by + py)} L{_n(bx - px)},{_n(by - py)} Z" '
        f"{_paint(cls)}/>"
    )


def _text(label: Label, cls: str = "yp-ink") -> str:
    weight = ' font-weight="700"' if label.bold else ""
    halo = f'stroke-width="{_n(label.size * 0.18)}" paint-order="stroke"'
    return (
        f'<text x="{_n(label.x)}" y="{_n(label.y)}" font-size="{_up(label.size)}" '
        f"{_paint(cls, 'yp-bg')} {halo}{weight}>{escape(label.text)}</text>"
    )


def _actor_svg(d: _Drawn) -> str:
    parts = []
    for k, (x, y) in enumerate(d.dots):
        if d.facing is not None:
            length = ARROW if len(d.dots) == 1 else ARROW * 0.75
            parts.append(
                _arrow(
                    x + d.facing[0] * DOT,
                    y + d.facing[1] * DOT,
                    *d.facing,
                    length,
                    "ys-actor",
                    False,
                )
            )
        r = DOT if k == 0 or len(d.dots) == 1 else DOT * 0.7
        parts.append(
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" {_paint("ys-actor", "yp-bg")} '
            f'stroke-width="1" vector-effect="non-scaling-stroke"/>'
        )
    return "".join(parts)


def _move_svg(plan: Plan, move: Move, at: Mapping[str, tuple[float, float]]) -> str:
    by_id = {p.id: p for p in plan.places}
    if move.origin not in by_id or move.to not in by_id:
        return ""
    x0, y0 = anchor(plan, by_id[move.origin], None)
    x1, y1 = at.get(move.actor) or anchor(plan, by_id[move.to], None)
    dist = math.hypot(x1 - x0, y1 - y0)
    if dist < 2 * DOT + 2:
        return ""
    ux, uy = (x1 - x0) / dist, (y1 - y0) / dist
    start = DOT + 0.6
    return _arrow(
        x0 + ux * start, y0 + uy * start, ux, uy, dist - start - DOT - 0.6, "ys-move", True
    )


def render_step(
    plan: Plan,
    marks: Sequence[Mark],
    moves: Sequence[Move] = (),
    *,
    title: str = "Stage plan",
    view: View | None = None,
    named: Iterable[str] | None = None,
    link: Callable[[Mark], str | None] | None = None,
    fit: float = FIT_PX,
    style: bool = True,
    auto_dark: bool = False,
) -> str:
    """One step as SVG: the hall plan (within ``view``, plan units x, y, w, h; the whole plan by
    default) with every mark and move drawn and labelled.

    ``named`` lists other places whose names are written (besides the areas, steps and gates, and
    the places the step's marks and moves name: a section's places, so that its steps read alike); ``link(mark)`` gives a link for a mark (its dot and label become
    an ``<a>``); every mark carries its passage as a ``<title>``. Labels are at least
    ``MIN_LABEL_PX`` CSS px high when the SVG is shown ``fit`` px wide; a name with no room becomes
    a key number explained in the legend. ``style=False`` leaves out the ``<style>`` (a page with
    many stage plans gives :func:`stage_style` once); ``auto_dark`` repaints on a dark screen.
    """
    vx, vy, vw, vh = view if view is not None else (0.0, 0.0, plan.width, plan.height)
    unit = vw / fit

    def visible(p: Place) -> bool:
        return p.x + p.w >= vx and p.x <= vx + vw and p.y + p.h >= vy and p.y <= vy + vh

    places = tuple(p for p in plan.places if visible(p))
    drawn = [d for d in _resolve(plan, marks) if _inside(d.box, (vx, vy, vw, vh))]
    wanted = set(named or ())
    wanted |= {m.place for m in marks} | {m.origin for m in moves} | {m.to for m in moves}
    unlabelled = frozenset(
        p.id for p in places if p.kind not in ("area", "steps", "door") and p.id not in wanted
    )
    # Each actor is a box no label may cover (his dots and facing arrow), labelled first.
    actor_places = tuple(
        Place(f"@{i}", d.mark.label, "steps", b[0], b[1], 0, w=b[2] - b[0], h=b[3] - b[1])
        for i, d in enumerate(drawn)
        for b in (d.box,)
    )
    layout = layout_labels(
        actor_places + places,
        (vx, vy, vw, vh),
        None,
        True,
        fit,
        unlabelled=unlabelled,
        first=frozenset(p.id for p in actor_places),
    )
    shapes = [
        plan_shape(p, False)
        for p in sorted(places, key=lambda p: (LAYERS.index(p.kind), -(p.w * p.h), p.id))
    ]
    leaders = [
        f'<line x1="{_n(a)}" y1="{_n(b)}" x2="{_n(c)}" y2="{_n(d)}" {_paint(None, "yp-ink")} '
        f'stroke-width="0.7" vector-effect="non-scaling-stroke"/>'
        for a, b, c, d in layout.leaders
    ]
    actor_labels = {
        int(label.place_id[1:]): label
        for label in layout.labels
        if label.place_id is not None and label.place_id.startswith("@")
    }
    place_texts = [
        _text(label)
        for label in layout.labels
        if label.place_id is None or not label.place_id.startswith("@")
    ]
    at = {d.mark.actor: d.dots[0] for d in drawn}
    move_svg = [_move_svg(plan, move, at) for move in moves]
    actors = []
    for i, d in enumerate(drawn):
        body = _actor_svg(d)
        if i in actor_labels:
            body += _text(actor_labels[i], "ys-actor")
        tip = f"<title>{escape(_tip(d.mark))}</title>"
        href = link(d.mark) if link is not None else None
        if href:
            actors.append(f'<a href={quoteattr(href)} class="ys-mark">{tip}{body}</a>')
        else:
            actors.append(f'<g class="ys-mark">{tip}{body}</g>')
    keyed = [(key, place.label) for key, place in layout.keyed]
    legend_svg, legend_h = _legend(
        bool(drawn), bool(move_svg and any(move_svg)), keyed, vx, vy + vh, vw, unit
    )
    total_h = vh + legend_h
    height_px = WIDTH_PX * float(_n(total_h)) / float(_n(vw))
    box = f"{_n(vx)} {_n(vy)} {_n(vw)} {_n(total_h)}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="yp ys" viewBox="{box}" width="{WIDTH_PX}" '
        f'height="{height_px:.1f}" lang="zh-Hant" role="img" aria-label={quoteattr(title)} '
        f"font-family={quoteattr(FONT)}>"
        f"<title>{escape(title)}</title>{stage_style(auto_dark) if style else ''}"
        f'<rect x="{_n(vx)}" y="{_n(vy)}" width="{_n(vw)}" height="{_n(total_h)}" {_paint("yp-bg")}/>'
        + "".join(shapes)
        + "".join(leaders)
        + "".join(place_texts)
        + "".join(move_svg)
        + "".join(actors)
        + legend_svg
        + "</svg>"
    )


def _tip(mark: Mark) -> str:
    where = " ".join(x for x in (mark.qualifier, mark.facing) if x)
    said = f"{mark.label} {where}".strip()
    return f"{said}: {mark.quote}" if mark.quote else said


def _inside(box: tuple[float, float, float, float], view: View) -> bool:
    vx, vy, vw, vh = view
    return box[0] >= vx and box[1] >= vy and box[2] <= vx + vw and box[3] <= vy + vh


def _legend(
    actors: bool,
    moves: bool,
    keyed: list[tuple[int, str]],
    x0: float,
    y0: float,
    width: float,
    unit: float,
) -> tuple[str, float]:
    """The band under the plan: the mark, its facing arrow, a movement, north, key numbers."""
    size = LABEL_PX * unit
    row = size * 1.6
    items: list[tuple[str | None, str]] = []
    if actors:
        items.append(("actor", "stands, faces the arrow"))
    if moves:
        items.append(("move", "goes"))
    items.append(("north", "北 north"))
    items += [(None, f"{key} {text}") for key, text in keyed]
    parts = [
        f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(width)}" height="%H%" {_paint("yp-bg")}/>'
        f'<line x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x0 + width)}" y2="{_n(y0)}" '
        f'{_paint(None, "yp-ink")} stroke-width="0.7" vector-effect="non-scaling-stroke"/>'
    ]
    x, y = x0 + size * 0.4, y0 + row
    for symbol, text in items:
        sym_w = 2.2 if symbol is not None else 0.0
        item_w = size * (sym_w + text_width(text)) + size * 0.8
        if x + item_w > x0 + width and x > x0 + size * 0.4:
            x, y = x0 + size * 0.4, y + row
        cy = y - size * 0.35
        if symbol == "actor":
            parts.append(_arrow(x + size * 0.3, cy, 1.0, 0.0, size * 1.4, "ys-actor", False))
            parts.append(
                f'<circle cx="{_n(x + size * 0.3)}" cy="{_n(cy)}" r="{_n(size * 0.3)}" '
                f"{_paint('ys-actor')}/>"
            )
        elif symbol == "move":
            parts.append(_arrow(x, cy, 1.0, 0.0, size * 1.8, "ys-move", True))
        elif symbol == "north":
            s = size * 0.45
            cx = x + size * 0.6
            parts.append(
                f'<path d="M{_n(cx)},{_n(cy - s * 1.3)} L{_n(cx + s * 0.7)},{_n(cy + s)} '
                f'L{_n(cx - s * 0.7)},{_n(cy + s)} Z" {_paint("yp-ink")}/>'
            )
        parts.append(_text(Label(text, x + size * sym_w, y, size)))
        x += item_w
    height = y - y0 + row * 0.6
    return "".join(parts).replace("%H%", _n(height)), height
