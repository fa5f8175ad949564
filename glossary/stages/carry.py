"""Where each actor of the stage plans stands: what a carried placement or a movement rests on.

A step is one moment of a section. Its placements say who stands where at that moment; its
movements, who moved during it (ending where he then stands). A placement holds until the
text moves the actor: a later step that still shows him there marks it ``carried`` and quotes
nothing of its own. :func:`standing` resolves every carried placement to the placement or
movement that put the actor there, so a renderer can draw any step whole.
"""

from __future__ import annotations

from glossary.model import Movement, Placement, Stages, StageStep

#: What stands behind a placement: itself, or for a carried one what put the actor there.
Origin = Placement | Movement


def standing(stages: Stages) -> dict[str, Origin | None]:
    """Placement path → the placement (not carried) or movement it rests on: itself for a quoted
    placement; for a carried one, the actor's last placement or movement before it in the rite
    (a movement of the same step included), or None where the actor was never placed."""
    found: dict[str, Origin | None] = {}
    last: dict[tuple[str, str], Origin] = {}  # (rite id, actor) → his latest placement or movement
    for section in stages.sections:
        for step in section.steps:
            here = dict(last)
            for movement in step.movements:
                here[(section.rite.id, movement.actor)] = movement
            for placement in step.placements:
                key = (section.rite.id, placement.actor)
                if placement.carried:
                    found[placement.path] = here.get(key)
                else:
                    found[placement.path] = placement
            _remember(last, section.rite.id, step)
    return found


def before(stages: Stages) -> dict[str, Origin]:
    """Movement path → the actor's last placement (quoted) or movement in an earlier step of the
    rite, where he has one: where the movement must start."""
    found: dict[str, Origin] = {}
    last: dict[tuple[str, str], Origin] = {}
    for section in stages.sections:
        for step in section.steps:
            for movement in step.movements:
                if (earlier := last.get((section.rite.id, movement.actor))) is not None:
                    found[movement.path] = earlier
            _remember(last, section.rite.id, step)
    return found


def position(origin: Origin) -> tuple[str, str | None, str | None]:
    """(place, qualifier, facing) where a placement or movement leaves the actor (a movement
    says no facing)."""
    if isinstance(origin, Movement):
        return origin.to, None, None
    return origin.place, origin.qualifier, origin.facing


def _remember(last: dict[tuple[str, str], Origin], rite: str, step: StageStep) -> None:
    """After a step, where each actor it moves or places (by a quote) was last put."""
    for movement in step.movements:
        last[(rite, movement.actor)] = movement
    for placement in step.placements:
        if not placement.carried:
            last[(rite, placement.actor)] = placement
