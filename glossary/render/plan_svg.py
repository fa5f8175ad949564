"""Deterministic SVG drawings of the hall plan: whole, one place marked, labels that fit.

The drawing is sized for a screen: every label is at least ``MIN_LABEL_PX`` CSS pixels high when the
SVG is shown ``fit`` pixels wide (a phone's Anki card is about 400), and labels are placed so that no
two overlap (a label that finds no room is replaced by a key number explained in the legend).
Colours are presentation attributes (the light drawing) plus classes (``yp-…``) that an embedded
stylesheet repaints at night: under Anki's ``.nightMode``/``.night_mode`` (or a ``yp-dark`` class) on
an ancestor when the SVG is inlined in the card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from glossary.corpus.model import Locus
from glossary.model import Citation, Cited, Place, Plan
from glossary.render.plan_labels import LABEL_PX, Label, layout_labels, text_width
from glossary.vocab import Rite

SCALE = 6
FONT = "Noto Serif CJK TC, Noto Serif CJK SC, Source Han Serif, Songti TC, serif"
INK = "#3b3b3b"
PALE = "#f4efe4"
ACCENT = "#b0001a"
ACCENT_FILL = "#f7d9d9"
BACKGROUND = "#ffffff"
#: Drawing order: large areas first, marks and labels last.
LAYERS = ("area", "wall", "window", "door", "steps", "pillar", "object", "mark")
#: The display width (CSS px) the labels are sized for, and their smallest size there.
FIT_PX = 400
MIN_LABEL_PX = 12
#: The width a printed page shows the whole plan at (about 170 mm): its labels print at about 10 pt.
PRINT_FIT_PX = 640
#: The SVG's intrinsic width (CSS px): never below ``FIT_PX``, so a card scales it down, not up.
WIDTH_PX = 600
#: Light and night colours of each class (fill or stroke, as the element uses it).
CLASSES = {
    "yp-bg": (BACKGROUND, "#1c1c1e"),
    "yp-area": (PALE, "#2b2a27"),
    "yp-ink": (INK, "#e4e4e4"),
    "yp-open": (BACKGROUND, "#1c1c1e"),
    "yp-on": (ACCENT, "#ff8f8f"),
    "yp-on-fill": (ACCENT_FILL, "#5a2328"),
}
KIND_NAMES = {
    "area": "hall, room, court",
    "wall": "wall",
    "steps": "steps",
    "door": "gate, door",
    "window": "window",
    "pillar": "pillar",
    "object": "object",
    "mark": "position",
}


def shown_places(plan: Plan, rite: Rite | None = None) -> tuple[Place, ...]:
    """The places of ``rite``: those of every rite, and those only of this one (all, for None)."""
    return tuple(p for p in plan.places if rite is None or not p.rites or rite in p.rites)


def place_keys(plan: Plan) -> dict[str, int]:
    """Place id → key number, north to south then west to east (the order a reader scans the plan)."""
    order = sorted(plan.places, key=lambda p: (round(p.y + p.h / 2), p.x + p.w / 2, p.id))
    return {p.id: n for n, p in enumerate(order, 1)}


def keyed_sources(
    plan: Plan, plan_cited: Mapping[str, Sequence[Cited]]
) -> list[tuple[int, Place, list[tuple[Citation, Locus]]]]:
    """The sources of a plan page: each place's key number, the place, and its verified citations
    with where each stands (the first place it is found), in key order."""
    keys = place_keys(plan)
    by_id = {p.id: p for p in plan.places}
    out = []
    for place_id, key in sorted(keys.items(), key=lambda item: item[1]):
        place = by_id[place_id]
        found = [(c.citation, c.loci[0]) for c in plan_cited.get(place_id, ()) if c.found]
        out.append((key, place, found))
    return out


def _n(value: float) -> str:
    """Coordinates with at most one decimal, so output bytes never depend on float noise."""
    text = f"{value * SCALE:.1f}"
    text = text[:-2] if text.endswith(".0") else text
    return "0" if text == "-0" else text


def _paint(fill: str | None = None, stroke: str | None = None) -> str:
    """Light colours as attributes, and the classes that repaint them at night."""
    attrs = [f'fill="{CLASSES[fill][0]}"'] if fill else ['fill="none"']
    classes = [f"{fill}-f"] if fill else []
    if stroke:
        attrs.append(f'stroke="{CLASSES[stroke][0]}"')
        classes.append(f"{stroke}-s")
    return " ".join(attrs) + f' class="{" ".join(classes)}"' if classes else " ".join(attrs)


def _style() -> str:
    """Night colours: for Anki's night classes (or ``yp-dark``) on an ancestor."""
    rules = []
    for cls, (_, night) in sorted(CLASSES.items()):
        for attr in ("fill", "stroke"):
            sel = f".{cls}-{attr[0]}"
            rules.append(
                f".yp-dark {sel},.nightMode .yp {sel},.night_mode .yp {sel}{{{attr}:{night}}}"
            )
    return "<style>" + "".join(rules) + "</style>"


def _shape(place: Place, on: bool) -> str:
    line = "yp-on" if on else "yp-ink"
    width = "2.5" if on else "1"
    stroke = f'stroke-width="{width}" vector-effect="non-scaling-stroke"'
    x, y, w, h = _n(place.x), _n(place.y), _n(place.w), _n(place.h)
    if place.kind == "area":
        fill = _paint("yp-on-fill" if on else "yp-area", line)
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" {fill} {stroke}/>'
    if place.kind == "wall":
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" {_paint(line)}/>'
    if place.kind in ("door", "window"):
        dash = ' stroke-dasharray="3 2"' if place.kind == "window" else ""
        fill = _paint("yp-on-fill" if on else "yp-open", line)
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" {fill} {stroke}{dash}/>'
    if place.kind == "steps":
        treads = "".join(
            f'<line x1="{x}" y1="{_n(place.y + place.h * k / 4)}" x2="{_n(place.x + place.w)}" '
            f'y2="{_n(place.y + place.h * k / 4)}" {_paint(None, line)} stroke-width="0.8" '
            f'vector-effect="non-scaling-stroke"/>'
            for k in (1, 2, 3)
        )
        fill = _paint("yp-on-fill" if on else "yp-open", line)
        return f'<g><rect x="{x}" y="{y}" width="{w}" height="{h}" {fill} {stroke}/>{treads}</g>'
    if place.kind == "pillar":
        return f'<circle cx="{x}" cy="{y}" r="{_n(1.4)}" {_paint(line)}/>'
    if place.kind == "object":
        size = 2.4
        fill = _paint("yp-on" if on else "yp-open", line)
        return (
            f'<rect x="{_n(place.x - size / 2)}" y="{_n(place.y - size / 2)}" width="{_n(size)}" '
            f'height="{_n(size)}" {fill} {stroke}/>'
        )
    radius = 1.6 if on else 0.9
    return f'<circle cx="{x}" cy="{y}" r="{_n(radius)}" {_paint(line)}/>'


def _text(label: Label) -> str:
    weight = ' font-weight="700"' if label.bold else ""
    paint = _paint("yp-on" if label.on else "yp-ink", "yp-bg")
    halo = f'stroke-width="{_n(label.size * 0.18)}" paint-order="stroke"'
    return (
        f'<text x="{_n(label.x)}" y="{_n(label.y)}" font-size="{_n(label.size)}" {paint} {halo}{weight}>'
        f"{escape(label.text)}</text>"
    )


def _legend(
    kinds: list[str],
    keyed: tuple[tuple[int, Place], ...],
    highlight: bool,
    x0: float,
    y0: float,
    width: float,
    unit: float,
) -> tuple[str, list[Label], float]:
    """The legend band under the plan: symbols, the marked colour, key numbers; returns SVG, labels, height."""
    size = LABEL_PX * unit
    row = size * 1.6
    items: list[tuple[str | None, str]] = [
        (kind, KIND_NAMES[kind]) for kind in LAYERS if kind in kinds
    ]
    if highlight:
        items.append(("marked", "the place asked about"))
    items.append(("north", "北 north"))
    items += [(None, f"{key} {place.label}") for key, place in keyed]
    parts: list[str] = []
    labels: list[Label] = []
    x, y = x0 + size * 0.4, y0 + row
    for symbol, text in items:
        item_w = size * (1.6 + text_width(text)) + size * 0.8
        if x + item_w > x0 + width and x > x0 + size * 0.4:
            x, y = x0 + size * 0.4, y + row
        if symbol is not None:
            parts.append(_legend_symbol(symbol, x + size * 0.6, y - size * 0.35, size))
        tx = x + (size * 1.6 if symbol is not None else 0)
        label = Label(text, tx, y, size)
        labels.append(label)
        parts.append(_text(label))
        x += item_w
    height = y - y0 + row * 0.6
    return "".join(parts), labels, height


def _legend_symbol(kind: str, cx: float, cy: float, size: float) -> str:
    s = size * 0.45
    if kind == "north":
        return (
            f'<path d="M{_n(cx)},{_n(cy - s * 1.3)} L{_n(cx + s * 0.7)},{_n(cy + s)} L{_n(cx - s * 0.7)},'
            f'{_n(cy + s)} Z" {_paint("yp-ink")}/>'
        )
    if kind == "marked":
        return (
            f'<rect x="{_n(cx - s)}" y="{_n(cy - s * 0.7)}" width="{_n(2 * s)}" height="{_n(1.4 * s)}" '
            f'{_paint("yp-on-fill", "yp-on")} stroke-width="2.5" vector-effect="non-scaling-stroke"/>'
        )
    sample = {
        "area": Place("legend", "", "area", cx - s, cy - s * 0.7, 0, w=2 * s, h=1.4 * s),
        "wall": Place("legend", "", "wall", cx - s, cy - s * 0.2, 0, w=2 * s, h=0.4 * s),
        "steps": Place("legend", "", "steps", cx - s * 0.8, cy - s * 0.7, 0, w=1.6 * s, h=1.4 * s),
        "door": Place("legend", "", "door", cx - s, cy - s * 0.35, 0, w=2 * s, h=0.7 * s),
        "window": Place("legend", "", "window", cx - s, cy - s * 0.35, 0, w=2 * s, h=0.7 * s),
    }.get(kind)
    if sample is not None:
        return _shape(sample, False)
    # Points are drawn at their size on a whole plan, whatever the window the legend sits under.
    if kind == "pillar":
        return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(s * 0.6)}" {_paint("yp-ink")}/>'
    if kind == "object":
        return (
            f'<rect x="{_n(cx - s * 0.5)}" y="{_n(cy - s * 0.5)}" width="{_n(s)}" height="{_n(s)}" '
            f'{_paint("yp-open", "yp-ink")} stroke-width="1" vector-effect="non-scaling-stroke"/>'
        )
    return f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(s * 0.4)}" {_paint("yp-ink")}/>'


def render_svg(
    plan: Plan,
    highlight: str | None = None,
    title: str = "Hall plan",
    labels: bool = True,
    *,
    label_marked: bool = True,
    numbers: dict[str, int] | None = None,
    fit: float = FIT_PX,
    unlabelled: frozenset[str] = frozenset(),
) -> str:
    """The plan as SVG; ``highlight`` names a place drawn in the accent colour; ``unlabelled``
    names other places drawn without their label (a card's front leaves out the marked place's
    mirror twin too).

    ``label_marked=False`` (or the older ``labels=False``) leaves out the marked place's label, for the
    front of a "which place is this?" card. ``numbers`` (see :func:`place_keys`) puts each place's key
    number before its label, for a page that lists the sources by number. A legend under the plan
    keys the symbols (and the names that found no room). Labels are at least ``MIN_LABEL_PX`` CSS px high when
    the SVG is shown ``fit`` px wide (the SVG's own width is ``WIDTH_PX``: a card only shrinks it).
    """
    label_marked = label_marked and labels
    places = plan.places
    view = (0.0, 0.0, plan.width, plan.height)
    vx, vy, vw, vh = view
    unit = vw / fit
    layout = layout_labels(places, view, highlight, label_marked, fit, numbers, unlabelled)
    drawn = sorted(places, key=lambda p: (LAYERS.index(p.kind), -(p.w * p.h), p.id))
    shapes = [_shape(p, p.id == highlight) for p in drawn]
    leaders = [
        f'<line x1="{_n(a)}" y1="{_n(b)}" x2="{_n(c)}" y2="{_n(d)}" {_paint(None, "yp-ink")} '
        f'stroke-width="0.7" vector-effect="non-scaling-stroke"/>'
        for a, b, c, d in layout.leaders
    ]
    texts = [_text(label) for label in layout.labels]
    kinds = sorted({p.kind for p in places})
    legend_svg, _, legend_h = _legend(
        kinds, layout.keyed, highlight is not None, vx, vy + vh, vw, unit
    )
    # The band is painted over the plan's ground, and a rule sets it apart.
    legend_svg = (
        f'<rect x="{_n(vx)}" y="{_n(vy + vh)}" width="{_n(vw)}" height="{_n(legend_h)}" '
        f'{_paint("yp-bg")}/><line x1="{_n(vx)}" y1="{_n(vy + vh)}" x2="{_n(vx + vw)}" '
        f'y2="{_n(vy + vh)}" {_paint(None, "yp-ink")} stroke-width="0.7" '
        f'vector-effect="non-scaling-stroke"/>' + legend_svg
    )
    total_h = vh + legend_h
    # From the rounded viewBox, so that the element's aspect ratio is the drawing's (no letterbox).
    height_px = WIDTH_PX * float(_n(total_h)) / float(_n(vw))
    box = f"{_n(vx)} {_n(vy)} {_n(vw)} {_n(total_h)}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="yp" viewBox="{box}" width="{WIDTH_PX}" '
        f'height="{height_px:.1f}" lang="zh-Hant" role="img" aria-label={quoteattr(title)} '
        f"font-family={quoteattr(FONT)}>"
        f"<title>{escape(title)}</title>{_style()}"
        f'<rect x="{_n(vx)}" y="{_n(vy)}" width="{_n(vw)}" height="{_n(total_h)}" {_paint("yp-bg")}/>'
        + "".join(shapes)
        + "".join(leaders)
        + "".join(texts)
        + legend_svg
        + "</svg>"
    )
