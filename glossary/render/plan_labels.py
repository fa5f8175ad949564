"""Where the hall plan's labels go: each beside its place, none over another or over a symbol,
at least ``plan_svg.MIN_LABEL_PX`` CSS px high at the width shown; a name with no room becomes a key
number.

Sizes are in plan units; the drawing (:mod:`glossary.render.plan_svg`) is ``fit`` CSS px wide.
"""

from __future__ import annotations

import heapq
import math
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from glossary.model import Place

#: Label sizes (CSS px at the width shown): a place's name, the marked place's.
LABEL_PX = 13
MARKED_PX = 15
#: The positions tried for one label (the shipped plan's labels find room within 15, the tests'
#: crowded plan's within 300): a label's work is bounded however crowded or large the plan.
MAX_TRIES = 400
#: And all the labels of one drawing together (a drawing of the shipped plan tries at most 1,271,
#: of the tests' crowded plan 3,611): an Anki build draws the whole plan twice for each place, so
#: this bounds it by the places, however they lie. Labels past it take the last resort.
MAX_DRAWING_TRIES = 6000


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


Box = tuple[float, float, float, float]


class _Grid:
    """Boxes in cells of a square grid: the boxes a box may overlap are those of the cells it
    covers, so placing n labels costs about n look-ups, not n² comparisons (a plan of a thousand
    places took minutes a drawing)."""

    #: A box over more cells than this (a long wall) is kept aside and compared every time.
    MAX_CELLS = 64

    def __init__(self, cell: float):
        self.cell = cell
        self.cells: dict[tuple[int, int], list[tuple[Box, str | None]]] = {}
        self.large: list[tuple[Box, str | None]] = []

    def _span(self, box: Box) -> tuple[range, range]:
        c = self.cell
        return (
            range(math.floor(box[0] / c), math.floor(box[2] / c) + 1),
            range(math.floor(box[1] / c), math.floor(box[3] / c) + 1),
        )

    def add(self, box: Box, owner: str | None = None) -> None:
        xs, ys = self._span(box)
        if len(xs) * len(ys) > self.MAX_CELLS:
            self.large.append((box, owner))
            return
        for i in xs:
            for j in ys:
                self.cells.setdefault((i, j), []).append((box, owner))

    def overlaps(self, box: Box, pad: float = 0.0, skip: str | None = None) -> bool:
        """Whether ``box`` overlaps (closer than ``pad``) a box here not owned by ``skip``."""
        for other, owner in self.large:
            if (skip is None or owner != skip) and _overlaps(box, other, pad):
                return True
        xs, ys = self._span((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad))
        if len(xs) * len(ys) > 4 * self.MAX_CELLS:
            # A box wider than the grid is fine-grained (a legend-sized label on a cropped window):
            # every box compared once.
            seen = {id(entry): entry for entries in self.cells.values() for entry in entries}
            return any(
                (skip is None or owner != skip) and _overlaps(box, other, pad)
                for other, owner in seen.values()
            )
        for i in xs:
            for j in ys:
                for other, owner in self.cells.get((i, j), ()):
                    if (skip is None or owner != skip) and _overlaps(box, other, pad):
                        return True
        return False


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
    first: frozenset[str] = frozenset(),
) -> Layout:
    """Place one label per visible place so that none overlaps another or covers a symbol
    (``unlabelled``: places drawn without their label; ``first``: places labelled before the
    rest, after the marked one: a stage plan's actors)."""
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
        key=lambda p: (
            p.id != highlight,
            p.id not in first,
            p.kind == "area",
            p.w * p.h,
            p.y,
            p.x,
            p.id,
        ),
    )
    placed: list[Label] = []
    # Label boxes and symbols by grid cell (a cell about a label's height at the fitted width).
    taken, symbol_grid = _Grid(LABEL_PX * unit), _Grid(LABEL_PX * unit)
    # The positions all labels of this drawing may try (one list, shared by every _fit call).
    budget = [MAX_DRAWING_TRIES]
    for pid, box in symbols.items():
        symbol_grid.add(box, pid)
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
                taken,
                symbols,
                symbol_grid,
                inside,
                near_only=True,
                clear=None if on else keep_clear,
                budget=budget,
            )
            if found is not None:
                placed.append(Label(text, found[0], found[1], size, place.id, bold=on, on=on))
                taken.add(placed[-1].box)
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
                taken,
                symbols,
                symbol_grid,
                inside,
                anywhere=anywhere,
                strict=strict,
                clear=None if on else keep_clear,
                budget=budget,
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
        taken.add(label.box)
        if far:
            leaders.append(_leader(place, label.box))
    return Layout(tuple(placed), tuple(leaders), tuple(keyed))


def _nearest(
    place: Place, width: float, size: float, inside: tuple
) -> list[tuple[float, float, bool]]:
    """Positions on a half-size grid within ten sizes of the place, nearest first (with a leader):
    the first :data:`MAX_TRIES`, all that :func:`_fit` looks at."""
    return _spots(place.x + place.w / 2, place.y + place.h / 2, width, size, tuple(inside))


@lru_cache(maxsize=1024)  # places drawn on one spot (or a drawing made twice) ask again
def _spots(
    cx: float, cy: float, width: float, size: float, inside: tuple[float, ...]
) -> list[tuple[float, float, bool]]:
    step, reach = size / 2, (10 * size) ** 2
    spots = []
    bottom, right = min(inside[3], cy + 11 * size), min(inside[2], cx + 10 * size + width)
    y = max(inside[1] + 0.88 * size, cy - 10 * size)
    while y + 0.12 * size <= bottom:
        x = max(inside[0], cx - 10 * size - width)
        dy = (y - size / 2 - cy) ** 2
        while x + width <= right:
            distance = (x + width / 2 - cx) ** 2 + dy
            if distance <= reach:
                spots.append((distance, x, y))
            x += step
        y += step
    return [(x, y, True) for _, x, y in heapq.nsmallest(MAX_TRIES, spots)]


def _fit(
    place: Place,
    text: str,
    size: float,
    taken: _Grid,
    symbols: dict,
    symbol_grid: _Grid,
    inside: tuple,
    anywhere: bool = False,
    strict: bool = True,
    near_only: bool = False,
    clear: tuple[float, float, float, float] | None = None,
    budget: list[int] | None = None,
) -> tuple[float, float, bool] | None:
    budget = budget if budget is not None else [MAX_TRIES]
    width = size * text_width(text)
    candidates = (
        _nearest(place, width, size, inside) if anywhere else _candidates(place, width, size)
    )
    for tried, (x, y, far) in enumerate(candidates):
        if tried == MAX_TRIES or budget[0] <= 0:
            return None  # a crowded plan: the label takes a key number, or the last resort
        budget[0] -= 1
        if near_only and far:
            continue
        box = (x, y - 0.88 * size, x + width, y + 0.12 * size)
        if box[0] < inside[0] or box[1] < inside[1] or box[2] > inside[2] or box[3] > inside[3]:
            continue
        if clear is not None and _overlaps(box, clear):
            continue
        if taken.overlaps(box, pad=size * 0.3):
            continue
        if strict and symbol_grid.overlaps(box, skip=place.id):
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
