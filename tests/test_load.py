"""The line-keeping YAML loader (glossary/load.py): data, the line of every node, and problems.

Expected lines are found in the test's own text (the line that holds the key), never copied
from what the loader said.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import MINI_TERMS

from glossary.load import Lines, load_bytes, load_yaml, render_path

NESTED = """\
# a comment first
- id: bi
  term: 楅
  citations:
    - quote: 甲
      juan: 4
    - quote: 乙
      note: >-
        folded over
        two lines
  related: [si-ma, tan]
- id: si-ma
  term: 司马
"""


def line_of(text: str, fragment: str, occurrence: int = 1) -> int:
    """The 1-based line of the ``occurrence``-th line of ``text`` that contains ``fragment``."""
    found = [i for i, line in enumerate(text.split("\n"), 1) if fragment in line]
    return found[occurrence - 1]


def load(text: str | bytes):
    return load_bytes(text.encode("utf-8") if isinstance(text, str) else text, "terms.yaml")


def messages(loaded) -> list[tuple[int, str, str]]:
    return [(p.line, p.path, p.message) for p in loaded.problems]


# -- data and lines ---------------------------------------------------------------------------


def test_data_is_what_pyyaml_reads() -> None:
    loaded = load(NESTED)
    assert loaded.problems == []
    assert loaded.data == yaml.safe_load(NESTED)


def test_every_nested_node_has_its_line() -> None:
    lines = load(NESTED).lines
    assert lines[(0,)] == line_of(NESTED, "- id: bi")
    assert lines[(0, "term")] == line_of(NESTED, "term: 楅")
    assert lines[(0, "citations")] == line_of(
        NESTED, "- quote: 甲"
    )  # a block list starts at its first item
    assert lines[(0, "citations", 0)] == line_of(NESTED, "- quote: 甲")
    assert lines[(0, "citations", 0, "juan")] == line_of(NESTED, "juan: 4")
    assert lines[(0, "citations", 1, "quote")] == line_of(NESTED, "- quote: 乙")
    assert lines[(0, "citations", 1, "note")] == line_of(NESTED, "note: >-")
    assert lines[(0, "related", 1)] == line_of(NESTED, "related: [si-ma, tan]")
    assert lines[(1, "term")] == line_of(NESTED, "term: 司马")


def test_line_of_falls_back_to_the_nearest_ancestor() -> None:
    loaded = load(NESTED)
    assert loaded.line_of((0, "citations", 1, "layer")) == line_of(NESTED, "- quote: 乙")
    assert loaded.line_of((0, "media", 3)) == line_of(NESTED, "- id: bi")
    assert (
        loaded.line_of((7,)) == loaded.lines[()] == line_of(NESTED, "- id: bi")
    )  # the list itself
    assert load("a: 1\n").line_of(("b", "c")) == 1


def test_the_fixture_glossary_loads_with_every_entry_on_its_line() -> None:
    text = MINI_TERMS.read_text(encoding="utf-8")
    loaded = load_yaml(MINI_TERMS)
    assert loaded.problems == [] and loaded.file == str(MINI_TERMS)
    lines = text.split("\n")
    assert isinstance(loaded.data, list)
    for position, item in enumerate(loaded.data):
        assert lines[loaded.lines[(position,)] - 1] == f"- id: {item['id']}"
        assert lines.count(f"- id: {item['id']}") == 1


def test_paths_are_named_by_entry_id() -> None:
    data = yaml.safe_load(NESTED) + [{"term": "no id"}]
    assert render_path(data, (0, "citations", 1, "quote")) == "bi.citations[1].quote"
    assert render_path(data, (1, "<key>")) == "si-ma"
    assert render_path(data, (2, "term")) == "[2].term"
    assert render_path({"places": [{"id": "x"}]}, ("places", 0, "id")) == "places[0].id"


# -- what is refused ----------------------------------------------------------------------------


def test_duplicate_key_keeps_the_first_value_and_names_both_lines() -> None:
    text = "- id: bi\n  gloss: first\n  term: 楅\n  gloss: second\n"
    loaded = load(text)
    assert loaded.data == [{"id": "bi", "gloss": "first", "term": "楅"}]
    first, again = line_of(text, "gloss: first"), line_of(text, "gloss: second")
    assert messages(loaded) == [
        (again, "bi.gloss", f"duplicate key 'gloss' (first given on line {first})")
    ]


def test_aliases_are_refused_at_the_first_one() -> None:
    text = "- &entry {id: bi}\n- id: si-ma\n- *entry\n- *entry\n"
    loaded = load(text)
    assert loaded.data is None
    assert messages(loaded) == [
        (
            line_of(text, "- *entry"),
            "",
            "YAML aliases (*name) are not allowed in a terms file (and 1 more)",
        )
    ]


def test_an_anchor_without_alias_is_harmless_but_not_twice() -> None:
    assert load("- &a {id: bi}\n").data == [{"id": "bi"}]
    text = "- &a {id: bi}\n- &a {id: si-ma}\n"
    [(line, _, message)] = messages(load(text))
    assert line == line_of(text, "si-ma") and "duplicate anchor" in message


@pytest.mark.parametrize(
    "value, message",
    [
        (
            "!!python/object/apply:os.system [echo]",
            "unsupported YAML tag !!python/object/apply:os.system",
        ),
        ("!custom x", "unsupported YAML tag !custom"),
        ("!!map [a]", "YAML tag !!map cannot tag a list"),
        ("!!seq {a: 1}", "YAML tag !!seq cannot tag a mapping"),
        ("!!int x", "bad value 'x'"),
        ("2001-02-30", "bad value '2001-02-30'"),
    ],
)
def test_refused_tags_and_values_void_the_field(value: str, message: str) -> None:
    text = f"- id: bi\n  term: 楅\n  tags: {value}\n"
    loaded = load(text)
    [(line, path, got)] = messages(loaded)
    assert (line, path) == (line_of(text, "tags:"), "bi.tags") and got.startswith(message)
    assert loaded.data == [{"id": "bi", "term": "楅", "tags": None}]
    assert (0, "tags") in loaded.voided and (0, "tags") in loaded.reported


def test_standard_tags_are_read_as_pyyaml_reads_them() -> None:
    text = "- id: bi\n  juan: !!str 4\n  page: !!int '7'\n"
    loaded = load(text)
    assert loaded.problems == [] and loaded.data == yaml.safe_load(text) == [
        {"id": "bi", "juan": "4", "page": 7}
    ]


def test_keys_that_are_not_text_are_refused() -> None:
    text = "- id: bi\n  ? [a]\n  : 4\n  term: 楅\n"
    loaded = load(text)
    assert loaded.data == [{"id": "bi", "term": "楅"}]
    assert messages(loaded) == [(line_of(text, "? [a]"), "bi", "mapping keys must be plain text")]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "holds no entries"),
        ("# only a comment\n", "holds no entries"),
        ("- id: a\n---\n- id: b\n", "expected a single document"),
        ("- id: a\n\tterm: x\n", "tabs cannot indent YAML"),
        ("- id: [unclosed\n", "YAML syntax error"),
        ("[" * 5000, "YAML syntax error"),
    ],
)
def test_a_file_that_cannot_be_read_gives_one_problem_and_no_data(text: str, fragment: str) -> None:
    loaded = load(text)
    assert loaded.data is None
    [problem] = loaded.problems
    assert fragment in problem.message and problem.line >= 1


def test_bytes_that_are_not_utf8_are_placed_on_their_line() -> None:
    loaded = load(b"- id: bi\n  term: \xff\n")
    assert messages(loaded) == [
        (2, "", "not UTF-8: byte 0xff cannot be decoded; save the file as UTF-8")
    ]


def test_control_characters_are_placed_on_their_line() -> None:
    text = "- id: bi\n  term: 楅\n  gloss: a\x07b\n"
    [(line, _, message)] = messages(load(text))
    assert line == line_of(text, "gloss:") and "U+0007" in message


def test_a_missing_file_is_a_problem_not_an_exception(tmp_path: Path) -> None:
    loaded = load_yaml(tmp_path / "terms.yaml", "terms.yaml")
    assert loaded.data is None and [p.message for p in loaded.problems] == [
        "cannot read: No such file or directory"
    ]


# -- line ends: BOM, CRLF and the breaks only YAML counts -------------------------------------


def test_bom_and_crlf_change_neither_data_nor_lines() -> None:
    text = NESTED + "  gloss: a\n  gloss: b\n"
    plain = load(text)
    for variant in (
        b"\xef\xbb\xbf" + text.encode(),
        text.replace("\n", "\r\n").encode(),
        b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode(),
    ):
        loaded = load(variant)
        assert loaded.data == plain.data
        assert loaded.lines == plain.lines
        assert (
            messages(loaded)
            == messages(plain)
            == [
                (
                    line_of(text, "gloss: b"),
                    "si-ma.gloss",
                    f"duplicate key 'gloss' (first given on line {line_of(text, 'gloss: a')})",
                )
            ]
        )


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"], ids=["LS", "PS", "NEL"])
def test_breaks_only_yaml_counts_are_refused_at_their_line(separator: str) -> None:
    # YAML 1.1 breaks lines at these, editors do not (and YAML 1.2, which `glossary fmt` writes
    # with, does not either): a file holding one would mean different things to different tools.
    text = f'- id: bi\n  term: 楅\n  definition: "one{separator}two"\n'
    loaded = load(text)
    assert loaded.data is None
    [(line, path, message)] = messages(loaded)
    assert (line, path) == (3, "")
    assert (
        message.startswith(f"U+{ord(separator):04X} (") and "replace it with a newline" in message
    )


def test_a_lone_carriage_return_ends_a_line_as_in_editors() -> None:
    text = '- id: bi\r  definition: "one two"\r  term: 楅\r  term: again\r'
    loaded = load(text)
    assert loaded.data[0]["term"] == "楅"
    assert loaded.lines[(0, "definition")] == 2
    assert messages(loaded) == [(4, "bi.term", "duplicate key 'term' (first given on line 3)")]


def test_lines_count_newlines_carriage_returns_and_both() -> None:
    text = "a\r\nb\nc\rd\n\ne"
    lines = Lines(text)
    assert not lines.plain and Lines("a\nb\n").plain
    assert [lines.at(text.index(ch)) for ch in "abcde"] == [1, 2, 3, 4, 6]
    assert lines.at(len(text) + 10) == 6  # never past the last line
