"""The hall plan drawn as SVG: deterministic, legible at phone width, no colliding labels, a legend,
a night variant, crops and rite plans (mini plan, and a crowded plan made here)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import MINI_PLAN, search
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plan_geometry import outside, overlapping, text_boxes

from glossary.model import Place, Plan
from glossary.plan import load_plan
from glossary.render.chromium import FLAGS, find_chromium
from glossary.render.plan_svg import CLASSES, MIN_LABEL_PX, place_keys, render_svg


@pytest.fixture(scope="module")
def plan() -> Plan:
    plan, problems = load_plan(MINI_PLAN)
    assert plan is not None and not problems
    return plan


def crowded() -> Plan:
    """Twenty-four marks in a small square around a hall: more names than fit beside them."""
    hall = Place("hall", "堂", "area", 20, 20, 1, w=60, h=30)
    names = ["東西南北中庭階序"[i % 8] + "楹坫門塾"[i % 4] for i in range(24)]
    marks = [
        Place(f"m{i}", name, "mark", 45 + (i % 6) * 2, 40 + (i // 6) * 2, i + 2)
        for i, name in enumerate(names)
    ]
    return Plan(100, 100, (hall, *marks))


def dump_dom(page: Path, folder: Path) -> str:
    """The page's DOM after its scripts ran, in real headless Chromium (sandboxed unless root)."""
    browser = find_chromium()
    assert browser, "Chromium is needed (apt-get install chromium)"
    sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []
    command = [
        browser,
        *FLAGS,
        *sandbox,
        f"--user-data-dir={folder / 'profile'}",
        "--dump-dom",
        page.as_uri(),
    ]
    return subprocess.run(command, capture_output=True, timeout=120, check=True, text=True).stdout


def labels_of(svg: str) -> list[str]:
    return [b.text for b in text_boxes(svg)]


def test_svg_is_deterministic_and_highlights(plan: Plan) -> None:
    bi = next(place for place in plan.places if place.id == "bi")
    first = render_svg(plan, "bi", f"Hall plan: {bi.label}")
    assert first == render_svg(plan, "bi", f"Hall plan: {bi.label}")
    assert first.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and first.endswith("</svg>")
    ET.fromstring(first)  # well-formed
    marked = re.findall(r'<text [^>]*fill="#b0001a"[^>]*font-weight="700">([^<]*)</text>', first)
    assert marked == [bi.label]
    # Every other place is drawn with its label, not highlighted.
    for place in plan.places:
        assert place.label in labels_of(first)
        if place.id != "bi":
            assert f'font-weight="700">{place.label}</text>' not in first


@pytest.mark.parametrize(
    "kwargs", [{"label_marked": False}, {"labels": False}], ids=["label_marked", "labels"]
)
def test_the_marked_place_can_go_unlabelled(plan: Plan, kwargs: dict) -> None:
    hidden = render_svg(plan, "bi", "Hall plan", **kwargs)
    shown = labels_of(hidden)
    assert "楅" not in shown
    assert {p.label for p in plan.places if p.id != "bi"} <= set(shown)
    assert 'stroke="#b0001a"' in hidden  # still marked, only not named


def _variants(plan: Plan) -> list[tuple[str, str]]:
    out = [("whole", render_svg(plan))]
    for place in plan.places:
        out.append((f"{place.id}", render_svg(plan, place.id)))
        out.append((f"{place.id}-front", render_svg(plan, place.id, label_marked=False)))
    out.append(("numbered", render_svg(plan, numbers=place_keys(plan))))
    return out


@pytest.mark.parametrize("which", ["mini", "crowded"])
def test_every_label_is_legible_at_phone_width_and_none_overlaps(plan: Plan, which: str) -> None:
    drawing = plan if which == "mini" else crowded()
    for name, svg in _variants(drawing):
        boxes = text_boxes(svg, card_width=400)
        assert boxes, name
        assert min(b.px for b in boxes) >= MIN_LABEL_PX, (name, min(boxes, key=lambda b: b.px))
        assert overlapping(boxes) == [], name
        assert outside(svg, boxes) == [], name
        # A card only scales it down: the intrinsic width is at least the card's.
        assert float(ET.fromstring(svg).attrib["width"]) >= 400


def test_a_name_with_no_room_becomes_a_key_number_in_the_legend() -> None:
    svg = render_svg(crowded())
    shown = labels_of(svg)
    keyed = [t for t in shown if re.fullmatch(r"\d+", t)]
    assert keyed, "the crowded plan needs key numbers"
    for key in keyed:
        assert any(re.fullmatch(rf"{key} \S+", t) for t in shown), key  # "3 南坫" in the legend
    named = {t for t in shown if not re.fullmatch(r"\d+( \S+)?", t)}
    legend_names = {t.split(" ", 1)[1] for t in shown if re.fullmatch(r"\d+ \S+", t)}
    assert {p.label for p in crowded().places} <= named | legend_names


def test_the_legend_explains_the_symbols_shown(plan: Plan) -> None:
    svg = render_svg(plan, "bi")
    shown = labels_of(svg)
    for words in (
        "hall, room, court",
        "wall",
        "steps",
        "object",
        "position",
        "the place asked about",
        "北 north",
    ):
        assert words in shown
    assert "pillar" not in shown  # the mini plan has no pillar
    assert "the place asked about" not in labels_of(render_svg(plan))


def test_night_colours_follow_ankis_classes_and_keep_contrast(plan: Plan) -> None:
    day = render_svg(plan, "bi")
    assert ET.fromstring(day).attrib["class"] == "yp"
    style = search(r"<style>(.*?)</style>", day).group(1)
    for cls, (_, dark) in CLASSES.items():
        for selector in (
            f".yp-dark .{cls}-f",
            f".nightMode .yp .{cls}-f",
            f".night_mode .yp .{cls}-f",
        ):
            assert f"{selector}," in style or f"{selector}{{" in style
        assert f"fill:{dark}" in style
    # Every painted element carries the class that repaints it at night.
    for node in ET.fromstring(day).iter():
        if node.attrib.get("fill", "none") != "none":
            assert re.search(r"\byp-[a-z-]+-f\b", node.attrib.get("class", "")), ET.tostring(node)[
                :80
            ]

    def contrast(a: str, b: str) -> float:
        def lum(c: str) -> float:
            rgb = [int(c[i : i + 2], 16) / 255 for i in (1, 3, 5)]
            lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
            return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

        hi, lo = sorted((lum(a), lum(b)), reverse=True)
        return (hi + 0.05) / (lo + 0.05)

    for mode in (0, 1):
        for text in ("yp-ink", "yp-on"):
            for ground in ("yp-bg", "yp-area", "yp-on-fill"):
                assert contrast(CLASSES[text][mode], CLASSES[ground][mode]) >= 4.5, (
                    mode,
                    text,
                    ground,
                )


def test_key_numbers_run_north_to_south(plan: Plan) -> None:
    keys = place_keys(plan)
    assert sorted(keys.values()) == list(range(1, len(plan.places) + 1))
    by_key = sorted(plan.places, key=lambda p: keys[p.id])
    assert [p.y + p.h / 2 for p in by_key] == sorted(p.y + p.h / 2 for p in by_key)
    shown = labels_of(render_svg(plan, numbers=keys))
    for place in plan.places:
        assert f"{keys[place.id]} {place.label}" in shown


@pytest.mark.slow
def test_real_chromium_draws_the_labels_within_their_computed_boxes(
    plan: Plan, tmp_path: Path
) -> None:
    """At 400 CSS px in real Chromium: every label's font is ≥ 12 px, its ink inside the computed box."""
    svgs = [
        render_svg(plan, "bi"),
        render_svg(crowded()),
        render_svg(plan, numbers=place_keys(plan)),
    ]
    fitted = [s.replace(' width="600"', ' style="width:100%;height:auto"', 1) for s in svgs]
    body = "".join(f'<div style="width:400px">{s}</div>' for s in fitted)
    script = """<script>
      const out = [];
      document.querySelectorAll('svg').forEach((svg, i) => {
        const m = svg.getScreenCTM();
        svg.querySelectorAll('text').forEach(t => {
          const b = t.getBBox();
          out.push({svg: i, text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * m.a,
                    x: t.x.baseVal[0].value, w: b.width, size: parseFloat(t.getAttribute('font-size'))});
        });
      });
      document.getElementById('out').textContent = JSON.stringify(out);
    </script>"""
    page = tmp_path / "plan.html"
    page.write_text(
        f'<!doctype html><html><body style="margin:0">{body}<pre id="out"></pre>{script}</body></html>',
        encoding="utf-8",
    )
    dom = dump_dom(page, tmp_path)
    measured = json.loads(
        search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1).replace("&quot;", '"')
    )
    assert len(measured) == sum(len(text_boxes(s)) for s in svgs)
    for item, box in zip(measured, [b for s in svgs for b in text_boxes(s)]):
        assert item["text"] == box.text
        assert item["px"] >= MIN_LABEL_PX - 0.01, item
        assert item["w"] <= (box.box[2] - box.box[0]) + 0.5, (
            item,
            box,
        )  # the real advance fits the box


def test_the_plan_page_keys_each_places_sources_to_its_number(plan: Plan, index) -> None:
    from conftest import MINI_CORPUS, MINI_TERMS

    from glossary.check import check_project
    from glossary.enrich.cited import resolve
    from glossary.render.plan_svg import keyed_sources

    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=MINI_PLAN)
    assert report.plan is not None
    resolved = {
        place.id: resolve(place.citations, report.plan_loci[place.id], {})
        for place in report.plan.places
    }
    sources = keyed_sources(report.plan, resolved)
    keys = place_keys(report.plan)
    assert [(key, place.id) for key, place, _ in sources] == sorted((k, i) for i, k in keys.items())
    for _key, place, cited in sources:
        assert [c for c, _ in cited] == list(place.citations)  # every citation verified, in order
        assert all(locus.text for _, locus in cited)
    shown = labels_of(render_svg(report.plan, numbers=keys))
    assert {f"{key} {place.label}" for key, place, _ in sources} <= set(shown)


@pytest.mark.slow
@pytest.mark.parametrize(
    "body_class, mode",
    [("nightMode", 1), ("night_mode", 1), ("", 0)],
    ids=["nightMode", "night_mode", "day"],
)
def test_real_chromium_repaints_an_inlined_plan_under_ankis_night_class(
    plan: Plan, tmp_path: Path, body_class: str, mode: int
) -> None:
    svg = render_svg(plan, "bi")
    script = """<script>
      const fill = sel => getComputedStyle(document.querySelector(sel)).fill;
      document.getElementById('out').textContent = JSON.stringify(
        {bg: fill('.yp-bg-f'), ink: fill('text.yp-ink-f'), on: fill('text.yp-on-f'), area: fill('rect.yp-area-f')});
    </script>"""
    page = tmp_path / "card.html"
    page.write_text(
        f'<!doctype html><html><body class="card {body_class}">{svg}<pre id="out"></pre>{script}'
        "</body></html>",
        encoding="utf-8",
    )
    dom = dump_dom(page, tmp_path)
    colours = json.loads(
        search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1).replace("&quot;", '"')
    )

    def rgb(hex_colour: str) -> str:
        return "rgb({}, {}, {})".format(*(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)))

    assert colours == {
        "bg": rgb(CLASSES["yp-bg"][mode]),
        "ink": rgb(CLASSES["yp-ink"][mode]),
        "on": rgb(CLASSES["yp-on"][mode]),
        "area": rgb(CLASSES["yp-area"][mode]),
    }


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 100),
            st.floats(0, 120),
            st.sampled_from(["mark", "pillar", "object"]),
            st.text(alphabet="東西南北中庭階序楹坫門塾堂室房", min_size=1, max_size=4),
        ),
        min_size=1,
        max_size=40,
    ),
)
def test_any_plan_gets_legible_labels_that_never_overlap(points) -> None:
    places = tuple(
        Place(f"p{i}", label, kind, x, y, i + 1) for i, (x, y, kind, label) in enumerate(points)
    )
    drawing = Plan(100, 120, places)
    svg = render_svg(drawing, "p0")
    boxes = text_boxes(svg, card_width=400)
    assert min(b.px for b in boxes) >= MIN_LABEL_PX
    assert overlapping(boxes) == []
    assert outside(svg, boxes) == []
