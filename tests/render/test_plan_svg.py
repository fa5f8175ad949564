"""The hall plan drawn as SVG: deterministic, one place highlighted, labels optional."""
from __future__ import annotations

from conftest import MINI_PLAN

from glossary.plan import load_plan
from glossary.render.plan_svg import render_svg


def test_svg_is_deterministic_and_highlights() -> None:
    plan, problems = load_plan(MINI_PLAN)
    assert plan is not None and not problems
    bi = next(place for place in plan.places if place.id == "bi")
    first = render_svg(plan, "bi", f"Hall plan: {bi.label}")
    assert first == render_svg(plan, "bi", f"Hall plan: {bi.label}")
    assert first.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and first.endswith("</svg>")
    assert f'fill="#b0001a" font-weight="700">{bi.label}</text>' in first
    # Every other place is drawn with its label, not highlighted.
    for place in plan.places:
        assert f">{place.label}</text>" in first
        if place.id != "bi":
            assert f'font-weight="700">{place.label}</text>' not in first
    hidden = render_svg(plan, "bi", labels=False)
    other = next(place for place in plan.places if place.id != "bi")
    assert f">{bi.label}</text>" not in hidden and f">{other.label}</text>" in hidden
