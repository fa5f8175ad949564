"""The shipped JSON Schemas: the one definition of the data files' fields and types."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

#: The schemas that refer to each other (plan.yaml's citations are terms.yaml's).
SCHEMAS = ("terms.schema.json", "plan.schema.json", "retired.schema.json", "stages.schema.json")


@cache
def schema(name: str = "terms.schema.json") -> dict[str, Any]:
    """One of the shipped JSON Schemas."""
    text = resources.files("glossary.schema").joinpath(name).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def fields_of(definition: str, schema_name: str = "terms.schema.json") -> tuple[str, ...]:
    """The field names of ``entry`` or ``citation`` in the schema's order: the one list of fields.

    The model's dataclasses, the loader, ``glossary fmt``'s key order and terms.json all
    take the fields from here (a test keeps the dataclasses in step).
    """
    return tuple(schema(schema_name)["$defs"][definition]["properties"])
