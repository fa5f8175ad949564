"""Loading ``retired.yaml``: the ids of entries merged into others.

An id, once published, keys users' Anki notes; when two entries become one, the id that goes
is listed here with the entry it went into, and the Anki renderer turns its notes into ones
that say so (see glossary.render.anki.notes.retired_notes).
"""

from __future__ import annotations

from pathlib import Path

from glossary.load import load_yaml, render_path
from glossary.model import Entry, Retired
from glossary.problems import ERROR, Problem, did_you_mean
from glossary.schema_check import schema_problems
from glossary.textcheck import text_problems

FILENAME = "retired.yaml"


def load_retired(path: Path, entries: list[Entry]) -> tuple[tuple[Retired, ...], list[Problem]]:
    """The retired ids, checked against the live entries (``merged_into`` must be one; no id may be both)."""
    loaded = load_yaml(path, str(path))
    problems = list(loaded.problems)
    if loaded.data is None:
        return (), problems
    errors = schema_problems(loaded, "retired.schema.json") + text_problems(loaded)
    problems.extend(problem for _, problem in errors)
    if errors or not isinstance(loaded.data, list):
        return (), problems
    live = {entry.id for entry in entries}
    seen: set[str] = set()
    retired = []
    for index, raw in enumerate(loaded.data):

        def add(field: str, message: str, code: str, index: int = index) -> None:
            key = (index, field)
            problems.append(
                Problem(
                    loaded.file,
                    loaded.line_of(key),
                    render_path(loaded.data, key),
                    ERROR,
                    message,
                    code=code,
                )
            )

        if raw["id"] in live:
            add(
                "id",
                f"{raw['id']!r} is retired but is also the id of an entry in the glossary",
                "Y804",
            )
        elif raw["id"] in seen:
            add("id", f"{raw['id']!r} is listed twice", "Y805")
        elif raw["merged_into"] not in live:
            add(
                "merged_into",
                f"unknown glossary id {raw['merged_into']!r}{did_you_mean(raw['merged_into'], sorted(live))}",
                "Y806",
            )
        else:
            seen.add(raw["id"])
            retired.append(
                Retired(
                    raw["id"],
                    raw["term"],
                    raw["merged_into"],
                    raw["note"],
                    loaded.line_of((index,)),
                )
            )
    return tuple(retired), problems
