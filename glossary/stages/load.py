"""Loading ``stages.yaml``: the schema, the rites resolved, the model built with every line."""

from __future__ import annotations

from pathlib import Path

from glossary.load import Loaded, PathKey, load_yaml, render_path
from glossary.model import Citation, Movement, Placement, Stages, StageSection, StageStep
from glossary.problems import ERROR, Problem, did_you_mean
from glossary.schema_check import schema_problems
from glossary.textcheck import text_problems
from glossary.validate import citation_from
from glossary.vocab import Rite, vocabulary

FILENAME = "stages.yaml"
SCHEMA = "stages.schema.json"
#: The work a quote stands in unless it names another: the primary text.
WORK = "禮經本義"


def load_stages(path: Path) -> tuple[Stages | None, list[Problem]]:
    """Load and validate ``stages.yaml``; every problem is reported with its line (None when the
    file does not read or breaks its schema: nothing more is checked until it does)."""
    loaded = load_yaml(path, str(path))
    problems = list(loaded.problems)
    if loaded.data is None:
        return None, problems
    errors = schema_problems(loaded, SCHEMA) + text_problems(loaded)
    problems.extend(problem for _, problem in errors)
    if errors or not isinstance(loaded.data, dict):
        return None, problems
    sections: list[StageSection] = []
    for r, raw_rite in enumerate(loaded.data["rites"]):
        key: PathKey = ("rites", r)
        rite = _rite(loaded, key + ("rite",), raw_rite["rite"], problems)
        if rite is None:
            continue
        for s, raw in enumerate(raw_rite["sections"]):
            sections.append(_section(loaded, key + ("sections", s), rite, raw))
    return Stages(tuple(sections)), problems


def _rite(loaded: Loaded, key: PathKey, name: str, problems: list[Problem]) -> Rite | None:
    """The rite of a name, or None with a problem (Y120) at its line."""
    vocab = vocabulary()
    rite = vocab.rite(name)
    if rite is None:
        problems.append(
            Problem(
                loaded.file,
                loaded.line_of(key),
                render_path(loaded.data, key),
                ERROR,
                f"unknown rite {name!r}{did_you_mean(name, vocab.rite_names)}; the rites "
                f"(either script, or English): {vocab.rite_list()}",
                code="Y120",
            )
        )
    return rite


def _section(loaded: Loaded, key: PathKey, rite: Rite, raw: dict) -> StageSection:
    name = raw["section"]
    steps = tuple(
        _step(loaded, key + ("steps", i), i + 1, rite, name, step)
        for i, step in enumerate(raw["steps"])
    )
    return StageSection(
        rite,
        name,
        render_path(loaded.data, key),
        loaded.line_of(key),
        steps,
        raw.get("repeat", 1),
        raw.get("note"),
    )


def _step(
    loaded: Loaded, key: PathKey, number: int, rite: Rite, section: str, raw: dict
) -> StageStep:
    placements = []
    for i, item in enumerate(raw.get("placements", ())):
        at = key + ("placements", i)
        placements.append(
            Placement(
                actor=item["actor"],
                place=item["place"],
                path=render_path(loaded.data, at),
                line=loaded.line_of(at),
                qualifier=item.get("qualifier"),
                facing=item.get("facing"),
                citation=None
                if item.get("carried")
                else _citation(loaded, at, rite, section, item),
                carried=bool(item.get("carried")),
                note=item.get("note"),
                lines=_lines(loaded, at, item),
            )
        )
    movements = []
    for i, item in enumerate(raw.get("movements", ())):
        at = key + ("movements", i)
        movements.append(
            Movement(
                actor=item["actor"],
                origin=item["from"],
                to=item["to"],
                path=render_path(loaded.data, at),
                line=loaded.line_of(at),
                citation=_citation(loaded, at, rite, section, item),
                note=item.get("note"),
                lines=_lines(loaded, at, item),
            )
        )
    return StageStep(
        number,
        render_path(loaded.data, key),
        loaded.line_of(key),
        tuple(placements),
        tuple(movements),
        raw.get("note"),
    )


def _lines(loaded: Loaded, key: PathKey, raw: dict) -> tuple[tuple[str, int], ...]:
    return tuple((name, loaded.line_of(key + (name,))) for name in raw)


def _citation(loaded: Loaded, key: PathKey, rite: Rite, section: str, raw: dict) -> Citation:
    """The placement's or movement's quote as a citation of its place: in 禮經本義 (unless it names
    another work), in the rite's 卷 and the section, of the classic unless it says commentary."""
    fields = {name: raw[name] for name in ("quote", "work", "juan", "page", "layer") if name in raw}
    given = citation_from(loaded, key, fields)
    if "work" in raw and raw["work"] != WORK:
        return given  # another work: its own 卷 and page, if it gives them
    lines = dict(given.lines)
    return Citation(
        quote=given.quote,
        line=given.line,
        work=WORK,
        juan=given.juan if given.juan is not None else rite.juan,
        page=given.page,
        section=section,
        layer=given.layer or "classic",
        # Fields the file leaves out are said at the quote's line.
        lines=tuple(
            (name, lines.get(name, given.line))
            for name in ("quote", "work", "juan", "page", "section", "layer")
        ),
    )
