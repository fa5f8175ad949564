"""The shipped stage plans (stages.yaml on plan.yaml) drawn as the reader and the book draw them:
every step's labels at least 12 CSS px on a phone (and 8 pt where the book prints three to a
row), none overlapping another or leaving the drawing, every actor drawn and named."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import groupby

import pytest
from conftest import ROOT, SHIPPED_PLAN
from plan_geometry import SVG, outside, overlapping, text_boxes

from glossary.model import Glossary
from glossary.plan import load_plan
from glossary.render.plan_svg import MIN_LABEL_PX
from glossary.render.stage_html import BOOK_FIT_PX, READER_FIT_PX
from glossary.render.stage_layout import figures, section_view
from glossary.render.stage_svg import render_step
from glossary.stages.load import load_stages


@pytest.fixture(scope="module")
def drawings(shipped_entries) -> list[tuple[str, str, str, int]]:
    """(step, "reader" or "book", SVG, marks) for every step of the shipped stage plans."""
    plan, problems = load_plan(SHIPPED_PLAN)
    assert plan is not None and not problems
    stages, problems = load_stages(ROOT / "stages.yaml")
    assert stages is not None and not problems
    glossary = Glossary(
        entries=tuple(shipped_entries), cited={}, concordance={}, epoch=0, plan=plan, stages=stages
    )
    out = []
    for _, group in groupby(figures(glossary), key=lambda f: f.section.path):
        figs = list(group)
        view = section_view(plan, figs)
        used = {m.place for f in figs for m in f.marks}
        for f in figs:
            name = f"{f.section.rite.simplified} {f.section.name} {f.step.number}"
            for kind, fit, legend in (
                ("reader", READER_FIT_PX, True),
                ("book", BOOK_FIT_PX, False),
            ):
                svg = render_step(
                    plan,
                    f.marks,
                    f.moves,
                    view=view,
                    named=used,
                    fit=fit,
                    legend=legend,
                    link=lambda m: m.actor,
                )
                out.append((name, kind, svg, len(f.marks)))
    assert out
    return out


def test_every_label_is_legible_and_none_overlaps(drawings) -> None:
    for name, kind, svg, _ in drawings:
        # A 390 px phone shows the reader's plans 358 px wide; the book prints them 215 px wide.
        width = 358 if kind == "reader" else 215
        least = MIN_LABEL_PX if kind == "reader" else 10.5
        boxes = text_boxes(svg, card_width=width)
        assert min(b.px for b in boxes) >= least, (name, kind, min(boxes, key=lambda b: b.px))
        assert min(b.px for b in text_boxes(svg, card_width=400)) >= MIN_LABEL_PX, name
        assert overlapping(boxes) == [], (name, kind)
        assert outside(svg, boxes) == [], (name, kind)


def test_every_actor_is_drawn_and_named(drawings) -> None:
    for name, kind, svg, marks in drawings:
        root = ET.fromstring(svg)
        links = [a for a in root.iter(f"{SVG}a")]
        assert len(links) == marks, (name, kind)  # every mark's place is on the plan, in view
        shown = [b.text for b in text_boxes(svg)]
        keyed = {t.split(" ", 1)[1] for t in shown if re.fullmatch(r"\d+ \S+", t)}
        for a in links:
            label = "".join(t.text or "" for t in a.iter(f"{SVG}text"))
            title = a.find(f"{SVG}title")
            assert title is not None and title.text
            assert label or title.text.split(" ")[0] in keyed, (name, kind, title.text)
