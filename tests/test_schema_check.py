"""Schema validation: the fast validator (jsonschema-rs) and jsonschema must agree on every file."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINI_PLAN, MINI_TERMS

from glossary.load import load_yaml
from glossary.schema_check import _valid, schema_problems, validator

CASES = Path(__file__).parent / "cases"


def _loadable(paths: list[Path]) -> list[Path]:
    # Files the loader refuses (syntax, encoding, aliases) never reach the schema.
    return [path for path in paths if load_yaml(path).data is not None]


TERMS_FILES = _loadable(
    sorted((CASES / "bad").glob("*.yaml")) + sorted((CASES / "good").glob("*.yaml")) + [MINI_TERMS]
)
PLAN_FILES = _loadable(sorted((CASES / "plan").glob("*.yaml")) + [MINI_PLAN])


def _agree(path: Path, name: str) -> None:
    loaded = load_yaml(path)
    slow = not any(True for _ in validator(name).iter_errors(loaded.data))
    assert _valid(loaded.data, name) == slow


@pytest.mark.parametrize("path", TERMS_FILES, ids=lambda p: p.stem)
def test_fast_and_full_validators_agree_on_terms_files(path: Path) -> None:
    _agree(path, "terms.schema.json")


@pytest.mark.parametrize("path", PLAN_FILES, ids=lambda p: p.stem)
def test_fast_and_full_validators_agree_on_plans(path: Path) -> None:
    _agree(path, "plan.schema.json")


def test_every_kind_of_schema_error_is_caught_by_the_fast_validator() -> None:
    data = load_yaml(MINI_TERMS).data
    assert isinstance(data, list)
    entry = data[0]
    broken = [
        {**entry, "colour": "red"},  # additionalProperties
        {k: v for k, v in entry.items() if k != "gloss"},  # required
        {**entry, "id": "Bad Id"},  # pattern
        {**entry, "category": "vessel"},  # enum
        {**entry, "rites": []},  # minItems
        {**entry, "rites": ["鄉射禮", "鄉射禮"]},  # uniqueItems
        {**entry, "gloss": "   "},  # \S
        {**entry, "citations": [{"quote": "x", "layer": "gloss"}]},  # nested enum
        {**entry, "tags": ["two words"]},  # tag pattern
    ]
    for data in broken:
        assert not _valid([data], "terms.schema.json")
        assert list(validator("terms.schema.json").iter_errors([data]))
    assert _valid([entry], "terms.schema.json")


def test_a_yaml_date_is_reported_by_jsonschema_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("- id: a\n  term: 2001-01-01\n", encoding="utf-8")
    problems = schema_problems(load_yaml(path))
    assert any(p.path == "a.term" and "text" in p.message for _, p in problems)
