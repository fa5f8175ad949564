"""Deterministic SVG drawings of the hall plan: whole or cropped, one place marked, labels that fit.

The drawing is sized for a screen: every label is at least ``MIN_LABEL_PX`` CSS pixels high when the
SVG is shown ``fit`` pixels wide (a phone's Anki card is about 400), and labels are placed so that no
two overlap (a label that finds no room is replaced by a key number explained in the legend).
Colours are presentation attributes (the light drawing) plus classes (``yp-…``) that an embedded
stylesheet repaints in the night variant: ``night=True``, or Anki's ``.nightMode``/``.night_mode`` on
an ancestor when the SVG is inlined in the card.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from xml.sax.saxutils import escape, quoteattr

from glossary.corpus.model import Locus
from glossary.model import Citation, Place, Plan
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
LABEL_PX = 13
MARKED_PX = 15
#: The width a printed page shows the whole plan at (about 170 mm): its labels print at about 10 pt.
PRINT_FIT_PX = 640
#: The width a printed entry's cropped plan is sized for (55 mm figures: labels of about 8 pt).
ENTRY_FIT_PX = 240
#: The SVG's intrinsic width (CSS px): never below ``FIT_PX``, so a card scales it down, not up.
WIDTH_PX = 600
#: Crop: this many plan units around the marked place, and never a window narrower than this.
CROP_MARGIN = 18.0
CROP_MIN_WIDTH = 64.0
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


@dataclass(frozen=True)
class Label:
    """A text drawn on the plan: its box in plan units (x0, y0, x1, y1), baseline start and size."""

    text: str
    x: float
    y: float
    size: float
    place_id: str | None = None
    bold: bool = False
    on: bool = False

    @cached_property  # asked for thousands of times while the labels are placed
    def box(self) -> tuple[float, float, float, float]:
        right = self.x + self.size * text_width(self.text)
        return (self.x, self.y - 0.88 * self.size, right, self.y + 0.12 * self.size)


def text_width(text: str) -> float:
    """Advance of ``text`` in ems: a CJK character is one em, anything else at most 0.62 (checked in a browser)."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.62 for c in text)


def shown_places(plan: Plan, rite: Rite | None = None) -> tuple[Place, ...]:
    """The places drawn for ``rite``: those of every rite, and those only of this one."""
    return tuple(p for p in plan.places if rite is None or not p.rites or rite in p.rites)


def place_keys(plan: Plan, rite: Rite | None = None) -> dict[str, int]:
    """Place id → key number, north to south then west to east (the order a reader scans the plan)."""
    order = sorted(
        shown_places(plan, rite), key=lambda p: (round(p.y + p.h / 2), p.x + p.w / 2, p.id)
    )
    return {p.id: n for n, p in enumerate(order, 1)}


def keyed_sources(
    plan: Plan, plan_loci: Mapping[str, Sequence[Sequence[Locus]]], rite: Rite | None = None
) -> list[tuple[int, Place, list[tuple[Citation, Locus]]]]:
    """The sources of a plan page: each place's key number, the place, and its verified citations
    with where each stands (the first place it is found), in key order."""
    keys = place_keys(plan, rite)
    by_id = {p.id: p for p in plan.places}
    out = []
    for place_id, key in sorted(keys.items(), key=lambda item: item[1]):
        place = by_id[place_id]
        found = [
            (c, loci[0]) for c, loci in zip(place.citations, plan_loci.get(place_id, ())) if loci
        ]
        out.append((key, place, found))
    return out


def crop_box(
    plan: Plan, place_id: str, margin: float = CROP_MARGIN
) -> tuple[float, float, float, float]:
    """The window (x, y, w, h) around one place that a cropped drawing shows, inside the plan."""
    place = next(p for p in plan.places if p.id == place_id)
    x0, y0 = place.x - margin, place.y - margin
    x1, y1 = place.x + place.w + margin, place.y + place.h + margin
    if x1 - x0 < CROP_MIN_WIDTH:
        grow = (CROP_MIN_WIDTH - (x1 - x0)) / 2
        x0, x1 = x0 - grow, x1 + grow
    if y1 - y0 < CROP_MIN_WIDTH * 0.75:
        grow = (CROP_MIN_WIDTH * 0.75 - (y1 - y0)) / 2
        y0, y1 = y0 - grow, y1 + grow
    w, h = min(x1 - x0, plan.width), min(y1 - y0, plan.height)
    x0 = min(max(x0, 0.0), plan.width - w)
    y0 = min(max(y0, 0.0), plan.height - h)
    return (x0, y0, w, h)


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
    """Night colours: for the night variant and for Anki's night classes on an ancestor."""
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


def _symbol_box(place: Place) -> tuple[float, float, float, float] | None:
    """What a label must not cover: the drawn symbol of a point, door, window or steps."""
    if place.kind in ("pillar", "object", "mark"):
        r = 1.6
        return (place.x - r, place.y - r, place.x + r, place.y + r)
    if place.kind in ("door", "window", "steps"):
        return (place.x, place.y, place.x + place.w, place.y + place.h)
    return None


def _overlaps(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float], pad: float = 0.0
) -> bool:
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def _candidates(place: Place, width: float, size: float) -> Iterable[tuple[float, float, bool]]:
    """Baseline starts (x, y) for a label ``width`` × ``size``, best first; True where a leader line is needed."""
    asc, desc = 0.88 * size, 0.12 * size
    if place.kind == "area":
        # Inside the area first, scanning from its north-west corner.
        pad = min(1.0, size * 0.25)
        step = size / 4
        rows = max(int((place.h - size - 2 * pad) // step) + 1, 0)
        cols = max(int((place.w - width - 2 * pad) // step) + 1, 0)
        if rows and cols:
            # The corners first (where a reader looks for an area's name), then anywhere inside.
            for r, c in ((0, 0), (rows - 1, 0), (0, cols - 1), (rows - 1, cols - 1)):
                yield place.x + pad + c * step, place.y + pad + asc + r * step, False
        for r in range(rows):
            for c in range(cols):
                yield place.x + pad + c * step, place.y + pad + asc + r * step, False
    cx, cy = place.x + place.w / 2, place.y + place.h / 2
    hw, hh = place.w / 2, place.h / 2
    wide = place.w >= place.h
    for ring, gap in enumerate(
        (size * 0.3 + 1.4, size * 0.9 + 1.4, size * 1.6 + 1.4, size * 2.4 + 1.4)
    ):
        far = ring > 0 or place.kind == "area"
        right = (cx + hw + gap, cy + asc - size / 2, far)
        left = (cx - hw - gap - width, cy + asc - size / 2, far)
        above = (cx - width / 2, cy - hh - gap - desc, far)
        below = (cx - width / 2, cy + hh + gap + asc, far)
        yield from (
            (below, above, right, left)
            if wide and place.kind != "pillar" and place.kind != "mark" and place.kind != "object"
            else (right, left, above, below)
        )
        yield cx + hw + gap * 0.7, cy - hh - gap * 0.7 - desc, far  # above right
        yield cx - hw - gap * 0.7 - width, cy - hh - gap * 0.7 - desc, far  # above left
        yield cx + hw + gap * 0.7, cy + hh + gap * 0.7 + asc, far  # below right
        yield cx - hw - gap * 0.7 - width, cy + hh + gap * 0.7 + asc, far  # below left


@dataclass(frozen=True)
class Layout:
    """Where every label goes: the labels, their leader lines, and the places shown by key number."""

    labels: tuple[Label, ...]
    leaders: tuple[tuple[float, float, float, float], ...]
    keyed: tuple[tuple[int, Place], ...]


def layout_labels(
    places: tuple[Place, ...],
    view: tuple[float, float, float, float],
    highlight: str | None,
    label_marked: bool,
    fit: float,
    numbers: dict[str, int] | None = None,
    unlabelled: frozenset[str] = frozenset(),
) -> Layout:
    """Place one label per visible place so that none overlaps another or covers a symbol."""
    vx, vy, vw, vh = view
    unit = vw / fit  # plan units per CSS pixel at the fitted width
    edge = 0.3 * unit  # a third of a pixel, so that rounding the output never pushes a label out
    inside = (vx + edge, vy + edge, vx + vw - edge, vy + vh - edge)

    def visible(p: Place) -> bool:
        return p.x + p.w >= vx and p.x <= vx + vw and p.y + p.h >= vy and p.y <= vy + vh

    shown = [p for p in places if visible(p)]
    symbols = {p.id: box for p in shown if (box := _symbol_box(p)) is not None}
    # Around a marked point, door or steps no other name is written: on a card's front, a name
    # beside the marked shape would read as its answer.
    keep_clear = None
    marked = next((p for p in shown if p.id == highlight), None)
    if marked is not None and marked.kind != "area":
        margin = LABEL_PX * unit * 0.6
        x0, y0, x1, y1 = symbols.get(marked.id) or (
            marked.x,
            marked.y,
            marked.x + marked.w,
            marked.y + marked.h,
        )
        keep_clear = (x0 - margin, y0 - margin, x1 + margin, y1 + margin)
    order = sorted(
        (p for p in shown if (label_marked or p.id != highlight) and p.id not in unlabelled),
        key=lambda p: (p.id != highlight, p.kind == "area", p.w * p.h, p.y, p.x, p.id),
    )
    placed: list[Label] = []
    leaders: list[tuple[float, float, float, float]] = []
    keyed: list[tuple[int, Place]] = []
    for place in order:
        on = place.id == highlight
        size = (MARKED_PX if on else LABEL_PX) * unit
        text = place.label if numbers is None else f"{numbers[place.id]} {place.label}"
        if place.kind == "area" and not _within(place, inside):
            # An area the window cuts is context: named inside its visible part, or not at all.
            part = replace(
                place,
                x=max(place.x, inside[0]),
                y=max(place.y, inside[1]),
                w=min(place.x + place.w, inside[2]) - max(place.x, inside[0]),
                h=min(place.y + place.h, inside[3]) - max(place.y, inside[1]),
            )
            found = _fit(
                part,
                text,
                size,
                placed,
                symbols,
                inside,
                near_only=True,
                clear=None if on else keep_clear,
            )
            if found is not None:
                placed.append(Label(text, found[0], found[1], size, place.id, bold=on, on=on))
            continue
        name = text
        key_text = str(len(keyed) + 1) if numbers is None else str(numbers[place.id])
        # Best first: the name clear of every symbol; else a key number clear of them (the name goes
        # to the legend); else either one over a symbol (never over another label).
        attempts = [(name, True, False)]
        if not on:
            attempts += [(key_text, True, False), (key_text, True, True)]
        attempts += [(name, False, False)] + (
            [(key_text, False, False), (key_text, False, True)] if not on else []
        )
        found = None
        for text, strict, anywhere in attempts:
            found = _fit(
                place,
                text,
                size,
                placed,
                symbols,
                inside,
                anywhere=anywhere,
                strict=strict,
                clear=None if on else keep_clear,
            )
            if found is not None:
                if text is key_text:
                    keyed.append((int(key_text), place))
                break
        else:
            text = name
        if found is None:
            # Last resort, so that the drawing is whole: the first candidate (the tests report the clash).
            x, y, _ = next(iter(_candidates(place, size * text_width(text), size)))
            found = (x, y, False)
        x, y, far = found
        label = Label(text, x, y, size, place.id, bold=on, on=on)
        placed.append(label)
        if far:
            leaders.append(_leader(place, label.box))
    return Layout(tuple(placed), tuple(leaders), tuple(keyed))


def _nearest(
    place: Place, width: float, size: float, inside: tuple
) -> list[tuple[float, float, bool]]:
    """Positions on a half-size grid within ten sizes of the place, nearest first (with a leader)."""
    cx, cy = place.x + place.w / 2, place.y + place.h / 2
    step, reach = size / 2, (10 * size) ** 2
    spots = []
    y = max(inside[1] + 0.88 * size, cy - 10 * size)
    while y + 0.12 * size <= min(inside[3], cy + 11 * size):
        x = max(inside[0], cx - 10 * size - width)
        while x + width <= min(inside[2], cx + 10 * size + width):
            distance = (x + width / 2 - cx) ** 2 + (y - size / 2 - cy) ** 2
            if distance <= reach:
                spots.append((distance, x, y))
            x += step
        y += step
    return [(x, y, True) for _, x, y in sorted(spots)]


def _fit(
    place: Place,
    text: str,
    size: float,
    placed: list[Label],
    symbols: dict,
    inside: tuple,
    anywhere: bool = False,
    strict: bool = True,
    near_only: bool = False,
    clear: tuple[float, float, float, float] | None = None,
) -> tuple[float, float, bool] | None:
    width = size * text_width(text)
    candidates = (
        _nearest(place, width, size, inside) if anywhere else _candidates(place, width, size)
    )
    for x, y, far in candidates:
        if near_only and far:
            continue
        box = (x, y - 0.88 * size, x + width, y + 0.12 * size)
        if box[0] < inside[0] or box[1] < inside[1] or box[2] > inside[2] or box[3] > inside[3]:
            continue
        if clear is not None and _overlaps(box, clear):
            continue
        if any(_overlaps(box, other.box, pad=size * 0.3) for other in placed):
            continue
        if strict and any(_overlaps(box, s) for pid, s in symbols.items() if pid != place.id):
            continue
        if (
            strict
            and place.id in symbols
            and place.kind != "area"
            and _overlaps(box, symbols[place.id])
        ):
            continue
        return x, y, far
    return None


def _within(place: Place, inside: tuple[float, float, float, float]) -> bool:
    return (
        place.x >= inside[0]
        and place.y >= inside[1]
        and place.x + place.w <= inside[2]
        and place.y + place.h <= inside[3]
    )


def _leader(
    place: Place, box: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """A line from the place (for an area, a point just inside it) to the nearest point of its label's box."""
    lx, ly = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    if place.kind == "area":
        inset_x, inset_y = min(1.5, place.w / 2), min(1.5, place.h / 2)
        px = min(max(lx, place.x + inset_x), place.x + place.w - inset_x)
        py = min(max(ly, place.y + inset_y), place.y + place.h - inset_y)
    else:
        px, py = place.x + place.w / 2, place.y + place.h / 2
    return (px, py, min(max(px, box[0]), box[2]), min(max(py, box[1]), box[3]))


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
    crop: bool = False,
    legend: bool = True,
    night: bool = False,
    rite: Rite | None = None,
    numbers: dict[str, int] | None = None,
    fit: float = FIT_PX,
    unlabelled: frozenset[str] = frozenset(),
) -> str:
    """The plan as SVG; ``highlight`` names a place drawn in the accent colour.

    ``label_marked=False`` (or the older ``labels=False``) leaves out the marked place's label, for the
    front of a "which place is this?" card. ``crop`` shows only the part around the marked place;
    ``rite`` only the places of that rite; ``numbers`` (see :func:`place_keys`) puts each place's key
    number before its label, for a page that lists the sources by number. ``legend`` adds a key to the
    symbols; ``night`` draws the night colours; ``unlabelled`` names other places drawn without
    their label (a card's front leaves out the marked place's mirror twin too). Labels are at least ``MIN_LABEL_PX`` CSS px high when
    the SVG is shown ``fit`` px wide (the SVG's own width is ``WIDTH_PX``: a card only shrinks it).
    """
    label_marked = label_marked and labels
    places = shown_places(plan, rite)
    if highlight is not None and not any(p.id == highlight for p in places):
        places = shown_places(plan) if any(p.id == highlight for p in plan.places) else places
    view = (
        crop_box(plan, highlight)
        if crop and highlight is not None
        else (0.0, 0.0, plan.width, plan.height)
    )
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
    legend_svg, legend_h = "", 0.0
    if legend:
        kinds = sorted({p.kind for p in places})
        legend_svg, _, legend_h = _legend(
            kinds, layout.keyed, highlight is not None, vx, vy + vh, vw, unit
        )
        # The band covers whatever a cropped drawing has below its window, and a rule sets it apart.
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
    root_class = "yp yp-dark" if night else "yp"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="{root_class}" viewBox="{box}" width="{WIDTH_PX}" '
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
