"""The checks of the stage plans (Y604–Y613), on what the check found: no I/O, no index.

The quotes themselves are verified by :class:`glossary.citations.CitationChecker` (in the
rite's 卷 and the section, ``glossary.check._check_stages``); what is checked here is what the
passage says: that it names the place and the facing, that the actor is a role, that nobody is
in two places at once, and that a placement held from an earlier step says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from glossary.corpus.model import Locus
from glossary.model import Entry, Movement, Place, Placement, Plan, Stages, Step
from glossary.normalize import normalize
from glossary.problems import ERROR, Problem, did_you_mean
from glossary.stages.carry import Origin, before, position, standing

#: The category of the entries an actor may be.
ROLE = "role"


def _problem(file: str, line: int, path: str, code: str, message: str) -> Problem:
    return Problem(file, line, path, ERROR, message, code=code)


def section_problems(
    file: str, stages: Stages, sequences: Mapping[str, Sequence[Step]]
) -> Iterator[Problem]:
    """Y604: every section is one of its rite's, as the primary text's markers name them."""
    for section in stages.sections:
        known = sequences.get(section.rite.id, ())
        names = {(normalize(step.name), step.repeat) for step in known}
        if (normalize(section.name), section.repeat) in names:
            continue
        listed = "、".join(step.name for step in known) or "none in the corpus"
        if section.repeat > 1:
            said = f"{section.name!r} {section.repeat} times"
            near = ""
        else:
            said = repr(section.name)
            near = did_you_mean(section.name, [step.name for step in known])
        yield _problem(
            file,
            section.line,
            f"{section.path}.section",
            "Y604",
            f"{section.rite.traditional} has no section {said}{near}; its sections: {listed}",
        )


def names_of(place: Place, entries: Mapping[str, Entry]) -> tuple[str, ...]:
    """Every name a quote may give a place: its label, its aliases, the headwords of its entry."""
    names = [place.label, *place.aliases]
    if place.term is not None and (entry := entries.get(place.term)) is not None:
        names += [entry.term, *([entry.traditional] if entry.traditional else []), *entry.variants]
    return tuple(dict.fromkeys(names))


def _says(quote: str, words: str) -> bool:
    return normalize(words) in normalize(quote)


def says_facing(quote: str, facing: str, lead: Iterable[str] = ()) -> bool:
    """Whether the quote says ``facing``: 北面 is not said by 東北面 (nor 南面 by 西南面), unless
    that 東 or 西 ends one of ``lead``, the place and its qualifier (阼階東南面: east of the east
    stairs, facing south)."""
    key, text = normalize(facing), normalize(quote)
    sides = normalize("東") + normalize("西")
    leads = [normalize(words) for words in lead]
    start = text.find(key)
    while start >= 0:
        before = text[:start]
        if len(key) > 2 or not before or before[-1] not in sides:
            return True
        if any(words and before.endswith(words) for words in leads):
            return True
        start = text.find(key, start + 1)
    return False


def step_problems(
    file: str, stages: Stages, plan: Plan, entries: Mapping[str, Entry]
) -> Iterator[Problem]:
    """Y605–Y611: places and actors known, the quote naming place, facing and qualifier, and
    nobody in two places in one step."""
    places = {place.id: place for place in plan.places}
    roles = sorted(entry.id for entry in entries.values() if entry.category == ROLE)
    for section in stages.sections:
        for step in section.steps:
            yield from _actors(file, step.items, entries, roles)
            for placement in step.placements:
                yield from _placement(file, placement, places, entries)
            for movement in step.movements:
                yield from _movement(file, movement, places, entries)
            yield from _twice(file, step.placements, step.movements)


def _actors(
    file: str,
    items: Iterable[Placement | Movement],
    entries: Mapping[str, Entry],
    roles: list[str],
) -> Iterator[Problem]:
    for item in items:
        entry = entries.get(item.actor)
        if entry is None:
            yield _problem(
                file,
                item.line_of("actor"),
                f"{item.path}.actor",
                "Y606",
                f"no entry has the id {item.actor!r}{did_you_mean(item.actor, roles)}",
            )
        elif entry.category != ROLE:
            yield _problem(
                file,
                item.line_of("actor"),
                f"{item.path}.actor",
                "Y607",
                f"{item.actor!r} ({entry.term}) is an entry of the {entry.category} category, "
                "not a role",
            )


def _unknown(file: str, line: int, path: str, place: str, places: Mapping[str, Place]) -> Problem:
    return _problem(
        file,
        line,
        path,
        "Y605",
        f"no place of the hall plan has the id {place!r}{did_you_mean(place, sorted(places))}",
    )


def _placement(
    file: str, placement: Placement, places: Mapping[str, Place], entries: Mapping[str, Entry]
) -> Iterator[Problem]:
    place = places.get(placement.place)
    if place is None:
        yield _unknown(
            file, placement.line_of("place"), f"{placement.path}.place", placement.place, places
        )
    citation = placement.citation
    if citation is None:
        return  # carried: the earlier placement's quote said it (carry_problems checks it)
    quote, at = citation.quote, citation.line_of("quote")
    if place is not None and not any(_says(quote, name) for name in names_of(place, entries)):
        yield _problem(
            file,
            at,
            f"{placement.path}.quote",
            "Y608",
            f"the quote does not name {place.label} ({place.id}); it may by: "
            + "、".join(names_of(place, entries)),
        )
    names = names_of(place, entries) if place is not None else ()
    # The place alone leads too: 三耦俟于堂西南面 (at 堂西, facing south), not 西南面.
    lead = [
        *names,
        *(name + part for name in names for part in (placement.qualifier or "").split()),
    ]
    if placement.facing is not None and not says_facing(quote, placement.facing, lead):
        yield _problem(
            file,
            at,
            f"{placement.path}.quote",
            "Y609",
            f"the quote does not say {placement.facing}: quote it, or give facing: null",
        )
    if placement.qualifier is not None and not all(
        _says(quote, part) for part in placement.qualifier.split()
    ):
        yield _problem(
            file,
            at,
            f"{placement.path}.quote",
            "Y610",
            f"the quote does not say {placement.qualifier}: quote it, or leave the qualifier out",
        )


def _movement(
    file: str, movement: Movement, places: Mapping[str, Place], entries: Mapping[str, Entry]
) -> Iterator[Problem]:
    ends = []
    for field, place_id in (("from", movement.origin), ("to", movement.to)):
        if (place := places.get(place_id)) is None:
            yield _unknown(
                file, movement.line_of(field), f"{movement.path}.{field}", place_id, places
            )
        else:
            ends.append(place)
    quote = movement.citation.quote
    if len(ends) == 2 and not any(
        _says(quote, name) for place in ends for name in names_of(place, entries)
    ):
        yield _problem(
            file,
            movement.citation.line_of("quote"),
            f"{movement.path}.quote",
            "Y608",
            f"the quote names neither {ends[0].label} ({ends[0].id}) nor {ends[1].label} "
            f"({ends[1].id}), the places the actor leaves and reaches",
        )


def _twice(
    file: str, placements: Sequence[Placement], movements: Sequence[Movement]
) -> Iterator[Problem]:
    seen: dict[str, Placement] = {}
    for placement in placements:
        if (first := seen.get(placement.actor)) is not None:
            yield _problem(
                file,
                placement.line_of("actor"),
                f"{placement.path}.actor",
                "Y611",
                f"{placement.actor} is placed twice in one step (at {first.place} on line "
                f"{first.line}, at {placement.place} here): split the step",
            )
        else:
            seen[placement.actor] = placement
    ends: dict[str, Movement] = {}
    for movement in movements:
        ends[movement.actor] = movement  # the last movement of the actor in the step
    for actor, movement in ends.items():
        if (placed := seen.get(actor)) is not None and placed.place != movement.to:
            yield _problem(
                file,
                placed.line_of("place"),
                f"{placed.path}.place",
                "Y611",
                f"{actor} moves to {movement.to} in this step (line {movement.line}) but stands "
                f"at {placed.place}: one of them belongs to another step",
            )


def _said(place: str, qualifier: str | None, facing: str | None) -> str:
    return " ".join(part for part in (place, qualifier, facing) if part)


def carry_problems(file: str, stages: Stages, chosen: Mapping[str, Locus]) -> Iterator[Problem]:
    """Y612: a quoted placement that is the actor's earlier placement again (the same passage,
    ``chosen``: path → the locus each verified quote was given); Y613: a carried placement, or
    a movement's start, where the actor does not stand."""
    origins = standing(stages)
    starts = before(stages)
    last: dict[tuple[str, str], Placement] = {}
    for section in stages.sections:
        for step in section.steps:
            for movement in step.movements:
                if (earlier := starts.get(movement.path)) is not None:
                    where = position(earlier)[0]
                    if where != movement.origin:
                        yield _problem(
                            file,
                            movement.line_of("from"),
                            f"{movement.path}.from",
                            "Y613",
                            f"{movement.actor} stands at {where} (line {earlier.line}), "
                            f"not at {movement.origin}",
                        )
            for placement in step.placements:
                key = (section.rite.id, placement.actor)
                if placement.carried:
                    yield from _carried(file, placement, origins.get(placement.path))
                    continue
                earlier_placement = last.get(key)
                here = chosen.get(placement.path)
                if (
                    earlier_placement is not None
                    and here is not None
                    and (there := chosen.get(earlier_placement.path)) is not None
                    and (there.file, there.start) == (here.file, here.start)
                ):
                    yield _problem(
                        file,
                        placement.line_of("quote"),
                        f"{placement.path}.quote",
                        "Y612",
                        f"the same passage placed {placement.actor} on line "
                        f"{earlier_placement.line}: he has not moved since, so the placement "
                        "carries over: write `carried: true` instead of the quote",
                    )
            for placement in step.placements:
                if not placement.carried:
                    last[(section.rite.id, placement.actor)] = placement


def _carried(file: str, placement: Placement, origin: Origin | None) -> Iterator[Problem]:
    path, line = f"{placement.path}.carried", placement.line_of("carried")
    if origin is None:
        yield _problem(
            file,
            line,
            path,
            "Y613",
            f"{placement.actor} is placed nowhere before in the rite: nothing carries over; "
            "quote the passage that places him",
        )
        return
    was = position(origin)
    now = (placement.place, placement.qualifier, placement.facing)
    if was != now:
        yield _problem(
            file,
            line,
            path,
            "Y613",
            f"{placement.actor} was last at {_said(*was)} (line {origin.line}), not at "
            f"{_said(*now)}: carry that, or quote the passage that moves or turns him",
        )


def choose_loci(
    stages: Stages, loci: Mapping[str, Sequence[Locus]], primary: str | None = None
) -> dict[str, Locus]:
    """Path → the one locus of each verified quote a plan shows: in the primary text (``primary``,
    its id) where the quote stands there too (an excerpt of it holds the passage again). A short quote (賔西階上答拜) may
    stand several times in its section: the step's is the first at or after the earliest passage
    the step before it was given (the text's order) that the actor was not given already, else
    the first at or after it, else the first of all."""
    chosen: dict[str, Locus] = {}
    for section in stages.sections:
        cursor: tuple[str, int] | None = None
        given: set[tuple[str, str, int]] = set()  # (actor, file, start) already shown
        for step in section.steps:
            starts = []
            for item in step.items:
                found = sorted(loci.get(item.path, ()), key=lambda l: (l.file, l.start))
                found = [l for l in found if l.work == primary] or found
                if not found:
                    continue
                after = [l for l in found if cursor is None or (l.file, l.start) >= cursor]
                fresh = [l for l in after if (item.actor, l.file, l.start) not in given]
                pick = (fresh or after or found)[0]
                chosen[item.path] = pick
                starts.append((pick.file, pick.start))
            for item in step.items:
                if (shown := chosen.get(item.path)) is not None:
                    given.add((item.actor, shown.file, shown.start))
            if starts:
                cursor = min(starts)
    return chosen
