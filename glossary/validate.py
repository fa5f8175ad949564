"""Validation of a loaded terms file: schema, then cross-entry rules.

The JSON Schema shipped in ``schema/terms.schema.json`` is the single source of
truth for fields and types; its errors are placed at the line of the offending
node and phrased for contributors (unknown fields get a did-you-mean).
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import jsonschema_rs

from glossary.corpus.numerals import parse_number
from glossary.load import Loaded, PathKey, render_path
from glossary.model import Citation, Entry
from glossary.problems import ERROR, Problem

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

MEDIA = "media"
TYPE_NAMES = {dict: "a mapping", list: "a list", str: "text", int: "a number", float: "a number", bool: "true/false"}


SCHEMAS = ("terms.schema.json", "plan.schema.json")


@lru_cache(maxsize=None)
def schema(name: str = "terms.schema.json") -> dict:
    """One of the shipped JSON Schemas."""
    text = resources.files("glossary.schema").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=None)
def validator(name: str) -> "Draft202012Validator":
    """A validator for a shipped schema, resolving references between the shipped schemas."""
    # Imported here: only a file with errors needs jsonschema (a tenth of `check`'s start-up).
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Registry = Registry().with_resources(
        (schema(other)["$id"], Resource.from_contents(schema(other))) for other in SCHEMAS
    )
    return Draft202012Validator(schema(name), registry=registry)


@lru_cache(maxsize=None)
def fast_validator(name: str) -> jsonschema_rs.Validator:
    """The same schema compiled by jsonschema-rs: answers "is it valid?" a hundred times faster."""
    registry = jsonschema_rs.Registry([(schema(other)["$id"], schema(other)) for other in SCHEMAS])
    return jsonschema_rs.validator_for(schema(name), registry=registry, offline=True)


def _valid(data: object, name: str) -> bool:
    try:
        return fast_validator(name).is_valid(data)
    except Exception:  # noqa: BLE001 - values JSON has no type for (a YAML date), depths it refuses:
        return False  # jsonschema judges those and says where


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """`` (did you mean 'gloss'?)`` or ''."""
    from rapidfuzz import fuzz, process  # only a file with a mistake needs it

    best = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=60)
    return f" (did you mean {best[0]!r}?)" if best else ""


def _describe(value: object) -> str:
    return "nothing" if value is None else TYPE_NAMES.get(type(value), type(value).__name__)


def schema_problems(loaded: Loaded, name: str = "terms.schema.json") -> list[tuple[PathKey, Problem]]:
    """Schema errors of a loaded file, phrased for contributors, at their lines."""
    problems: dict[Problem, PathKey] = {}
    if _valid(loaded.data, name):
        return []
    # Only a file with errors pays for jsonschema, whose errors carry what the messages need.
    for error in validator(name).iter_errors(loaded.data):
        if tuple(error.absolute_path) in loaded.reported:
            continue
        for path, message in _phrase(error):
            line = loaded.line_of(path)
            # jsonschema reports `required` once per missing field, each listing all of them.
            problems.setdefault(Problem(loaded.file, line, render_path(loaded.data, path), ERROR, message), path)
    return [(path, problem) for problem, path in sorted(problems.items())]


def _phrase(error: "ValidationError") -> list[tuple[PathKey, str]]:
    path = tuple(error.absolute_path)
    value = error.instance
    if error.validator == "additionalProperties":
        known = tuple(error.schema.get("properties", {}))
        extra = [k for k in value if k not in known]
        return [(path + (k,), f"unknown field {k!r}{did_you_mean(str(k), known)}") for k in extra]
    if error.validator == "required":
        missing = [k for k in error.validator_value if k not in value]
        return [(path, f"missing field {k!r}") for k in missing]
    if error.validator == "type":
        expected = error.validator_value
        expected = expected if isinstance(expected, list) else [expected]
        names = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number"}
        wanted = " or ".join(names.get(t, t) for t in expected)
        return [(path, f"expected {wanted}, got {_describe(value)}: {json.dumps(value, ensure_ascii=False, default=str)[:60]}")]
    if error.validator == "enum":
        options = ", ".join(map(str, error.validator_value))
        hint = did_you_mean(str(value), [str(v) for v in error.validator_value])
        return [(path, f"{value!r} is not one of: {options}{hint}")]
    if error.validator == "pattern" and path and path[-1] == "id":
        return [(path, f"id {value!r} must be lowercase letters and digits joined by hyphens (e.g. 'si-she')")]
    if error.validator in ("minLength", "pattern") and isinstance(value, str) and not value.strip():
        return [(path, "must not be empty")]
    if error.validator == "minItems":
        return [(path, f"needs at least {error.validator_value} item(s)")]
    if error.validator == "uniqueItems":
        return [(path, "lists the same item twice")]
    return [(path, error.message)]


def _as_str(value: object) -> str | None:
    return None if value is None else str(value)


def citation_from(loaded: Loaded, path: PathKey, raw: dict) -> Citation:
    """A citation as the model holds it, with the line of each field."""
    juan = raw.get("juan")
    return Citation(
        quote=raw["quote"],
        line=loaded.line_of(path + ("quote",)),
        lines=tuple((name, loaded.line_of(path + (name,))) for name in raw),
        work=raw.get("work"),
        juan=parse_number(str(juan)) if juan is not None else None,
        page=_as_str(raw.get("page")),
        section=raw.get("section"),
        layer=raw.get("layer"),
        note=raw.get("note"),
    )


def _entry(loaded: Loaded, index: int, raw: dict) -> Entry:
    return Entry(
        id=raw["id"],
        term=raw["term"],
        pinyin=raw["pinyin"],
        category=raw["category"],
        gloss=raw["gloss"],
        definition=raw["definition"],
        line=loaded.line_of((index,)),
        traditional=raw.get("traditional"),
        rites=tuple(raw.get("rites", ())),
        definition_zh=raw.get("definition_zh"),
        citations=tuple(
            citation_from(loaded, (index, "citations", i), c)
            for i, c in enumerate(raw.get("citations", ()))
        ),
        related=tuple(raw.get("related", ())),
        media=tuple(raw.get("media", ())),
        tags=tuple(raw.get("tags", ())),
        lines=tuple((name, loaded.line_of((index, name))) for name in raw),
    )


def validate(loaded: Loaded, base: Path) -> tuple[list[Entry], list[Problem]]:
    """Entries that passed the schema, and every problem found (schema and cross-entry)."""
    if loaded.data is None:
        return [], []
    problems: list[Problem] = []
    broken: set[int] = set()
    for path, problem in schema_problems(loaded):
        problems.append(problem)
        if path and isinstance(path[0], int):
            broken.add(path[0])
    if not isinstance(loaded.data, list):
        return [], problems
    data: list = loaded.data
    # An entry with a value the loader refused (a tag, a bad date) holds None there: not buildable.
    broken.update(path[0] for path in loaded.voided if path and isinstance(path[0], int))

    def add(path: PathKey, message: str) -> None:
        problems.append(Problem(loaded.file, loaded.line_of(path), render_path(data, path), ERROR, message))

    first_line: dict[str, int] = {}
    for index, raw in enumerate(data):
        ident = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(ident, str):
            continue
        if ident in first_line:
            add((index, "id"), f"duplicate id {ident!r} (first used on line {first_line[ident]})")
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
                add((index, "related", i), "an entry cannot be related to itself")
            elif target not in first_line:
                if target not in hints:
                    hints[target] = did_you_mean(target, known_ids)
                add((index, "related", i), f"unknown id {target!r}{hints[target]}")
        for i, name in enumerate(_list(raw, "media")):
            if isinstance(name, str) and (message := check_media_path(name, base)):
                add((index, "media", i), message)
            elif isinstance(name, str):
                # Anki keeps media by bare file name: two paths with one name would overwrite each other.
                bare = PurePosixPath(name).name
                if bare in media_names and media_names[bare] != name:
                    add((index, "media", i), f"media file name {bare!r} is already used by {media_names[bare]!r}")
                media_names.setdefault(bare, name)
        for i, citation in enumerate(_list(raw, "citations")):
            juan = citation.get("juan") if isinstance(citation, dict) else None
            if juan is not None and not isinstance(juan, bool) and parse_number(str(juan)) is None:
                add((index, "citations", i, "juan"), f"{juan!r} is not a 卷 number (write 4 or 卷四)")
                broken.add(index)
    entries = [
        _entry(loaded, index, raw)
        for index, raw in enumerate(data)
        if index not in broken and isinstance(raw, dict)
    ]
    return entries, problems


def _list(raw: dict, name: str) -> list:
    """A list field's items; anything else the schema has already reported."""
    value = raw.get(name)
    return value if isinstance(value, list) else []


def check_media_path(name: str, base: Path) -> str | None:
    """Why a media path is refused, or None: relative, inside media/, and present."""
    posix = PurePosixPath(name)
    if posix.is_absolute() or "\\" in name or ".." in posix.parts or not posix.parts or posix.parts[0] != MEDIA:
        return f"media path {name!r} must be a relative path inside {MEDIA}/"
    target = (base / posix).resolve()
    if not target.is_relative_to((base / MEDIA).resolve()):
        return f"media path {name!r} leads outside {MEDIA}/"
    if not target.is_file():
        return f"media file {name!r} does not exist"
    return None
