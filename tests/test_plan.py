"""The hall plan: loaded, validated and its citations checked like terms (mini project)."""
from __future__ import annotations

from pathlib import Path

from conftest import MINI_CORPUS, MINI_PLAN, MINI_TERMS, ROOT

from glossary.check import check_project
from glossary.plan import load_plan

CASES = ROOT / "tests" / "cases" / "plan"


def test_plan_citations_are_verified(index) -> None:
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=MINI_PLAN)
    assert not report.failed(strict=True), "\n".join(map(str, report.problems))
    plan, _ = load_plan(MINI_PLAN)
    assert report.plan == plan
    # Every citation of every place is resolved, in the plan's order.
    assert set(report.plan_loci) == {place.id for place in plan.places}
    for place in plan.places:
        assert len(report.plan_loci[place.id]) == len(place.citations)
        assert all(report.plan_loci[place.id]), place.id
    # 乃設楅于中庭南當洗 stands in 取矢 of the seed page and of 卷四.
    assert [l.section for l in report.plan_loci["bi"][0]] == ["取矢", "取矢"]
    assert report.plan.for_term("bi").id == "bi"


def test_plan_places_name_entries_of_the_glossary() -> None:
    plan, problems = load_plan(MINI_PLAN)
    assert plan is not None and not problems
    from conftest import mini_entries

    terms = {place.term for place in plan.places if place.term is not None}
    assert terms and terms <= set(mini_entries())
    assert any(place.term is None for place in plan.places)  # a place without an entry is allowed


def test_bad_plan_reports_every_problem_at_its_line(index) -> None:
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=CASES / "bad-plan.yaml")
    found = {(p.line, p.path, p.message.split(" (")[0]) for p in report.problems if p.file.endswith("bad-plan.yaml")}
    assert (6, "places[0].kind", "'thing' is not one of: area, wall, pillar, steps, door, window, object, mark") in found
    plan, problems = load_plan(CASES / "bad-plan.yaml")
    assert plan is None and problems


def test_plan_semantic_problems(index, tmp_path: Path) -> None:
    text = (CASES / "bad-plan.yaml").read_text(encoding="utf-8").replace("kind: thing", "kind: object")
    path = tmp_path / "plan.yaml"
    path.write_text(text, encoding="utf-8")
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=path)
    messages = {(p.line, p.path): p.message for p in report.problems if p.file == str(path)}
    assert messages[(12, "places[1].id")].startswith("duplicate place id 'bi' (first on line 4)")
    assert messages[(4, "bi.term")].startswith("unknown glossary id 'no-such-entry'")
    assert "第7字: 北 ≠ 南（原文）" in "\n".join(
        str(p) for p in report.problems if p.path == "bi.citations[0].quote"
    )
