"""glossary.syntax: YAML syntax errors in plain words, at the line that is wrong."""

from __future__ import annotations

from glossary.load import load_bytes

ENTRY = "- id: si-zheng\n  term: 司正\n  citations:\n    - quote: 司正為司馬\n"


def problem(text: str) -> tuple[int, str]:
    loaded = load_bytes(text.encode("utf-8"), "terms.yaml")
    assert loaded.data is None and len(loaded.problems) == 1, loaded.problems
    return loaded.problems[0].line, loaded.problems[0].message


def test_a_citation_field_out_of_line() -> None:
    assert problem(ENTRY + "    work: 禮經本義\n      layer: classic\n") == (
        5,
        "YAML syntax error: `work:` is indented 4 spaces: a citation's fields line up under `quote:` (6 spaces)",
    )


def test_an_entry_field_too_deep() -> None:
    line, message = problem("- id: a\n  term: 乏\n   gloss: g\n")
    assert line == 3 and "`gloss:` is indented 3 spaces, deeper than the fields above it" in message
    assert "an entry's fields line up under `id:` (2 spaces)" in message


def test_a_continuation_line_is_reported_where_it_is() -> None:
    line, message = problem(
        "- id: a\n  definition: >-\n    first line\n  second line\n  gloss: g\n"
    )
    assert (
        line == 4
        and "if it continues `definition` above, indent it like the lines before it (4 spaces)"
        in message
    )


def test_an_unclosed_bracket_is_reported_where_it_opens() -> None:
    assert problem("- id: a\n  rites: [乡射礼\n  gloss: g\n")[0] == 2
    line, message = problem("- id: a\n  media: {x\n  gloss: g\n")
    assert line == 2 and "the `{` opened on this line is not closed with `}`" in message


def test_a_tab() -> None:
    line, message = problem("- id: a\n\tterm: b\n")
    assert line == 2 and "tabs cannot indent YAML" in message


def test_a_long_file_is_not_read_back_whole() -> None:
    # The enclosing keys are looked for a bounded way up: a hostile file still gets its one message.
    text = "- id: a\n  definition: >-\n" + "    x\n" * 200_000 + "  y\n  gloss: g\n"
    line, message = problem(text)
    assert line == 200_003 and message.startswith(
        "YAML syntax error: this line is text without `key:`"
    )


def located(text: str) -> tuple[int, str, str]:
    loaded = load_bytes(text.encode("utf-8"), "terms.yaml")
    assert loaded.data is None and len(loaded.problems) == 1, loaded.problems
    found = loaded.problems[0]
    assert found.code == "Y003"
    return found.line, found.path, found.message


def test_a_citation_dash_out_of_line_is_said_with_the_indentation_it_needs() -> None:
    text = (
        ENTRY + "      work: 禮經本義\n  - quote: 司馬命張侯\n    work: 禮經本義\n  related: []\n"
    )
    assert located(text) == (
        6,
        "si-zheng.citations[1]",
        "YAML syntax error: `- quote:` is indented 2 spaces: a citation's `- ` lines up under "
        "the one above it (4 spaces), and its fields under `quote:` (6 spaces)",
    )


def test_a_colon_in_a_value_is_said_with_the_quoted_value() -> None:
    assert located("- id: a\n  term: 乏\n  gloss: screen: for the marker\n") == (
        3,
        "a.gloss",
        "YAML syntax error: the value of `gloss:` holds `: `, which YAML reads as the start of "
        'another field: put the value in quotes, `gloss: "screen: for the marker"`',
    )
    # In a citation, a quote mark of the value escaped.
    line, path, message = located(ENTRY + '      note: see: "the 記"\n')
    assert (line, path) == (5, "si-zheng.citations[0].note")
    assert message.endswith('`note: "see: \\"the 記\\""`')


def test_a_key_without_its_space() -> None:
    assert located("- id: a\n  term: 乏\n  category:object\n  rites: [乡射礼]\n") == (
        3,
        "a.category",
        "YAML syntax error: `category:object` needs a space after the colon, or YAML reads it "
        "as text, not a field: write `category: object`",
    )


def test_every_syntax_error_names_its_path() -> None:
    assert located(ENTRY + "    work: 禮經本義\n      layer: classic\n")[1] == (
        "si-zheng.citations[0].work"
    )
    assert located("- id: a\n  term: 乏\n   gloss: g\n")[1] == "a.gloss"
