"""The Chinese a gloss or definition gives in parentheses, which Y312 and Y313 read."""

from __future__ import annotations

import re
from collections.abc import Iterable

from glossary.model import Entry

PARENTHESES = re.compile(r"[(（]([^()（）]*)[)）]")


def parenthesised_fields(entry: Entry) -> Iterable[tuple[str, str, re.Match[str]]]:
    """(field a problem names, the field's text, a parenthesis in it) for each parenthesis of the
    gloss and the definition, the entry's and each sense's."""
    fields: list[tuple[str, str | None]] = [
        ("gloss", entry.gloss),
        ("definition", entry.definition),
    ]
    for sense in entry.senses:
        fields += [("senses", sense.gloss), ("senses", sense.definition)]
    for name, value in fields:
        for inner in PARENTHESES.finditer(value or ""):
            yield name, value or "", inner
