"""Validation of a loaded terms file: schema, then cross-entry rules.

The JSON Schema shipped in ``schema/terms.schema.json`` is the single source of truth for fields
and types (:mod:`glossary.schema_check` places and phrases its errors); what no text may hold is
:mod:`glossary.textcheck`'s. Here: the rules across entries (ids, related, media, 卷 numbers), and
the valid entries made into the model's :class:`Entry` and :class:`Citation`, rites resolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from glossary.corpus.numerals import parse_number
from glossary.load import Loaded, PathKey, load_yaml, render_path
from glossary.model import Citation, Declined, Entry, Follows, Sense, Waiver
from glossary.problems import ERROR, Problem, did_you_mean
from glossary.schema import fields_of, schema
from glossary.schema_check import schema_problems
from glossary.textcheck import PLACEHOLDER, is_placeholder, placeholder_paths, text_problems
from glossary.vocab import Rite, vocabulary

MEDIA = "media"


def _as_str(value: object) -> str | None:
    return None if value is None else str(value)


#: How a citation's fields become the model's values (the rest are kept as given).
CITATION_VALUES: dict[str, Callable[[Any], object]] = {
    "juan": lambda value: parse_number(str(value)),
    "page": _as_str,
    "reading": lambda value: Follows(str(value["follows"]), str(value["why"])),
}


def citation_from(loaded: Loaded, path: PathKey, raw: dict) -> Citation:
    """A citation as the model holds it, with the line of each field."""
    # Checked against the JSON Schema already, whose types test_architecture keeps the model's.
    values: dict[str, Any] = {
        name: CITATION_VALUES[name](raw[name]) if name in CITATION_VALUES else raw[name]
        for name in fields_of("citation")
        if name in raw
    }
    return Citation(
        **values,
        line=loaded.line_of(path + ("quote",)),
        lines=tuple((name, loaded.line_of(path + (name,))) for name in raw),
    )


def resolve_rites(
    loaded: Loaded, path: PathKey, names: object, problems: list[Problem]
) -> tuple[Rite, ...]:
    """The rites a list of names refers to; an unknown name is a problem at its line."""
    vocab = vocabulary()
    rites = []
    for i, name in enumerate(names if isinstance(names, list) else ()):
        rite = vocab.rite(name) if isinstance(name, str) else None
        if rite is None:
            if isinstance(name, str) and not is_placeholder(name):  # a placeholder is said once
                item = path + (i,)
                problems.append(
                    Problem(
                        loaded.file,
                        loaded.line_of(item),
                        render_path(loaded.data, item),
                        ERROR,
                        f"unknown rite {name!r}{did_you_mean(name, vocab.rite_names)}",
                        code="Y120",
                    )
                )
        elif rite not in rites:
            rites.append(rite)
    return tuple(rites)


def declined_rites(
    loaded: Loaded, path: PathKey, given: object, problems: list[Problem]
) -> tuple[Declined, ...]:
    """The rites of a ``rites_declined`` mapping with their reasons; an unknown name is a problem."""
    vocab = vocabulary()
    declined: list[Declined] = []
    for name, why in given.items() if isinstance(given, dict) else ():
        item = path + (name,)
        rite = vocab.rite(name) if isinstance(name, str) else None
        if rite is None:
            message = f"unknown rite {name!r}{did_you_mean(str(name), vocab.rite_names)}"
            problems.append(
                Problem(
                    loaded.file,
                    loaded.line_of(item),
                    render_path(loaded.data, item),
                    ERROR,
                    message,
                    code="Y120",
                )
            )
        elif all(d.rite != rite for d in declined):
            declined.append(Declined(rite, str(why), loaded.line_of(item), name))
    return tuple(declined)


def _entry(loaded: Loaded, index: int, raw: dict, problems: list[Problem]) -> Entry:
    # Checked against the JSON Schema already, whose types test_architecture keeps the model's.
    values: dict[str, Any] = {}
    for name in fields_of("entry"):
        if name not in raw:
            continue
        value = raw[name]
        if name == "rites":
            value = resolve_rites(loaded, (index, name), value, problems)
        elif name == "rites_declined":
            value = declined_rites(loaded, (index, name), value, problems)
        elif name == "senses":
            value = tuple(
                Sense(
                    resolve_rites(
                        loaded, (index, name, i, "rites"), item.get("rites", []), problems
                    ),
                    str(item["gloss"]),
                    str(item["definition"]) if item.get("definition") is not None else None,
                    loaded.line_of((index, name, i)),
                )
                for i, item in enumerate(value)
            )
        elif name == "citations":
            value = tuple(citation_from(loaded, (index, name, i), c) for i, c in enumerate(value))
        elif name == "ignore":
            value = tuple(
                Waiver(str(item["code"]), str(item["why"]), loaded.line_of((index, name, i)))
                for i, item in enumerate(value)
            )
        elif isinstance(value, list):
            value = tuple(value)
        values[name] = value
    return Entry(
        **values,
        line=loaded.line_of((index,)),
        lines=tuple((name, loaded.line_of((index, name))) for name in raw),
    )


#: Citations a terms file may hold in all (the shipped one has about 3,000): each may stand at up
#: to 50 places (citations.MAX_PLACES), and every place is carried to every output.
MAX_CITATIONS = 20_000


def citation_count_problem(loaded: Loaded) -> Problem | None:
    """One problem when the file's citations are more than :data:`MAX_CITATIONS` in all."""
    data = loaded.data if isinstance(loaded.data, list) else []
    count = sum(
        len(raw["citations"])
        for raw in data
        if isinstance(raw, dict) and isinstance(raw.get("citations"), list)
    )
    if count <= MAX_CITATIONS:
        return None
    return Problem(
        loaded.file,
        1,
        "",
        ERROR,
        f"{count:,} citations in all, more than the {MAX_CITATIONS:,} a terms file may hold",
        code="Y012",
    )


def validate(loaded: Loaded, base: Path) -> tuple[list[Entry], list[Problem]]:
    """Entries that passed the schema, and every problem found (schema and cross-entry)."""
    if loaded.data is None:
        return [], []
    problems: list[Problem] = []
    broken: set[int] = set()
    if isinstance(loaded.data, list) and len(loaded.data) > schema()["maxItems"]:
        # One problem, not one per entry: a million copied entries must not take minutes to list.
        count = len(loaded.data)
        return [], [
            Problem(
                loaded.file,
                1,
                "",
                ERROR,
                f"{count:,} entries, more than the {schema()['maxItems']:,} a terms file may hold",
                code="Y011",
            )
        ]
    if (problem := citation_count_problem(loaded)) is not None:
        return [], [problem]
    #: Values already reported (too long, invisible characters): not looked at again below.
    flagged: set[PathKey] = set()
    for path, problem in [*schema_problems(loaded), *text_problems(loaded)]:
        problems.append(problem)
        flagged.add(path)
        if path and isinstance(path[0], int):
            broken.add(path[0])
    if not isinstance(loaded.data, list):
        return [], problems
    data: list = loaded.data
    # An entry with a value the loader refused (a tag, a bad date) holds None there: not buildable.
    broken.update(path[0] for path in loaded.voided if path and isinstance(path[0], int))

    def add(path: PathKey, message: str, code: str) -> None:
        problems.append(
            Problem(
                loaded.file,
                loaded.line_of(path),
                render_path(data, path),
                ERROR,
                message,
                code=code,
            )
        )

    first_line: dict[str, int] = {}
    for index, raw in enumerate(data):
        ident = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(ident, str):
            continue
        if ident in first_line:
            add(
                (index, "id"),
                f"duplicate id {ident!r} (first used on line {first_line[ident]})",
                "Y117",
            )
            broken.add(index)
        else:
            first_line[ident] = loaded.line_of((index, "id"))
    media_names: dict[str, str] = {}
    known_ids = list(first_line)
    # One suggestion per unknown id, however often it is named (copied entries repeat them).
    hints: dict[str, str] = {}
    for index, raw in enumerate(data):
        if not isinstance(raw, dict):
            continue
        for i, target in enumerate(_list(raw, "related")):
            if not isinstance(target, str):
                continue
            if target == raw.get("id"):
                add((index, "related", i), "an entry cannot be related to itself", "Y118")
            elif target not in first_line:
                if target not in hints:
                    hints[target] = did_you_mean(target, known_ids)
                add((index, "related", i), f"unknown id {target!r}{hints[target]}", "Y119")
        for i, name in enumerate(_list(raw, "media")):
            if (index, "media", i) in flagged:
                continue
            if isinstance(name, str) and (message := check_media_path(name, base)):
                add((index, "media", i), message, "Y701")
            elif isinstance(name, str):
                # Anki keeps media by bare file name: two paths with one name would overwrite each other.
                bare = PurePosixPath(name).name
                if bare in media_names and media_names[bare] != name:
                    add(
                        (index, "media", i),
                        f"media file name {bare!r} is already used by {media_names[bare]!r}",
                        "Y702",
                    )
                media_names.setdefault(bare, name)
        for i, citation in enumerate(_list(raw, "citations")):
            juan = citation.get("juan") if isinstance(citation, dict) else None
            if juan is not None and not isinstance(juan, bool) and parse_number(str(juan)) is None:
                add(
                    (index, "citations", i, "juan"),
                    f"{juan!r} is not a 卷 number (write 4 or 卷四)",
                    "Y121",
                )
                broken.add(index)
    for path in placeholder_paths(data):
        add(
            path,
            f"still the scaffold's placeholder ({PLACEHOLDER} …): write it, or leave the field out "
            "if it is optional",
            "Y116",
        )
    entries = [
        _entry(loaded, index, raw, problems)
        for index, raw in enumerate(data)
        if index not in broken and isinstance(raw, dict)
    ]
    return entries, problems


def load_entries(path: Path) -> tuple[list[Entry], list[Problem]]:
    """The valid entries of a terms file, and every problem its loading and validation found."""
    loaded = load_yaml(path)
    entries, problems = validate(loaded, path.parent)
    return entries, sorted([*loaded.problems, *problems])


def _list(raw: dict, name: str) -> list:
    """A list field's items; anything else the schema has already reported."""
    value = raw.get(name)
    return value if isinstance(value, list) else []


#: Media file names Anki keeps and references safely (no quotes, brackets, ampersands or spaces).
MEDIA_NAME = re.compile(r"[\w][\w.-]*")


def check_media_path(name: str, base: Path) -> str | None:
    """Why a media path is refused, or None: relative, inside media/ (no symbolic links on the
    way), a safe file name, and a regular file."""
    posix = PurePosixPath(name)
    if (
        posix.is_absolute()
        or "\\" in name
        or ".." in posix.parts
        or not posix.parts
        or posix.parts[0] != MEDIA
    ):
        return f"media path {name!r} must be a relative path inside {MEDIA}/"
    if not MEDIA_NAME.fullmatch(posix.name):
        return (
            f"media file name {posix.name!r} may hold only letters, digits, '.', '_' and '-' "
            "(Anki refers to media by bare name)"
        )
    # Every step is looked at: a symbolic link (media/ itself included) could lead anywhere.
    step = base
    for part in posix.parts:
        step = step / part
        try:
            if step.is_symlink():
                return f"media path {name!r}: {step.relative_to(base)} is a symbolic link (not allowed)"
        except OSError as exc:
            return f"media path {name!r}: {exc.strerror}"
    try:
        if not step.is_file():
            return f"media file {name!r} does not exist"
    except OSError as exc:
        return f"media path {name!r}: {exc.strerror}"
    return None
