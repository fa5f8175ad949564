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


def _patterns(value: object) -> list[str]:
    if isinstance(value, dict):
        found = [value["pattern"]] if isinstance(value.get("pattern"), str) else []
        return found + [p for item in value.values() for p in _patterns(item)]
    if isinstance(value, list):
        return [p for item in value for p in _patterns(item)]
    return []


def test_every_anchored_pattern_of_the_schemas_refuses_a_final_newline() -> None:
    """JSON Schema's `$` is the end of the text (jsonschema-rs), Python's `$` also matches before a
    final newline (jsonschema): every pattern anchored at the end must refuse "bi\\n" in both."""
    import re

    import jsonschema_rs

    from glossary.schema import schema

    names: tuple[str, ...] = ("terms.schema.json", "plan.schema.json", "retired.schema.json")
    names += ("media.schema.json", "vocab.schema.json")
    anchored = [p for name in names for p in _patterns(schema(name)) if "$" in p]
    assert len(anchored) >= 5
    for pattern in anchored:
        # A value each pattern accepts, found from the pattern's own first alternative.
        samples = {"^\\S{2}$(?!\\n)|^\\S+[平上去入]$(?!\\n)": "jiā平", "^Y[0-9]{3}$(?!\\n)": "Y201"}
        sample = samples.get(pattern, "bi")
        assert re.search(pattern, sample), pattern
        assert re.search(pattern, sample + "\n") is None, pattern
        assert not jsonschema_rs.validator_for({"pattern": pattern}).is_valid(sample + "\n")


@pytest.mark.parametrize(
    "name, text",
    [
        (
            "plan.yaml",
            'width: 10\nheight: 10\nplaces:\n- id: "tang\\n"\n  label: 堂\n  kind: area\n'
            "  x: 1\n  y: 1\n  citations:\n  - quote: 升自西階\n",
        ),
        ("retired.yaml", '- id: "zu-ku\\n"\n  term: 卒哭\n  merged_into: ku\n  note: merged\n'),
    ],
)
def test_plan_and_retired_ids_with_a_final_newline_are_refused(
    tmp_path: Path, name: str, text: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    problems = schema_problems(load_yaml(tmp_path / name), name.replace(".yaml", ".schema.json"))
    assert [p.message for _, p in problems] == [
        "id 'tang\\n' must be lowercase letters and digits joined by hyphens (e.g. 'si-she')"
        if name == "plan.yaml"
        else "id 'zu-ku\\n' must be lowercase letters and digits joined by hyphens (e.g. 'si-she')"
    ]


def test_an_entry_id_with_a_final_newline_is_refused() -> None:
    loaded = load_yaml(CASES / "bad" / "id-with-newline.yaml")
    problems = [p for _, p in schema_problems(loaded)]
    assert (2, "bi\n.id") in [(p.line, p.path) for p in problems]


def test_a_file_of_more_citations_than_its_outputs_can_carry_is_one_problem(
    tmp_path: Path, monkeypatch
) -> None:
    import glossary.validate as validate_module
    from glossary.load import load_yaml as load

    monkeypatch.setattr(validate_module, "MAX_CITATIONS", 3)
    entry = (
        "- id: e{n}\n  term: 楅\n  pinyin: bī\n  category: object\n  rites: [乡射礼]\n"
        "  gloss: g\n  definition: d\n  citations:\n    - quote: 命弟子設楅\n    - quote: 設楅于中庭\n"
    )
    path = tmp_path / "terms.yaml"
    path.write_text(entry.format(n=1) + entry.format(n=2), encoding="utf-8")
    entries, problems = validate_module.validate(load(path), tmp_path)
    assert entries == []
    assert [(p.line, p.message) for p in problems] == [
        (1, "4 citations in all, more than the 3 a terms file may hold")
    ]
