"""The hall plan: loaded, validated and its citations checked like terms (mini project)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINI_CORPUS, MINI_PLAN, MINI_TERMS, ROOT

from glossary.check import check_project
from glossary.plan import load_plan

CASES = ROOT / "tests" / "cases" / "plan"


def test_plan_citations_are_verified(index) -> None:
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=MINI_PLAN)
    assert not report.failed(strict=True), "\n".join(map(str, report.problems))
    plan, _ = load_plan(MINI_PLAN)
    assert plan is not None and report.plan == plan
    # Every citation of every place is resolved, in the plan's order.
    assert set(report.plan_loci) == {place.id for place in plan.places}
    for place in plan.places:
        assert len(report.plan_loci[place.id]) == len(place.citations)
        assert all(report.plan_loci[place.id]), place.id
    # 乃設楅于中庭南當洗 stands in 取矢 of the seed page and of 卷四.
    assert [l.section for l in report.plan_loci["bi"][0]] == ["取矢", "取矢"]
    bi = plan.for_term("bi")
    assert bi is not None and bi.id == "bi"


def test_plan_places_name_entries_of_the_glossary() -> None:
    plan, problems = load_plan(MINI_PLAN)
    assert plan is not None and not problems
    from conftest import mini_entries

    terms = {place.term for place in plan.places if place.term is not None}
    assert terms and terms <= set(mini_entries())
    assert any(place.term is None for place in plan.places)  # a place without an entry is allowed


def test_bad_plan_reports_every_problem_at_its_line(index) -> None:
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=CASES / "bad-plan.yaml")
    found = {
        (p.line, p.path, p.message.split(" (")[0])
        for p in report.problems
        if p.file.endswith("bad-plan.yaml")
    }
    assert (
        6,
        "places[0].kind",
        "'thing' is not one of: area, wall, pillar, steps, door, window, object, mark",
    ) in found
    plan, problems = load_plan(CASES / "bad-plan.yaml")
    assert plan is None and problems


def test_plan_semantic_problems(index, tmp_path: Path) -> None:
    text = (
        (CASES / "bad-plan.yaml").read_text(encoding="utf-8").replace("kind: thing", "kind: object")
    )
    path = tmp_path / "plan.yaml"
    path.write_text(text, encoding="utf-8")
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=path)
    messages = {(p.line, p.path): p.message for p in report.problems if p.file == str(path)}
    assert messages[(12, "places[1].id")].startswith("duplicate place id 'bi' (first on line 4)")
    assert messages[(4, "bi.term")].startswith("unknown glossary id 'no-such-entry'")
    assert "第7字: 北 ≠ 南（原文）" in "\n".join(
        str(p) for p in report.problems if p.path == "bi.citations[0].quote"
    )


# -- hostile plans (issue 13): numbers no plan has, invisible characters ---------------------------


def _plan_with(tmp_path: Path, old: str, new: str) -> Path:
    text = MINI_PLAN.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "plan.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _line(path: Path, fragment: str) -> int:
    return next(
        i
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if fragment in line
    )


@pytest.mark.parametrize(
    "value, says",
    [
        (".nan", "nan is not a coordinate: give a number"),
        (".NaN", "nan is not a coordinate: give a number"),
        (".inf", "inf is outside the plan (maximum 10000)"),
        ("-.inf", "-inf is outside the plan (minimum -10000)"),
        ("1.0e+308", "1e+308 is outside the plan (maximum 10000)"),
    ],
)
def test_a_coordinate_that_is_not_a_number_is_a_problem(
    tmp_path: Path, index, value: str, says: str
) -> None:
    path = _plan_with(tmp_path, "    x: 16\n", f"    x: {value}\n")
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=path)
    problems = [(p.line, p.path, p.message) for p in report.problems if p.file == str(path)]
    assert (_line(path, f"x: {value}"), "places[0].x", says) in problems
    assert report.failed() and report.plan is None


def test_a_plan_width_of_nan_is_a_problem(tmp_path: Path) -> None:
    path = _plan_with(tmp_path, "width: 100\n", "width: .nan\n")
    plan, problems = load_plan(path)
    assert plan is None
    assert [(p.line, p.path, p.message) for p in problems] == [
        (5, "width", "nan is not a coordinate: give a number")
    ]


@pytest.mark.parametrize(
    "char", ["\u202e", "\x1b", "\u200b", "\0"], ids=["RLO", "ESC", "ZWSP", "NUL"]
)
def test_invisible_characters_in_the_plan_are_refused_at_their_line(
    tmp_path: Path, index, char: str
) -> None:
    escaped = f"\\u{ord(char):04x}"  # as a YAML escape in a double-quoted scalar
    path = _plan_with(
        tmp_path,
        "        note: the west wall standing on the hall\n",
        f'        note: "the west wall{escaped} standing on the hall"\n',
    )
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=path)
    [problem] = [p for p in report.problems if p.file == str(path)]
    assert (problem.line, problem.path) == (
        _line(path, "the west wall"),
        "places[1].citations[0].note",
    )
    assert problem.message.startswith(f"holds U+{ord(char):04X} (")


def test_a_rite_of_a_place_is_backed_by_a_passage_of_that_rite(tmp_path: Path, index) -> None:
    # Like an entry's rites: a place drawn only for 燕禮 must cite a passage of 燕禮.
    path = _plan_with(tmp_path, "    rites: [乡射礼]\n", "    rites: [乡射礼, 燕礼]\n")
    report = check_project(MINI_TERMS, MINI_CORPUS, index=index, plan=path)
    problems = [(p.line, p.path, p.message) for p in report.problems if p.file == str(path)]
    assert problems == [
        (
            _line(path, "  - id: bi"),
            "bi.rites[1]",
            "lists 燕礼, but none of its citations is located in 燕礼: cite a passage of that rite, "
            "or leave the rite out",
        )
    ]


def _place(i: int, x: float = 50.0, y: float = 50.0) -> str:
    return (
        f"  - id: p{i}\n    label: 東楹\n    kind: mark\n    x: {x}\n    y: {y}\n"
        "    citations:\n      - quote: 升自西階\n"
    )


def test_a_plan_of_more_places_than_a_build_draws_in_seconds_is_refused(tmp_path: Path) -> None:
    from glossary.schema import schema

    most = schema("plan.schema.json")["properties"]["places"]["maxItems"]
    path = tmp_path / "plan.yaml"
    path.write_text(
        "width: 100\nheight: 100\nplaces:\n" + "".join(_place(i) for i in range(most + 1)),
        encoding="utf-8",
    )
    plan, problems = load_plan(path)
    assert plan is None
    assert [(p.line, p.path, p.message) for p in problems] == [
        (4, "places", f"{most + 1:,} items, more than the {most:,} allowed here")
    ]


def test_the_labels_of_the_largest_plan_piled_on_one_spot_try_a_bounded_number_of_positions(
    monkeypatch,
) -> None:
    """Every label crowded out: the drawing's work is bounded by its budget, not by the square of
    the places times every position around them."""
    import glossary.render.plan_labels as plan_labels
    import glossary.render.plan_svg as plan_svg
    from glossary.model import Place, Plan
    from glossary.schema import schema

    most = schema("plan.schema.json")["properties"]["places"]["maxItems"]
    places = tuple(Place(f"p{i}", "東楹", "mark", 50.0, 50.0, i + 2) for i in range(most))
    looked = [0]
    overlaps = plan_labels._Grid.overlaps

    def counted(self, *args, **kwargs):
        looked[0] += 1
        return overlaps(self, *args, **kwargs)

    monkeypatch.setattr(plan_labels._Grid, "overlaps", counted)
    svg = plan_svg.render_svg(Plan(100, 100, places), "p7", "t")
    assert svg.count("<text") >= most  # every place still has its label (or key number)
    # Two look-ups (labels, symbols) at most for each position tried.
    assert 0 < looked[0] <= 2 * plan_labels.MAX_DRAWING_TRIES
