"""Loading stages.yaml: the schema, the rite resolved, each quote a citation of its section."""

from __future__ import annotations

from pathlib import Path

from conftest import FIXTURES, ROOT

from glossary.stages.load import WORK, load_stages

MINI_STAGES = FIXTURES / "stages-mini.yaml"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "stages.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_mini_stages_load_with_every_line() -> None:
    stages, problems = load_stages(MINI_STAGES)
    assert stages is not None and not problems
    first = stages.sections[0]
    assert (first.rite.id, first.name, first.repeat) == ("xiangshe", "請射", 1)
    assert [step.number for step in first.steps] == [1, 2, 3]
    placement = first.steps[0].placements[0]
    assert (placement.actor, placement.place, placement.qualifier, placement.facing) == (
        "si-she",
        "zuo-jie",
        "上",
        "東北面",
    )
    assert placement.path == "rites[0].sections[0].steps[0].placements[0]"
    assert placement.line_of("place") == placement.line + 1
    # The quote is a citation of its place: 禮經本義, the rite's 卷, the section, the classic.
    citation = placement.citation
    assert citation is not None
    assert (citation.work, citation.juan, citation.section, citation.layer) == (
        WORK,
        4,
        "請射",
        "classic",
    )
    carried = first.steps[2].placements[0]
    assert carried.carried and carried.citation is None
    movement = first.steps[1].movements[0]
    assert (movement.origin, movement.to) == ("zuo-jie", "xi-jie")


def test_the_shipped_stages_load() -> None:
    stages, problems = load_stages(ROOT / "stages.yaml")
    assert stages is not None and not problems, problems
    assert stages.of_rite("xiangyinjiu")


def test_a_commentary_and_another_work_keep_their_fields(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "rites:\n- rite: 乡射礼\n  sections:\n  - section: 請射\n    steps:\n"
        "    - placements:\n"
        "      - {actor: si-she, place: xi-jie, quote: 司射降自西階, layer: commentary}\n"
        "      - {actor: si-ma, place: xi-jie, quote: 升自西階, work: 儀禮釋宮, page: 9a}\n",
    )
    stages, problems = load_stages(path)
    assert stages is not None and not problems
    commentary, other = (p.citation for p in stages.sections[0].steps[0].placements)
    assert commentary is not None and commentary.layer == "commentary"
    assert commentary.section == "請射"
    assert other is not None
    assert (other.work, other.page, other.section, other.juan) == ("儀禮釋宮", "9a", None, None)


def test_a_quote_and_carried_exclude_each_other(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "rites:\n- rite: 乡射礼\n  sections:\n  - section: 請射\n    steps:\n"
        "    - placements:\n"
        "      - {actor: si-she, place: xi-jie, quote: 司射降自西階, carried: true}\n"
        "      - {actor: si-ma, place: xi-jie}\n",
    )
    stages, problems = load_stages(path)
    assert stages is None
    assert {p.line for p in problems} == {7, 8}, problems


def test_an_unknown_rite_is_said_at_its_line(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "rites:\n- rite: 鄉射\n  sections:\n  - section: 請射\n    steps:\n"
        "    - placements:\n      - {actor: si-she, place: xi-jie, quote: 司射降自西階}\n",
    )
    stages, problems = load_stages(path)
    assert stages is not None and not stages.sections
    assert [(p.line, p.path, p.code) for p in problems] == [(2, "rites[0].rite", "Y120")]
