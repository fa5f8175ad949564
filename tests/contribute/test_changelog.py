import subprocess
from pathlib import Path

from click.testing import CliRunner
from conftest import MINI_TERMS, mini_entries, set_field

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
    result = CliRunner().invoke(
        cli, ["changelog", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")]
    )
    assert result.exit_code == 0
    assert "## Added (1)\n- `d` 丁\n" in result.output
    assert "## Removed (1)\n- `c` 丙\n" in result.output
    assert "## Changed (1)\n- `b` 乙: gloss, tags\n" in result.output


def test_a_yaml_file_that_is_no_list_of_entries_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text(OLD, encoding="utf-8")
    for text in ("5\n", "a: 1\n"):
        (tmp_path / "new.yaml").write_text(text, encoding="utf-8")
        result = CliRunner().invoke(
            cli, ["changelog", str(tmp_path / "old.yaml"), str(tmp_path / "new.yaml")]
        )
        assert result.exit_code == 1, result.output
        assert "new.yaml: not a terms file: a list of entries is needed" in result.output


ADDED = """
- id: zz-added
  term: 乏
  pinyin: fá
  category: object
  rites: [乡射礼]
  gloss: screen for the marker
  definition: Added after the commit.
  citations:
    - quote: 乏
"""


def git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


def test_changelog_reads_git_revisions(tmp_path: Path, monkeypatch) -> None:
    # A repository of its own: the fixture glossary committed, then one entry changed and one added.
    git(tmp_path, "init", "-q")
    text = MINI_TERMS.read_text(encoding="utf-8")
    (tmp_path / "terms.yaml").write_text(text, encoding="utf-8")
    git(tmp_path, "add", "terms.yaml")
    git(tmp_path, "commit", "-q", "-m", "v1")
    bi = mini_entries()["bi"]
    (tmp_path / "terms.yaml").write_text(
        set_field(text, "bi", "gloss", bi.gloss + " (changed)") + ADDED, encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["changelog", "HEAD:terms.yaml", "terms.yaml"])
    assert result.exit_code == 0, result.output
    assert "## Added (1)\n- `zz-added` 乏\n" in result.output
    assert "## Removed (0)\n" in result.output
    assert f"## Changed (1)\n- `bi` {bi.term}: gloss\n" in result.output
    missing = CliRunner().invoke(cli, ["changelog", "no-such-rev:terms.yaml", "terms.yaml"])
    assert missing.exit_code == 1 and "no-such-rev" in missing.output
