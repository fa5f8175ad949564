"""Where each actor stands: a carried placement rests on the placement or movement before it."""

from __future__ import annotations

from conftest import FIXTURES

from glossary.stages.carry import before, position, standing
from glossary.stages.load import load_stages


def test_a_carried_placement_rests_on_the_last_placement_of_its_actor() -> None:
    stages, _ = load_stages(FIXTURES / "stages-mini.yaml")
    assert stages is not None
    first = stages.sections[0]
    placed = first.steps[1].placements[0]
    carried = first.steps[2].placements[0]
    origins = standing(stages)
    assert origins[carried.path] is placed
    assert origins[placed.path] is placed  # a quoted placement rests on itself
    assert position(placed) == ("xi-jie", "前", "西面")


def test_a_movement_starts_where_its_actor_last_stood() -> None:
    stages, _ = load_stages(FIXTURES / "stages-mini.yaml")
    assert stages is not None
    first = stages.sections[0]
    movement = first.steps[1].movements[0]
    assert before(stages)[movement.path] is first.steps[0].placements[0]
    assert position(movement) == ("xi-jie", None, None)  # a movement says no facing
