"""Loading ``retired.yaml``: the ids of entries merged into others.

An id, once published, keys users' Anki notes; when two entries become one, the id that goes
is listed here with the entry it went into, and the Anki renderer turns its notes into ones
that say so (see glossary.render.anki.notes.retired_notes).
"""

from __future__ import annotations

from pathlib import Path

from glossary.load import load_yaml, render_path
from glossary.model import Entry, Retired
from glossary.problems import ERROR, Problem, did_you_mean, printable
from glossary.schema_check import schema_problems
from glossary.textcheck import text_problems

FILENAME = "retired.yaml"


def load_retired(
    path: Path, entries: list[Entry], terms_file: str = "terms.yaml"
) -> tuple[tuple[Retired, ...], list[Problem]]:
    """The retired ids, checked against the live entries (``merged_into`` must be one; no id may be
    both: said at the entry of ``terms_file`` that took it, with ids that are free)."""
    loaded = load_yaml(path, str(path))
    problems = list(loaded.problems)
    if loaded.data is None:
        return (), problems
    errors = schema_problems(loaded, "retired.schema.json") + text_problems(loaded)
    problems.extend(problem for _, problem in errors)
    if errors or not isinstance(loaded.data, list):
        return (), problems
    live = {entry.id: entry for entry in entries}
    every_retired = {str(raw.get("id")) for raw in loaded.data if isinstance(raw, dict)}
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
            entry = live[raw["id"]]
            problems.append(
                Problem(
                    terms_file,
                    entry.line,
                    f"{entry.id}.id",
                    ERROR,
                    f"{entry.id} is a retired id ({printable(loaded.file)}:{loaded.line_of((index,))}: "
                    f"{printable(raw['term'])}, merged into {raw['merged_into']}), and a retired "
                    "id is never used again (users' Anki notes still carry it): choose another "
                    f"id for this entry; free: {', '.join(free_for(entry, set(live) | every_retired))}",
                    code="Y804",
                )
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


def free_for(entry: Entry, taken: set[str]) -> list[str]:
    """Two ids that no entry and no retired id has, from the entry's reading, category and rite."""
    from glossary.ids import free_ids

    words = (entry.category, *(rite.id for rite in entry.rites[:1]))
    return free_ids(entry.pinyin, taken, words, 2)


def merged_terms(
    terms_file: str, entries: list[Entry], retired: tuple[Retired, ...], retired_file: str
) -> list[Problem]:
    """Y807: an entry whose headword or variant is a retired entry's headword, besides the entry
    it was merged into: the concept has an entry already."""
    from glossary.rules.entry import simplified

    gone = {simplified(r.term): r for r in retired}
    home = {entry.id: entry for entry in entries}
    found = []
    for entry in entries:
        for field, form in [("term", entry.term), *(("variants", v) for v in entry.variants)]:
            was = gone.get(simplified(form))
            if was is None or was.merged_into == entry.id:
                continue
            into = home[was.merged_into]
            found.append(
                Problem(
                    terms_file,
                    entry.line if field == "term" else entry.line_of(field),
                    f"{entry.id}.{field}",
                    ERROR,
                    f"{printable(form)} was merged into {into.id} ({printable(into.term)}, line "
                    f"{into.line}; {printable(retired_file)}:{was.line}, the retired id {was.id}): "
                    f"add what this entry says to {into.id} rather than a second entry",
                    code="Y807",
                )
            )
    return found
