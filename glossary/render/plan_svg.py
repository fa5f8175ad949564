"""Deterministic SVG drawings of the hall plan, whole or with one place highlighted."""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from glossary.model import Place, Plan

SCALE = 6
FONT = "Noto Serif CJK TC, Noto Serif CJK SC, Source Han Serif, Songti TC, serif"
INK = "#3b3b3b"
PALE = "#f4efe4"
ACCENT = "#b0001a"
ACCENT_FILL = "#f7d9d9"
#: Drawing order: large areas first, marks and labels last.
LAYERS = ("area", "wall", "window", "door", "steps", "pillar", "object", "mark")


def _n(value: float) -> str:
    """Coordinates with at most one decimal, so output bytes never depend on float noise."""
    text = f"{value * SCALE:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _shape(place: Place, on: bool) -> str:
    stroke = ACCENT if on else INK
    width = "2.5" if on else "1"
    x, y, w, h = _n(place.x), _n(place.y), _n(place.w), _n(place.h)
    if place.kind == "area":
        fill = ACCENT_FILL if on else PALE
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
    if place.kind == "wall":
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{stroke}"/>'
    if place.kind in ("door", "window"):
        dash = ' stroke-dasharray="3 2"' if place.kind == "window" else ""
        return (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" fill="#ffffff" stroke="{stroke}" '
                f'stroke-width="{width}"{dash}/>')
    if place.kind == "steps":
        treads = "".join(
            f'<line x1="{x}" y1="{_n(place.y + place.h * k / 4)}" x2="{_n(place.x + place.w)}" '
            f'y2="{_n(place.y + place.h * k / 4)}" stroke="{stroke}" stroke-width="0.8"/>'
            for k in (1, 2, 3)
        )
        fill = ACCENT_FILL if on else "#ffffff"
        return (f'<g><rect x="{x}" y="{y}" width="{w}" height="{h}" fill="{fill}" stroke="{stroke}" '
                f'stroke-width="{width}"/>{treads}</g>')
    if place.kind == "pillar":
        return f'<circle cx="{x}" cy="{y}" r="{_n(1.4)}" fill="{stroke}"/>'
    if place.kind == "object":
        size = 2.4
        fill = ACCENT if on else "#ffffff"
        return (f'<rect x="{_n(place.x - size / 2)}" y="{_n(place.y - size / 2)}" width="{_n(size)}" '
                f'height="{_n(size)}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>')
    radius = 1.6 if on else 0.9
    return f'<circle cx="{x}" cy="{y}" r="{_n(radius)}" fill="{stroke}"/>'


def _label(place: Place, on: bool) -> str:
    if place.kind == "area":
        x, y, anchor = place.x + 1.2, place.y + 4, "start"
    elif place.kind in ("wall",):
        x, y, anchor = place.x + place.w / 2, place.y + place.h + 3.5, "middle"
    elif place.kind in ("door", "window", "steps"):
        x, y, anchor = place.x + place.w / 2, place.y - 0.8 if place.kind != "steps" else place.y + place.h + 3.5, "middle"
    else:
        x, y, anchor = place.x + 2.2, place.y + 1.2, "start"
    weight = ' font-weight="700"' if on else ""
    colour = ACCENT if on else INK
    size = "17" if on else "13"
    return (f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" font-size="{size}" fill="{colour}"{weight}>'
            f"{escape(place.label)}</text>")


def render_svg(plan: Plan, highlight: str | None = None, title: str = "Hall plan", labels: bool = True) -> str:
    """The plan as SVG; ``highlight`` names a place drawn in the accent colour.

    With ``labels=False`` the highlighted place's label is left out (for "where is it?" cards).
    """
    places = sorted(plan.places, key=lambda p: (LAYERS.index(p.kind), -(p.w * p.h), p.id))
    shapes = [_shape(p, p.id == highlight) for p in places]
    texts = [_label(p, p.id == highlight) for p in places if labels or p.id != highlight]
    width, height = _n(plan.width), _n(plan.height)
    compass = (f'<text x="{_n(plan.width - 2)}" y="{_n(3)}" text-anchor="end" font-size="12" fill="{INK}">'
               "北 N ↑</text>")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" lang="zh-Hant" role="img" aria-label={quoteattr(title)} '
        f'font-family={quoteattr(FONT)}>'
        f"<title>{escape(title)}</title>"
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>'
        + "".join(shapes) + "".join(texts) + compass + "</svg>"
    )
