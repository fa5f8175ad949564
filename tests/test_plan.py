"""The hall plan: checked like terms, drawn deterministically; the rites' order from the corpus."""
from __future__ import annotations

from pathlib import Path

from conftest import CORPUS, ROOT, TERMS

from glossary.check import check_project
from glossary.enrich.sequence import sequences
from glossary.plan import load_plan
from glossary.render.plan_svg import render_svg

CASES = ROOT / "tests" / "cases" / "plan"


def test_plan_citations_are_verified(index) -> None:
    report = check_project(TERMS, CORPUS, index=index, plan=CASES / "plan.yaml")
    assert not [p for p in report.problems if p.file.endswith("plan.yaml")]
    assert [l.section for l in report.plan_loci["bi"][0]] == ["取矢", "取矢"]
    assert report.plan is not None and report.plan.for_term("bi").id == "bi"


def test_bad_plan_reports_every_problem_at_its_line(index) -> None:
    report = check_project(TERMS, CORPUS, index=index, plan=CASES / "bad-plan.yaml")
    found = {(p.line, p.path, p.message.split(" (")[0]) for p in report.problems if p.file.endswith("bad-plan.yaml")}
    assert (6, "places[0].kind", "'thing' is not one of: area, wall, pillar, steps, door, window, object, mark") in found
    plan, problems = load_plan(CASES / "bad-plan.yaml")
    assert plan is None and problems


def test_plan_semantic_problems(index, tmp_path: Path) -> None:
    text = (CASES / "bad-plan.yaml").read_text(encoding="utf-8").replace("kind: thing", "kind: object")
    path = tmp_path / "plan.yaml"
    path.write_text(text, encoding="utf-8")
    report = check_project(TERMS, CORPUS, index=index, plan=path)
    messages = {(p.line, p.path): p.message for p in report.problems if p.file == str(path)}
    assert messages[(12, "places[1].id")].startswith("duplicate place id 'bi' (first on line 4)")
    assert messages[(4, "bi.term")].startswith("unknown glossary id 'no-such-entry'")
    assert "第7字: 北 ≠ 南（原文）" in "\n".join(
        str(p) for p in report.problems if p.path == "bi.citations[0].quote"
    )


def test_svg_is_deterministic_and_highlights(index) -> None:
    plan, problems = load_plan(CASES / "plan.yaml")
    assert plan is not None and not problems
    first = render_svg(plan, "bi", "Hall plan: 楅")
    assert first == render_svg(plan, "bi", "Hall plan: 楅")
    assert first.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and first.endswith("</svg>")
    assert 'fill="#b0001a" font-weight="700">楅</text>' in first
    hidden = render_svg(plan, "bi", labels=False)
    assert ">楅</text>" not in hidden and ">堂</text>" in hidden


def test_rite_order_matches_the_corpus(corpus) -> None:
    order = [step.name for step in sequences(corpus)["xiangshe"]]
    expected = ["請射", "誘射", "初射", "取矢", "再請射", "再射釋獲", "取矢視算"]
    start = order.index("請射")
    assert order[start : start + len(expected)] == expected
    # The seed page, read independently, gives the same order.
    seed = next(d for d in corpus.documents if d.path.startswith("000_"))
    assert [name for _, name in seed.sections][1:] == ["请射", "诱射", "初射", "取矢", "再请射", "再射释获", "取矢视算"]
    shiyu = [step.name for step in sequences(corpus)["shiyu"]]
    assert shiyu.index("尸入") < shiyu.index("尸食") < shiyu.index("主人酳尸") < shiyu.index("尸酢主人")
    repeated = [s for s in sequences(corpus)["xiangshe"] if s.name == "取矢視算"]
    assert [s.repeat for s in repeated] == [1, 2] and repeated[0].key != repeated[1].key
