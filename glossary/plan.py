"""Loading the hall plan (``plan.yaml``): places of the hall and courtyard, each fixed by cited passages."""

from __future__ import annotations

import math
from pathlib import Path

from glossary.load import Loaded, PathKey, load_yaml, render_path
from glossary.model import Place, Plan
from glossary.problems import ERROR, Problem
from glossary.schema_check import schema_problems
from glossary.textcheck import text_problems
from glossary.validate import citation_from, resolve_rites

FILENAME = "plan.yaml"


def load_plan(path: Path) -> tuple[Plan | None, list[Problem]]:
    """Load and validate ``plan.yaml``; every problem is reported with its line."""
    loaded = load_yaml(path, str(path))
    problems = list(loaded.problems)
    if loaded.data is None:
        return None, problems
    schema_errors = (
        schema_problems(loaded, "plan.schema.json") + text_problems(loaded) + _not_finite(loaded)
    )
    problems.extend(problem for _, problem in schema_errors)
    if schema_errors or not isinstance(loaded.data, dict):
        return None, problems
    places = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(loaded.data["places"]):
        key: PathKey = ("places", index)
        if raw["id"] in seen:
            problems.append(
                Problem(
                    loaded.file,
                    loaded.line_of(key + ("id",)),
                    render_path(loaded.data, key + ("id",)),
                    ERROR,
                    f"duplicate place id {raw['id']!r} (first on line {seen[raw['id']]})",
                    code="Y601",
                )
            )
            continue
        seen[raw["id"]] = loaded.line_of(key)
        places.append(_place(loaded, key, raw, problems))
    return Plan(float(loaded.data["width"]), float(loaded.data["height"]), tuple(places)), problems


def _not_finite(loaded: Loaded) -> list[tuple[PathKey, Problem]]:
    """``.nan`` passes every bound a schema can state (no comparison with it is true): refused here."""
    found: list[tuple[PathKey, Problem]] = []
    data = loaded.data if isinstance(loaded.data, dict) else {}
    listed = data.get("places")
    places = listed if isinstance(listed, list) else []
    numbers: list[tuple[PathKey, object]] = [
        ((name,), data.get(name)) for name in ("width", "height")
    ]
    numbers += [
        (("places", i, name), place.get(name))
        for i, place in enumerate(places)
        if isinstance(place, dict)
        for name in ("x", "y", "w", "h")
    ]
    for path, value in numbers:
        if isinstance(value, float) and math.isnan(value):  # ±inf: the schema's bounds say so
            found.append(
                (
                    path,
                    Problem(
                        loaded.file,
                        loaded.line_of(path),
                        render_path(loaded.data, path),
                        ERROR,
                        f"{value} is not a coordinate: give a number",
                        code="Y602",
                    ),
                )
            )
    return found


def _place(loaded: Loaded, path: PathKey, raw: dict, problems: list[Problem]) -> Place:
    return Place(
        id=raw["id"],
        label=raw["label"],
        kind=raw["kind"],
        x=float(raw["x"]),
        y=float(raw["y"]),
        w=float(raw.get("w", 0)),
        h=float(raw.get("h", 0)),
        line=loaded.line_of(path),
        term=raw.get("term"),
        rites=resolve_rites(loaded, path + ("rites",), raw.get("rites", []), problems),
        citations=tuple(
            citation_from(loaded, path + ("citations", i), c)
            for i, c in enumerate(raw["citations"])
        ),
        note=raw.get("note"),
        aliases=tuple(raw.get("aliases", ())),
    )
