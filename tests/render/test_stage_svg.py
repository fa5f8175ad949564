"""A stage plan drawn as SVG (render/stage_svg.py): every actor a labelled mark at his place with
his facing, movements as dashed arrows, labels legible at phone width and never overlapping,
deterministic, night colours, links (mini fixture and a crowded step made here)."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET

import pytest
from conftest import FIXTURES, MINI_CORPUS, MINI_PLAN, make_project
from plan_geometry import SVG, outside, overlapping, text_boxes

from glossary.build import gather
from glossary.check import check_project
from glossary.model import Glossary, Plan
from glossary.plan import load_plan
from glossary.render.plan_svg import MIN_LABEL_PX
from glossary.render.stage_layout import Mark, Move, anchor, figures, section_view
from glossary.render.stage_svg import ALL_CLASSES, render_step


@pytest.fixture(scope="module")
def glossary(tmp_path_factory: pytest.TempPathFactory, index) -> Glossary:
    project = make_project(tmp_path_factory.mktemp("stage-svg") / "p", corpus=False)
    shutil.copyfile(FIXTURES / "stages-mini.yaml", project / "stages.yaml")
    report = check_project(project / "terms.yaml", MINI_CORPUS, index=index)
    assert not report.failed(), report.problems
    return gather(report, project)


@pytest.fixture(scope="module")
def plan() -> Plan:
    plan, problems = load_plan(MINI_PLAN)
    assert plan is not None and not problems
    return plan


def crowded_steps() -> list[tuple[list[Mark], list[Move]]]:
    """Steps a drawing must still label: many actors on one spot, a group in a row and a column,
    every facing, a movement across the plan."""
    facings = ["北面", "南面", "東面", "西面", "東北面", "西北面", "東南面", "西南面"]
    names = ["主人", "賓", "介", "司射", "司馬", "眾賓", "樂正", "弟子"]
    many = [Mark(f"a{i}", names[i], "xi-jie", "上", facings[i], "某") for i in range(8)]
    group = [
        Mark("g1", "三耦", "tang", "西 東上", "南面"),
        Mark("g2", "眾賓", "xi-xu", "當 北上", "東面"),
        Mark("a1", "司射", "zuo-jie", "前", "西面"),
    ]
    moves = [Move("a1", "司射", "xi-jie", "zuo-jie"), Move("g9", "弟子", "bi", "zhong-ting")]
    return [(many, []), (group, moves), (many + group, moves)]


def _steps(glossary: Glossary, plan: Plan) -> list[tuple[str, str]]:
    out = []
    figs = figures(glossary)
    for f in figs:
        view = section_view(plan, [g for g in figs if g.section is f.section])
        out.append(
            (f"{f.section.name}{f.step.number}", render_step(plan, f.marks, f.moves, view=view))
        )
        out.append((f"{f.section.name}{f.step.number}-whole", render_step(plan, f.marks, f.moves)))
    for n, (marks, moves) in enumerate(crowded_steps()):
        out.append((f"crowded{n}", render_step(plan, marks, moves)))
        view = section_view(plan, [])
        out.append((f"crowded{n}-view", render_step(plan, marks, moves, view=view)))
    return out


def test_every_step_is_drawn_with_its_actors_and_facings(glossary: Glossary) -> None:
    figs = figures(glossary)
    assert [(f.section.name, f.step.number) for f in figs] == [
        ("請射", 1),
        ("請射", 2),
        ("請射", 3),
        ("取矢", 1),
        ("取矢", 2),
    ]
    first = figs[0].marks[0]
    assert (first.actor, first.label, first.place, first.facing) == (
        "si-she",
        "司射",
        "zuo-jie",
        "東北面",
    )
    # A carried placement shows the passage that put the actor there.
    carried = figs[2].marks[0]
    assert carried.carried and carried.quote == "司射降自西階階前西面命弟子納射器"
    assert [(m.actor, m.origin, m.to) for m in figs[1].moves] == [("si-she", "zuo-jie", "xi-jie")]
    assert glossary.plan is not None
    svg = render_step(glossary.plan, figs[1].marks, figs[1].moves, title="請射 2")
    root = ET.fromstring(svg)
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert "司射" in texts and "西階" in texts and "goes" in texts
    assert 'stroke-dasharray="5 3"' in svg  # the movement
    marks = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "ys-mark"]
    assert len(marks) == 1
    title = marks[0].find(f"{SVG}title")
    assert title is not None and title.text == "司射 前 西面: 司射降自西階階前西面命弟子納射器"


def test_the_drawing_is_deterministic(glossary: Glossary, plan: Plan) -> None:
    assert _steps(glossary, plan) == _steps(glossary, plan)


def test_every_label_is_legible_at_phone_width_and_none_overlaps(
    glossary: Glossary, plan: Plan
) -> None:
    for name, svg in _steps(glossary, plan):
        boxes = text_boxes(svg, card_width=400)
        assert boxes, name
        assert min(b.px for b in boxes) >= MIN_LABEL_PX, (name, min(boxes, key=lambda b: b.px))
        assert overlapping(boxes) == [], name
        assert outside(svg, boxes) == [], name
        assert float(ET.fromstring(svg).attrib["width"]) >= 400


def test_every_actor_is_named_on_the_plan_or_in_the_legend(plan: Plan) -> None:
    for marks, moves in crowded_steps():
        shown = [b.text for b in text_boxes(render_step(plan, marks, moves))]
        keyed = {t.split(" ", 1)[1] for t in shown if re.fullmatch(r"\d+ \S+", t)}
        for mark in marks:
            assert mark.label in shown or mark.label in keyed, mark


def test_a_group_in_a_row_is_three_marks_and_the_senior_end_larger(plan: Plan) -> None:
    row = Mark("g1", "三耦", "tang", "東上", "南面")
    root = ET.fromstring(render_step(plan, [row]))
    dots = [
        (float(c.attrib["cx"]), float(c.attrib["cy"]), float(c.attrib["r"]))
        for g in root.iter(f"{SVG}g")
        if g.attrib.get("class") == "ys-mark"
        for c in g.iter(f"{SVG}circle")
    ]
    assert len(dots) == 3
    assert len({y for _, y, _ in dots}) == 1  # east to west, one row
    senior = max(dots, key=lambda d: d[0])
    assert senior[2] > min(d[2] for d in dots)  # the east end is the senior


def test_qualifiers_put_the_actor_at_the_side_they_name(plan: Plan) -> None:
    by_id = {p.id: p for p in plan.places}
    steps = by_id["xi-jie"]
    top, foot = anchor(plan, steps, "上"), anchor(plan, steps, "下")
    assert top[1] < steps.y < steps.y + steps.h < foot[1]
    assert anchor(plan, steps, "東")[0] > steps.x + steps.w
    assert anchor(plan, by_id["bi"], "南")[1] > by_id["bi"].y
    # Level with the west wall, south of it (in the court below it, where the plan has one).
    x, y = anchor(plan, by_id["xi-xu"], "當")
    assert x == pytest.approx(15.5) and y > by_id["xi-xu"].y + by_id["xi-xu"].h


def test_marks_link_to_their_entries_and_carry_their_passage(glossary: Glossary) -> None:
    assert glossary.plan is not None
    f = figures(glossary)[0]
    svg = render_step(glossary.plan, f.marks, link=lambda m: f"glossary.html#e-{m.actor}")
    root = ET.fromstring(svg)
    links = [a for a in root.iter(f"{SVG}a")]
    assert [a.attrib["href"] for a in links] == ["glossary.html#e-si-she"]
    assert "司射適阼階上東北面告于主人" in "".join(links[0].itertext())


def test_night_colours_for_anki_and_for_a_dark_screen_but_not_print(glossary: Glossary) -> None:
    assert glossary.plan is not None
    f = figures(glossary)[1]
    day = render_step(glossary.plan, f.marks, f.moves)
    auto = render_step(glossary.plan, f.marks, f.moves, auto_dark=True)
    style = re.search(r"<style>(.*?)</style>", day)
    assert style is not None
    for cls, (_, dark) in ALL_CLASSES.items():
        assert f".nightMode .yp .{cls}-f" in style.group(
            1
        ) or f".nightMode .yp .{cls}-s" in style.group(1)
        assert dark in style.group(1)
    assert "prefers-color-scheme" not in day
    assert "@media screen and (prefers-color-scheme:dark){" in auto
    # Every painted element carries the class that repaints it.
    for node in ET.fromstring(day).iter():
        if node.attrib.get("fill", "none") != "none":
            assert re.search(r"\by[ps]-[a-z-]+-f\b", node.attrib.get("class", "")), node.attrib
        if "stroke" in node.attrib:
            assert re.search(r"\by[ps]-[a-z-]+-s\b", node.attrib.get("class", "")), node.attrib
    assert "<style>" not in render_step(glossary.plan, f.marks, style=False)


def test_a_mark_at_the_plans_edge_is_drawn_inside_it(plan: Plan) -> None:
    """Outside a gate on the plan's southern edge, or moved aside past it: still on the plan,
    dot and arrow whole (士虞禮 事畢: the host outside the great gate)."""
    from dataclasses import replace

    gate = replace(plan.places[0], id="edge-gate", kind="door", y=plan.height - 3, h=3)
    edged = replace(plan, places=(*plan.places, gate))
    x, y = anchor(edged, gate, "外")
    assert y < edged.height
    marks = [Mark(a, a, "edge-gate", "外", "南面") for a in ("a1", "a2")]
    root = ET.fromstring(render_step(edged, marks))
    links = list(root.iter(f"{SVG}a")) or [
        g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "ys-mark"
    ]
    assert len(links) == 2
