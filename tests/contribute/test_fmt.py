from pathlib import Path

from click.testing import CliRunner
from conftest import MINI_TERMS

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
    assert out.index("pinyin") < out.index("category") < out.index("gloss") < out.index("definition")
    assert format_text(out) == out
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(MESSY, encoding="utf-8")
    b.write_text(out, encoding="utf-8")
    assert load_yaml(a).data == load_yaml(b).data


def test_fixture_glossary_is_formatted() -> None:
    result = CliRunner().invoke(cli, ["fmt", "--check", "--terms", str(MINI_TERMS)])
    assert result.exit_code == 0, result.output
    assert format_text(MINI_TERMS.read_text(encoding="utf-8")) == MINI_TERMS.read_text(encoding="utf-8")


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
