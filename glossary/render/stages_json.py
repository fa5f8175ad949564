"""``stages.json``: every step of the stage plans, each actor's place and facing with the passage
that says it, and every movement (stages.yaml, checked; glossary.stages)."""

from __future__ import annotations

from glossary.model import Glossary, Movement, Placement, StageSection, StageStep
from glossary.problems import dump_json
from glossary.render.terms_json import locus_json
from glossary.stages.carry import standing

FILENAME = "stages.json"


def render(glossary: Glossary) -> dict[str, bytes]:
    """``stages.json``: a list of steps in the file's order (rite, section, step from 1), as stable
    JSON; nothing when the project has no stage plans."""
    if glossary.stages is None:
        return {}
    origins = standing(glossary.stages)
    steps = [
        _step(glossary, origins, section, step)
        for section in glossary.stages.sections
        for step in section.steps
    ]
    return {FILENAME: dump_json(steps).encode("utf-8")}


def _step(
    glossary: Glossary,
    origins: dict[str, Placement | Movement | None],
    section: StageSection,
    step: StageStep,
) -> dict[str, object]:
    data: dict[str, object] = {
        "rite": section.rite.traditional,
        "section": section.name,
        **({"repeat": section.repeat} if section.repeat > 1 else {}),
        "step": step.number,
    }
    if step.note:
        data["note"] = step.note
    data["placements"] = [
        _placement(glossary, placement, origins.get(placement.path))
        for placement in step.placements
    ]
    data["movements"] = [
        {
            "actor": movement.actor,
            "from": movement.origin,
            "to": movement.to,
            "quote": movement.citation.quote,
            "locus": _locus(glossary, movement.path),
        }
        for movement in step.movements
    ]
    return data


def _placement(
    glossary: Glossary, placement: Placement, origin: Placement | Movement | None
) -> dict[str, object]:
    """A placement with its passage: a carried one shows the passage of what put the actor there
    (a checked file has one for every carried placement)."""
    source = origin if origin is not None else placement
    citation = source.citation
    return {
        "actor": placement.actor,
        "place": placement.place,
        "qualifier": placement.qualifier,
        "facing": placement.facing,
        "carried": placement.carried,
        "quote": citation.quote if citation is not None else None,
        "locus": _locus(glossary, source.path),
    }


def _locus(glossary: Glossary, path: str) -> dict[str, object] | None:
    locus = glossary.stage_loci.get(path)
    return locus_json(glossary, locus) if locus is not None else None
