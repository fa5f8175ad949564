from pathlib import Path

from click.testing import CliRunner

from glossary.cli import cli

OLD = """- {id: a, term: 甲, gloss: one}
- {id: b, term: 乙, gloss: two}
- {id: c, term: 丙, gloss: three}
"""
NEW = """- {id: a, term: 甲, gloss: one}
- {id: b, term: 乙, gloss: TWO, tags: [x]}
- {id: d, term: 丁, gloss: four}
"""


def test_changelog_lists_added_changed_removed(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(OLD, encoding="utf-8")
    (tmp_path / "new.yaml").write_text(NEW, encoding="utf-8")
    result = CliRunner().invoke(cli, ["changelog", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")])
    assert result.exit_code == 0
    assert "## Added (1)\n- `d` 丁\n" in result.output
    assert "## Removed (1)\n- `c` 丙\n" in result.output
    assert "## Changed (1)\n- `b` 乙: gloss, tags\n" in result.output


def test_changelog_reads_git_revisions(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["changelog", "HEAD:terms.yaml", "terms.yaml"])
    assert result.exit_code == 0 and "## Added" in result.output
    missing = CliRunner().invoke(cli, ["changelog", "no-such-rev:terms.yaml", "terms.yaml"])
    assert missing.exit_code == 1 and "no-such-rev" in missing.output
