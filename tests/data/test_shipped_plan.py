"""The shipped hall plan (plan.yaml): the places every rite needs, and drawings that a phone can read.

Every drawing the cards and the book use is rendered and measured: each label at least 12 CSS px
when the SVG is 400 px wide, no two labels overlapping (boxes computed from the SVG itself).
"""

from __future__ import annotations

import pytest
from conftest import SHIPPED_CORPUS, SHIPPED_PLAN, SHIPPED_TERMS
from plan_geometry import outside, overlapping, text_boxes

from glossary.check import check_project
from glossary.model import Plan
from glossary.plan import load_plan
from glossary.render.plan_svg import (
    MIN_LABEL_PX,
    PRINT_FIT_PX,
    place_keys,
    render_svg,
    shown_places,
)
from glossary.vocab import vocabulary

#: The places the seventeen rites need beyond the archery ground (issue 18).
NEEDED = (
    "大門",
    "廟門",
    "寢門",
    "碑",
    "東夾",
    "西夾",
    "東堂下",
    "西堂下",
    "西坫",
    "東坫",
    "闈門",
    "宁",
)
PALACE = ("燕礼", "大射仪", "公食大夫礼", "聘礼", "觐礼")


@pytest.fixture(scope="module")
def plan() -> Plan:
    plan, problems = load_plan(SHIPPED_PLAN)
    assert plan is not None and not problems, "\n".join(map(str, problems))
    return plan


def drawings(plan: Plan) -> list[tuple[str, str]]:
    """Every drawing the outputs make: whole, numbered, and per place marked, named or not."""
    out = [
        ("whole", render_svg(plan)),
        ("numbered", render_svg(plan, numbers=place_keys(plan))),
        ("plan page", render_svg(plan, numbers=place_keys(plan), fit=PRINT_FIT_PX)),
    ]
    for place in plan.places:
        out += [
            (place.id, render_svg(plan, place.id)),
            (f"{place.id} front", render_svg(plan, place.id, label_marked=False)),
        ]
    return out


def test_the_places_the_rites_need_are_on_the_plan(plan: Plan) -> None:
    labels = {place.label for place in plan.places}
    assert set(NEEDED) <= labels, set(NEEDED) - labels
    for place in plan.places:
        assert place.citations, place.id


def test_every_palace_rite_has_its_plan(plan: Plan) -> None:
    vocab = vocabulary()
    whole = {p.id for p in shown_places(plan)}
    xiangshe_only = {
        p.id for p in plan.places if p.rites and [r.simplified for r in p.rites] == ["乡射礼"]
    }
    for name in PALACE:
        rite = vocab.rite(name)
        shown = {p.id for p in shown_places(plan, rite)}
        assert {"tang", "men", "da-men", "bei-stele", "dong-jia", "xi-jia"} <= shown, name
        assert not shown & xiangshe_only, name  # no archery ground of the district rite
        assert shown < whole
    # Their own places: the east eaves-drip of a lord's hall, the screen of the king's gate, the
    # archery ground of the great archery rite.
    assert "dong-liu" in {p.id for p in shown_places(plan, vocab.rite("燕礼"))}
    assert "ping" in {p.id for p in shown_places(plan, vocab.rite("觐礼"))}
    assert {"hou", "fa", "bi"} <= {p.id for p in shown_places(plan, vocab.rite("大射仪"))}


def test_every_drawing_is_legible_at_phone_width_with_no_colliding_labels(plan: Plan) -> None:
    smallest, clashes = [], []
    for name, svg in drawings(plan):
        # The plan page is sized for its printed width (PRINT_FIT_PX), the rest for a 400 px card.
        width = PRINT_FIT_PX if name == "plan page" else 400
        boxes = text_boxes(svg, card_width=width)
        smallest.append(min(b.px for b in boxes))
        clashes += [(name, pair) for pair in overlapping(boxes)]
        assert outside(svg, boxes) == [], name
    assert min(smallest) >= MIN_LABEL_PX
    assert clashes == []


@pytest.mark.slow  # the whole shipped corpus
def test_every_palace_rite_is_cited_on_its_plan(shipped_index) -> None:
    """Each palace rite's plan holds places fixed by passages of that very rite."""
    report = check_project(SHIPPED_TERMS, SHIPPED_CORPUS, index=shipped_index, plan=SHIPPED_PLAN)
    assert report.plan is not None
    vocab = vocabulary()
    for name in PALACE:
        rite = vocab.rite(name)
        cited = {
            place.label
            for place in shown_places(report.plan, rite)
            for loci in report.plan_loci[place.id]
            for locus in loci
            if locus.rite and vocab.rite(locus.rite) == rite
        }
        assert cited, name


def test_on_a_cards_front_no_other_name_sits_beside_the_marked_place(plan: Plan) -> None:
    # A name right beside the unlabelled marked shape would read as its answer.
    for place in plan.places:
        if place.kind == "area":
            continue
        svg = render_svg(plan, place.id, label_marked=False)
        boxes = [b for b in text_boxes(svg) if b.px < 14]  # the plan's labels and legend, at 13 px
        size = max(b.box[3] - b.box[1] for b in boxes)
        r = 1.6 if place.kind in ("pillar", "object", "mark") else 0
        x0, y0 = (place.x - r) * 6 - size / 2, (place.y - r) * 6 - size / 2
        x1, y1 = (place.x + place.w + r) * 6 + size / 2, (place.y + place.h + r) * 6 + size / 2
        near = [
            b.text
            for b in boxes
            if b.box[0] < x1 and x0 < b.box[2] and b.box[1] < y1 and y0 < b.box[3]
        ]
        assert near == [], (place.id, near)
