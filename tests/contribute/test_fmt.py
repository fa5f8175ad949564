from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MINI_CORPUS, MINI_TERMS

from glossary.check import check_project
from glossary.cli import cli
from glossary.contribute.fmt import format_text
from glossary.load import load_yaml

MESSY = """# header comment: kept
- tags: [archery]
  term: 楅
  # a comment inside an entry: kept
  id: bi
  citations:
  - layer: classic
    quote: 乃設楅于中庭南當洗
  pinyin: bī
  gloss: arrow rack
  category: object
  rites:
    - 乡射礼
  definition: The rack.
# ── next section ──
- {id: x, term: 乏, pinyin: fá, category: object, rites: [乡射礼], gloss: g, definition: d, citations: [{quote: 乏}]}
"""


def test_canonical_order_and_layout_keep_comments(tmp_path: Path) -> None:
    out = format_text(MESSY)
    assert out.startswith("# header comment: kept\n- id: bi\n  term: 楅\n")
    assert "# a comment inside an entry: kept" in out
    assert "# ── next section ──" in out
    assert "  rites: [乡射礼]\n" in out
    assert "    - quote: 乃設楅于中庭南當洗\n      layer: classic\n" in out
    assert (
        out.index("pinyin") < out.index("category") < out.index("gloss") < out.index("definition")
    )
    assert format_text(out) == out
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(MESSY, encoding="utf-8")
    b.write_text(out, encoding="utf-8")
    assert load_yaml(a).data == load_yaml(b).data


def test_fixture_glossary_is_formatted() -> None:
    result = CliRunner().invoke(cli, ["fmt", "--check", "--terms", str(MINI_TERMS)])
    assert result.exit_code == 0, result.output
    assert format_text(MINI_TERMS.read_text(encoding="utf-8")) == MINI_TERMS.read_text(
        encoding="utf-8"
    )


def test_fmt_command_rewrites_and_check_mode(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text(MESSY, encoding="utf-8")
    assert CliRunner().invoke(cli, ["fmt", "--check", "--terms", str(path)]).exit_code == 1
    assert path.read_text(encoding="utf-8") == MESSY
    result = CliRunner().invoke(cli, ["fmt", "--terms", str(path)])
    assert result.exit_code == 0 and path.read_text(encoding="utf-8") == format_text(MESSY)


def test_fmt_refuses_broken_yaml(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text("- id: [x\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["fmt", "--terms", str(path)])
    assert result.exit_code == 1 and "YAML syntax error" in result.output
    assert path.read_text(encoding="utf-8") == "- id: [x\n"


CASES = Path(__file__).parent.parent / "cases"
FMT_CASES = sorted((CASES / "fmt").glob("*.yaml"))


@pytest.mark.parametrize("case", FMT_CASES, ids=lambda p: p.stem)
def test_fmt_quotes_writes_the_source_text(case: Path, tmp_path: Path) -> None:
    """tests/cases/fmt: each file, once `glossary fmt --quotes` has run, is its .formatted twin."""
    terms = tmp_path / "terms.yaml"
    terms.write_bytes(case.read_bytes())
    args = ["fmt", "--quotes", "--terms", str(terms), "--corpus", str(MINI_CORPUS)]
    checked = CliRunner().invoke(cli, [*args, "--check"])
    assert checked.exit_code == 1 and terms.read_bytes() == case.read_bytes()
    expected = case.with_suffix(".formatted").read_text(encoding="utf-8")
    # --check names every line it would change, as a unified diff.
    changed = [
        line
        for line in expected.splitlines()
        if line not in case.read_text(encoding="utf-8").splitlines()
    ]
    assert all(f"+{line}\n" in checked.output for line in changed), checked.output
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert terms.read_text(encoding="utf-8") == expected
    again = CliRunner().invoke(cli, [*args, "--check"])
    assert again.exit_code == 0 and "every quote as its source prints it" in again.output


def test_a_quote_not_as_printed_is_warned_with_a_line_to_paste(tmp_path: Path, index) -> None:
    report = check_project(CASES / "warn" / "quote-form.yaml", MINI_CORPUS, index=index)
    warned = [p for p in report.problems if "not as the source prints it" in p.message]
    # The corpus' text, ready to paste over the quote's line (4 spaces: a citation's dash).
    assert [p.hints for p in warned] == [("- quote: 司正為司馬司馬命張侯",)] * 2
    assert str(warned[0]).splitlines()[1] == "    - quote: 司正為司馬司馬命張侯"


def test_a_near_miss_prints_a_line_to_paste(index) -> None:
    report = check_project(CASES / "bad" / "misquote.yaml", MINI_CORPUS, index=index)
    missed = next(p for p in report.problems if p.message.startswith("not found"))
    nearest = next(h for h in missed.hints if h.startswith("nearest:"))
    printed = nearest.split("「", 1)[1].split("」", 1)[0]
    assert f"- quote: {printed}" in missed.hints


def test_fmt_check_names_the_lines_it_would_change(tmp_path: Path) -> None:
    path = tmp_path / "terms.yaml"
    path.write_text(MESSY, encoding="utf-8")
    result = CliRunner().invoke(cli, ["fmt", "--check", "--terms", str(path)])
    assert result.exit_code == 1
    assert result.output.startswith(f"--- {path} (now)\n+++ {path} (formatted)\n@@ -1,")
    assert "-- tags: [archery]\n" in result.output and "+- id: bi\n" in result.output


def test_entry_by_entry_is_the_whole_file_formatted_at_once() -> None:
    from glossary.contribute.fmt import _format, pieces

    for text in (
        MESSY,
        MINI_TERMS.read_text(encoding="utf-8"),
        MESSY.replace("- {id", "\n\n- {id"),
    ):
        cut = pieces(text)
        assert cut is not None and "".join(cut) == text and len(cut) == text.count("\n- ") + 1
        assert format_text(text) == _format(text)
    assert pieces("---\n" + MESSY) is None  # a document marker: the file is formatted whole
    assert format_text("---\n" + MESSY) == _format("---\n" + MESSY)


def test_an_unchanged_entry_is_formatted_once(tmp_path: Path, monkeypatch) -> None:
    from glossary.cache import IndexCache
    from glossary.contribute import fmt

    cache = IndexCache(tmp_path / "cache")
    first = format_text(MESSY, cache=cache)
    calls: list[str] = []
    real = fmt._format

    def counted(text: str, quotes: fmt.Quotes | None = None) -> str:
        calls.append(text)
        return real(text, quotes)

    monkeypatch.setattr(fmt, "_format", counted)
    assert format_text(MESSY, cache=cache) == first and calls == []
    # One entry changed: only it is formatted again.
    changed = MESSY.replace("gloss: arrow rack", "gloss: the arrow rack")
    assert format_text(changed, cache=cache) == real(changed)
    assert len(calls) == 1 and "the arrow rack" in calls[0]


SENSES_TERMS = """\
- id: si-ma
  term: 司马
  traditional: 司馬
  pinyin: sī mǎ
  category: role
  rites: [乡射礼, 少牢馈食礼]
  gloss: marshal; officer at the sheep
  definition: >-
    Two senses.
  senses:
    - rites: [乡射礼]
      gloss: marshal of the archery
      definition: >-
        The 司正 serves as 司馬 once the shooting begins.
    - rites: [少牢馈食礼]
      gloss: officer at the sheep
  citations:
    - quote: 司正為司馬
      work: 禮經本義
      juan: 4
"""


def test_senses_stay_a_block_list() -> None:
    """`senses` (a list of mappings) is written in block style, unchanged in data."""
    from glossary.load import load_bytes

    out = format_text(SENSES_TERMS)
    assert out == SENSES_TERMS
    assert load_bytes(out.encode(), "t").data == load_bytes(SENSES_TERMS.encode(), "t").data


STUBBED = """\
- id: bi
  term: 楅
  pinyin: bī
  category: object
  rites: [乡射礼]
  gloss: arrow rack
  definition: >-
    The rack on which the arrows gathered after a round are laid: the disciples who
    fetch them, facing north, kneel and lay them on it, nocks to the north (弟子取矢北面坐委于楅北括).
    The 記 gives its size: as long as an arrow shaft, three 寸 broad,
    one and a
    half 寸 thick.
  definition_zh: >-
    盛矢之器，
    形如交龙。
  citations:
    - quote: 乃設楅于中庭南當洗
      reading:
        follows: print
        why: >-
          The print's 楅; a
          slip.
  tags: [archery]
"""


def test_folded_paragraphs_are_filled_afresh_and_say_the_same() -> None:
    """An edit's stub lines ("one and a" / "half 寸 thick") go: each one-paragraph ``>-`` value is
    filled to the width again, at any depth, and its text is unchanged."""
    from glossary.load import load_bytes

    out = format_text(STUBBED)
    assert load_bytes(out.encode(), "t").data == load_bytes(STUBBED.encode(), "t").data
    assert "one and a\n" not in out and "three 寸 broad, one and a half 寸 thick." in out
    assert "盛矢之器， 形如交龙。" in out  # folded: the line break was a space, and stays one
    assert "why: >-\n          The print's 楅; a slip.\n" in out
    definition = out.split("definition: >-\n", 1)[1].split("  definition_zh", 1)[0]
    assert all(len(line) <= 104 for line in definition.splitlines())  # width 100, the indent
    assert format_text(out) == out


def test_a_folded_value_of_paragraphs_keeps_its_breaks() -> None:
    text = STUBBED.replace("    one and a\n", "    one and a\n\n")
    out = format_text(text)
    assert "one and a\n\n    half" in out


GAPPED = """- id: bi
  term: 楅
  pinyin: bī
  category: object
  rites: [乡射礼]
  gloss: arrow rack
  definition: |-
    The rack.

    A second paragraph, kept apart.
  citations:
    - quote: 乃設楅于中庭南當洗

      layer: classic

    - quote: 楅長如笴
  tags: [archery]

- id: x
"""


def test_a_blank_line_inside_an_entry_is_closed_unless_it_is_in_a_value() -> None:
    out = format_text(GAPPED)
    assert "    - quote: 乃設楅于中庭南當洗\n      layer: classic\n    - quote: 楅長如笴\n" in out
    assert "    The rack.\n\n    A second paragraph, kept apart.\n" in out  # part of the value
    assert "  tags: [archery]\n\n- id: x\n" in out  # the gap between entries stays
    assert format_text(out) == out
