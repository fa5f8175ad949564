"""ARCHITECTURE.md's how-to "a new entry field", followed once with a throwaway field.

The field (``zz_throwaway``) is added where the how-to says (the schema and the model) and
nowhere else; loading, validation, ``glossary fmt``'s key order and terms.json must then
carry it without another edit. The Anki note types name their fields one by one, so a
field left out of a note is an error rather than a silent shift.

The field is not the how-to's own example (``etymology``): a maintainer who follows the
how-to with it, for real, must find every test still passing, this one included.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

import glossary.schema
import glossary.schema_check
import glossary.validate
from glossary.contribute.fmt import format_text
from glossary.load import load_bytes
from glossary.model import Cited, Entry, Glossary
from glossary.render import terms_json
from glossary.render.anki.models import field_values

FIELD = "zz_throwaway"
TERMS = """\
- zz_throwaway: from 扌 and 合
  id: she
  term: 拾
  pinyin: shè
  category: object
  rites: [乡射礼]
  gloss: archer's armguard
  definition: The armguard.
  citations:
    - quote: 司射適堂西袒決遂
"""


@pytest.fixture
def with_throwaway(monkeypatch: pytest.MonkeyPatch):
    """Step 1 (the schema) and step 2 (the model) of the how-to; nothing else is touched."""
    patched = copy.deepcopy(glossary.schema.schema())
    assert FIELD not in patched["$defs"]["entry"]["properties"]
    # the last property: fmt then writes it after every other field
    patched["$defs"]["entry"]["properties"][FIELD] = {"$ref": "#/$defs/text"}
    real = glossary.schema.schema

    def schema(name: str = "terms.schema.json") -> dict:
        return patched if name == "terms.schema.json" else real(name)

    for module in (glossary.schema, glossary.validate, glossary.schema_check):
        monkeypatch.setattr(module, "schema", schema)
    entry = dataclasses.make_dataclass(
        "Entry",
        [(FIELD, "str | None", dataclasses.field(default=None))],
        bases=(Entry,),
        frozen=True,
    )
    monkeypatch.setattr(glossary.validate, "Entry", entry)
    for cached in (glossary.schema_check.validator, glossary.schema_check.fast_validator):
        cached.cache_clear()
    yield
    for cached in (glossary.schema_check.validator, glossary.schema_check.fast_validator):
        cached.cache_clear()


def test_a_new_field_reaches_the_model_fmt_and_terms_json(with_throwaway, tmp_path) -> None:
    loaded = load_bytes(TERMS.encode(), "terms.yaml")
    entries, problems = glossary.validate.validate(loaded, tmp_path)
    assert problems == []
    assert getattr(entries[0], FIELD) == "from 扌 and 合"
    # fmt puts the new key where the schema has it: after every field the schema lists before it.
    formatted = format_text(TERMS)
    keys = [
        line.split(":")[0].strip("- ")
        for line in formatted.splitlines()
        if not line.startswith("   ")
    ]
    assert keys[-1] == FIELD and keys[0] == "id"
    glossary_ = Glossary(
        entries=tuple(entries),
        cited={"she": tuple(Cited(c) for c in entries[0].citations)},
        concordance={},
        epoch=0,
    )
    data = json.loads(terms_json.render(glossary_)["terms.json"])
    assert data["terms"][0][FIELD] == "from 扌 and 合"


def test_without_the_schema_step_the_field_is_refused(tmp_path) -> None:
    loaded = load_bytes(TERMS.encode(), "terms.yaml")
    entries, problems = glossary.validate.validate(loaded, tmp_path)
    assert entries == []
    assert [(p.line, p.path, p.message) for p in problems] == [
        (1, f"she.{FIELD}", f"unknown field {FIELD!r}")
    ]


def test_a_note_missing_a_field_is_an_error_not_a_shift() -> None:
    values = {name: name for name in ("Passage", "Locus", "Term", "Ruby", "Gloss", "Id", "TTS")}
    assert field_values("cloze", values) == (
        "Passage",
        "Locus",
        "Term",
        "Ruby",
        "Gloss",
        "Id",
        "TTS",
    )
    with pytest.raises(ValueError, match=r"missing \['Gloss'\], unknown \['Etymology'\]"):
        field_values(
            "cloze", {**{k: v for k, v in values.items() if k != "Gloss"}, "Etymology": ""}
        )


def test_every_field_of_a_full_entry_reaches_terms_json(tmp_path) -> None:
    """Each optional field the shipped entries use, set at once, is written as JSON (a
    ``rites_declined`` once stopped the whole build: its items are no JSON value)."""
    text = TERMS.replace("- zz_throwaway: from 扌 and 合\n  id: she", "- id: she") + (
        "  traditional: 拾\n"
        "  variants: [捨]\n"
        "  guangyun: [是執]\n"
        "  yinyi: [null]\n"
        "  reading_note: read 其劫反 except in 決拾\n"
        "  tts: 设\n"
        "  rites_declined: {士冠禮: another sense}\n"
        "  definition_zh: 射韝\n"
        "  tags: [archery]\n"
    )
    entries, problems = glossary.validate.validate(
        load_bytes(text.encode(), "terms.yaml"), tmp_path
    )
    assert problems == [], problems
    glossary_ = Glossary(
        entries=tuple(entries),
        cited={"she": tuple(Cited(c) for c in entries[0].citations)},
        concordance={},
        epoch=0,
    )
    term = json.loads(terms_json.render(glossary_)["terms.json"])["terms"][0]
    assert term["rites_declined"] == {"士冠礼": "another sense"}
    assert term["variants"] == ["捨"] and term["yinyi"] == [None] and term["tts"] == "设"
