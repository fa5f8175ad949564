"""A loaded file checked against its shipped JSON Schema: the errors at their lines, phrased for
contributors (an unknown field gets a did-you-mean, a field indented into the wrong mapping says so).

jsonschema-rs answers whether a file is valid; only a file with errors pays for jsonschema, whose
errors carry what the messages need.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

import jsonschema_rs

from glossary.load import Loaded, PathKey, render_path
from glossary.problems import ERROR, Problem, did_you_mean
from glossary.rules.codes import BY_NAME
from glossary.schema import SCHEMAS, fields_of, schema

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

TYPE_NAMES = {
    dict: "a mapping",
    list: "a list",
    str: "text",
    int: "a number",
    float: "a number",
    bool: "true/false",
}


@cache
def validator(name: str) -> Draft202012Validator:
    """A validator for a shipped schema, resolving references between the shipped schemas."""
    # Imported here: only a file with errors needs jsonschema (a tenth of `check`'s start-up).
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Registry = Registry().with_resources(
        (schema(other)["$id"], Resource.from_contents(schema(other))) for other in SCHEMAS
    )
    return Draft202012Validator(schema(name), registry=registry)


@cache
def fast_validator(name: str) -> jsonschema_rs.Validator:
    """The same schema compiled by jsonschema-rs: answers "is it valid?" a hundred times faster."""
    registry = jsonschema_rs.Registry([(schema(other)["$id"], schema(other)) for other in SCHEMAS])
    return jsonschema_rs.validator_for(schema(name), registry=registry, offline=True)


def _valid(data: object, name: str) -> bool:
    try:
        return fast_validator(name).is_valid(data)
    except Exception:  # noqa: BLE001 - values JSON has no type for (a YAML date), depths it refuses:
        return False  # jsonschema judges those and says where


def _short(value: object) -> str:
    """A value as a message shows it, bounded however long it is (a 10-million-digit number)."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)[:60]
    except ValueError:  # an integer past Python's digit limit for str(): it needs no digits shown
        return "a number too long to show" if isinstance(value, int) else _describe(value)


def _describe(value: object) -> str:
    return "nothing" if value is None else TYPE_NAMES.get(type(value), type(value).__name__)


def schema_problems(
    loaded: Loaded, name: str = "terms.schema.json"
) -> list[tuple[PathKey, Problem]]:
    """Schema errors of a loaded file, phrased for contributors, at their lines."""
    problems: dict[Problem, PathKey] = {}
    if _valid(loaded.data, name):
        return []
    # Only a file with errors pays for jsonschema, whose errors carry what the messages need.
    for error in validator(name).iter_errors(loaded.data):
        if tuple(error.absolute_path) in loaded.reported:
            continue
        for path, code, message in _phrase(error):
            line = loaded.line_of(path)
            # jsonschema reports `required` once per missing field, each listing all of them.
            problems.setdefault(
                Problem(
                    loaded.file, line, render_path(loaded.data, path), ERROR, message, code=code
                ),
                path,
            )
    return [(path, problem) for problem, path in sorted(problems.items())]


def _phrase(error: ValidationError) -> list[tuple[PathKey, str, str]]:
    """(path, rule code, message) for one schema error."""
    path = tuple(error.absolute_path)
    # The instance and the validator's value are whatever the file and the schema hold (jsonschema
    # types them as such, or its "unset"); every branch below knows which validator it reads.
    value: Any = error.instance
    given: Any = error.validator_value
    rule = error.schema if isinstance(error.schema, Mapping) else {}
    if error.validator == "additionalProperties":
        known = tuple(rule.get("properties", {}))
        extra = [k for k in value if k not in known]
        return [
            (
                path + (k,),
                "Y101",
                f"unknown field {k!r}{_misplaced(path, str(k)) or did_you_mean(str(k), known)}",
            )
            for k in extra
        ]
    if error.validator == "required":
        missing = [k for k in given if k not in value]
        return [(path, "Y102", f"missing field {k!r}") for k in missing]
    if error.validator == "type":
        expected = given
        expected = expected if isinstance(expected, list) else [expected]
        names = {
            "object": "a mapping",
            "array": "a list",
            "string": "text",
            "integer": "a whole number",
        }
        wanted = " or ".join(names.get(t, str(t)) for t in expected)
        shown = (
            f"{_describe(value)}: {_short(value)}"
            if not isinstance(value, dict)
            else _describe(value)
        )
        hint = ""
        if isinstance(value, bool) and "string" in expected:
            hint = " (YAML reads yes, no, on, off, true and false as true/false: put the text in quotes, e.g. 'no')"
        elif isinstance(value, (int, float)) and "string" in expected:
            hint = " (put it in quotes to make it text)"
        return [(path, "Y103", f"expected {wanted}, got {shown}{hint}")]
    if error.validator == "enum":
        options = ", ".join(map(str, given))
        hint = did_you_mean(str(value), [str(v) for v in given])
        return [(path, "Y104", f"{value!r} is not one of: {options}{hint}")]
    if error.validator == "pattern" and (
        (path and path[-1] == "id") or error.validator_value == schema()["$defs"]["slug"]["pattern"]
    ):
        return [
            (
                path,
                "Y105",
                f"id {value!r} must be lowercase letters and digits joined by hyphens (e.g. 'si-she')",
            )
        ]
    if error.validator == "pattern" and len(path) >= 2 and path[-2] == "tags":
        return [
            (
                path,
                "Y106",
                f"tag {value!r} may hold only letters, digits, '_', ':', '.' and '-' (no spaces)",
            )
        ]
    if error.validator == "pattern" and len(path) >= 3 and path[-3] == "ignore":
        named = BY_NAME.get(str(value))
        said = f": that rule's code is {named.code}" if named else ""
        return [
            (path, "Y113", f"{value!r} is not a rule code (Y and three digits, e.g. Y307){said}")
        ]
    if error.validator in ("minLength", "pattern") and isinstance(value, str) and not value.strip():
        return [(path, "Y107", "must not be empty")]
    if error.validator == "minItems":
        return [(path, "Y108", f"needs at least {given} item(s)")]
    # Bounds: say how long the value is, never echo it (it may be megabytes).
    if error.validator == "maxLength" and isinstance(value, str):
        return [
            (
                path,
                "Y109",
                f"{len(value):,} characters, more than the {given:,} allowed here",
            )
        ]
    if error.validator == "maxItems" and isinstance(value, list):
        return [(path, "Y110", f"{len(value):,} items, more than the {given:,} allowed here")]
    if error.validator in ("minimum", "maximum") and isinstance(value, (int, float)):
        return [(path, "Y111", f"{value} is outside the plan ({error.validator} {given})")]
    if error.validator == "uniqueItems":
        return [(path, "Y112", "lists the same item twice")]
    if error.validator in ("oneOf", "anyOf") and isinstance(rule.get("$comment"), str):
        # A choice of fields (stages.yaml: a quote or `carried`): the schema's comment says it.
        return [(path, "Y113", rule["$comment"])]
    return [(path, "Y113", error.message)]


def _misplaced(path: PathKey, key: str) -> str:
    """Why a field a file knows elsewhere is here: indented into a citation, or out of one."""
    in_citation = len(path) >= 2 and path[-2] == "citations"
    if in_citation and key in fields_of("entry"):
        return (
            f" (`{key}` is indented as if it belonged to the citation above: an entry's fields line up "
            "under `id:`, 2 spaces)"
        )
    if len(path) == 1 and key in fields_of("citation"):
        return (
            f" (`{key}` is a citation's field: indent it under the citation's `quote:`, 6 spaces)"
        )
    return ""
