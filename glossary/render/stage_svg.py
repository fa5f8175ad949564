"""A stage plan: one step of a rite drawn on the hall plan, every actor where the text puts him.

Each actor is a labelled mark (his headword) at his place, with an arrow the way he faces; a
group placed in a row (``東上``, ``西上``) or a column (``北上``, ``南上``) is a short row of marks,
the senior end larger; a movement is a dashed arrow from the place he leaves to where he goes.
Labels are placed by :mod:`glossary.render.plan_labels` with the plan's own (none over another
or over a symbol, at least ``MIN_LABEL_PX`` CSS px high at the width ``fit``), the actors' first.
Colours are the plan's (presentation attributes for the light drawing, ``yp-…``/``ys-…`` classes
repainted at night under Anki's night classes or ``yp-dark``, and, with ``auto_dark``, under the
reader's ``prefers-color-scheme: dark`` on screen).

:func:`render_step` draws one step from the :class:`~glossary.render.stage_layout.Mark` s and
:class:`~glossary.render.stage_layout.Move` s that :mod:`glossary.render.stage_layout` resolves.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from glossary.model import Place, Plan
from glossary.render.plan_labels import LABEL_PX, Label, layout_labels, text_width
from glossary.render.plan_svg import CLASSES, FIT_PX, FONT, LAYERS, SCALE, WIDTH_PX
from glossary.render.plan_svg import _shape as plan_shape
from glossary.render.stage_layout import ARROW, DOT, Drawn, Mark, Move, View, anchor, resolve

#: Light and night colours of the stage's own classes (the plan's are ``plan_svg.CLASSES``).
STAGE_CLASSES = {
    "ys-actor": ("#1f4f9f", "#8fb4ff"),
    "ys-move": ("#8a4b00", "#f0c58e"),
}
ALL_CLASSES = {**CLASSES, **STAGE_CLASSES}


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
    """The night colours of a stage plan (and the plan under it) as a ``<style>``: under Anki's
    night classes or a ``yp-dark`` ancestor; with ``auto_dark`` also on a dark screen
    (``prefers-color-scheme``; print stays light). One serves every stage plan of a page."""
    return "<style>" + stage_css(auto_dark) + "</style>"


def stage_css(auto_dark: bool = False) -> str:
    """The rules of :func:`stage_style`, for a page's own stylesheet."""
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
    return css


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


def _actor_svg(d: Drawn) -> str:
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
    legend: bool = True,
) -> str:
    """One step as SVG: the hall plan (within ``view``, plan units x, y, w, h; the whole plan by
    default) with every mark and move drawn and labelled.

    ``named`` lists other places whose names are written (besides the areas, steps and gates, and
    the places the step's marks and moves name: a section's places, so that its steps read alike); ``link(mark)`` gives a link for a mark (its dot and label become
    an ``<a>``); every mark carries its passage as a ``<title>``. Labels are at least
    ``MIN_LABEL_PX`` CSS px high when the SVG is shown ``fit`` px wide; a name with no room becomes
    a key number explained in the legend. ``style=False`` leaves out the ``<style>`` (a page with
    many stage plans gives :func:`stage_style` once); ``auto_dark`` repaints on a dark screen;
    ``legend=False`` leaves the symbols out of the legend (a page that explains them once), which
    then holds only the names shown by key number, if any.
    """
    vx, vy, vw, vh = view if view is not None else (0.0, 0.0, plan.width, plan.height)
    unit = vw / fit

    def visible(p: Place) -> bool:
        return p.x + p.w >= vx and p.x <= vx + vw and p.y + p.h >= vy and p.y <= vy + vh

    places = tuple(p for p in plan.places if visible(p))
    drawn = [d for d in resolve(plan, marks) if _inside(d.box, (vx, vy, vw, vh))]
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
        if link is not None:
            # A target a finger finds (22 CSS px across at the fitted width), unpainted.
            x, y = d.dots[0]
            body = (
                f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(max(DOT, 11 * unit))}" fill="none" '
                f'pointer-events="all"/>' + body
            )
        if i in actor_labels:
            body += _text(actor_labels[i], "ys-actor")
        tip = f"<title>{escape(_tip(d.mark))}</title>"
        href = link(d.mark) if link is not None else None
        if href:
            actors.append(f'<a href={quoteattr(href)} class="ys-mark">{tip}{body}</a>')
        else:
            actors.append(f'<g class="ys-mark">{tip}{body}</g>')
    keyed = [(key, place.label) for key, place in layout.keyed]
    if legend or keyed:
        legend_svg, legend_h = _legend(
            legend and bool(drawn), legend and any(move_svg), legend, keyed, vx, vy + vh, vw, unit
        )
    else:
        legend_svg, legend_h = "", 0.0
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
    north: bool,
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
    if north:
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
