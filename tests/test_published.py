"""Published identity is permanent: ids the Anki ledger knows, and its assignments, only grow."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import make_project, mini_entries
from test_retired import RETIRED, merge

from glossary.check import check_project
from glossary.cli import cli
from glossary.render.anki.ledger import MAX_MOD, Ledger, Stamp, parse_ledger

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.org",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.org",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_SYSTEM": os.devnull,
}


def git(root: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", *args],
        cwd=root,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def write_ledger(root: Path, clozes: tuple[str, ...] = ("bi", "si-ma"), mod: int = 1000) -> None:
    """A ledger that published every mini entry, and one passage note asking ``clozes`` in order."""
    stamps = {f"note:{i}": Stamp("0" * 64, mod) for i in mini_entries()}
    stamps["cloze:bi"] = Stamp("1" * 64, mod, clozes)
    (root / "anki-ledger.json").write_bytes(Ledger(stamps).to_bytes())


def committed_project(folder: Path) -> Path:
    """The mini project with a ledger, committed on main in a repository of its own."""
    root = make_project(folder)
    write_ledger(root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "release")
    return root


def errors(root: Path, index, base: str | None = None) -> list[tuple[int, str, str]]:
    report = check_project(root / "terms.yaml", root / "corpus", index=index, base=base)
    return [(p.line, p.path, p.message) for p in report.problems if p.severity == "error"]


def test_an_id_the_ledger_published_may_not_disappear(tmp_path: Path, index) -> None:
    root = make_project(tmp_path / "p")
    write_ledger(root)
    ledger = json.loads((root / "anki-ledger.json").read_text(encoding="utf-8"))
    ledger["note:bi-old"] = {"mod": 1000, "sha256": "2" * 64}
    (root / "anki-ledger.json").write_text(json.dumps(ledger, indent=1), encoding="utf-8")
    [(line, path, message)] = errors(root, index)
    assert path == "note:bi-old" and line > 1
    assert message.startswith("the published id 'bi-old' is no longer in the glossary")
    assert "restore the id, or add it to retired.yaml with `- id: bi-old`" in message


def test_a_retired_id_may_leave_the_glossary(tmp_path: Path, index) -> None:
    root = make_project(tmp_path / "p")
    write_ledger(root)
    merge(root)  # zu-ku merged into ku, its id in retired.yaml
    assert errors(root, index) == []
    (root / "retired.yaml").unlink()
    # Without it, the merge is a rename: the ledger's id is reported once, at its first key.
    assert [path for _, path, _ in errors(root, index)] == [f"note:{RETIRED}"]


def test_reordering_published_clozes_fails_check_and_build(tmp_path: Path, index) -> None:
    root = committed_project(tmp_path / "p")
    assert errors(root, index) == []
    write_ledger(root, clozes=("si-ma", "bi"))
    [(line, path, message)] = errors(root, index)
    assert path == "cloze:bi"
    assert (root / "anki-ledger.json").read_text().splitlines()[line - 1].strip() == '"cloze:bi": {'
    assert message.startswith("cloze c1 asks 'bi' in HEAD, here 'si-ma'")
    result = CliRunner().invoke(
        cli,
        ["build", "--terms", str(root / "terms.yaml"), "--corpus", str(root / "corpus"),
         "--out", str(tmp_path / "dist")],
    )  # fmt: skip
    assert result.exit_code == 1 and "cloze c1 asks 'bi' in HEAD" in result.output
    assert not (tmp_path / "dist").exists()


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda root: write_ledger(root, clozes=("bi",)), "cloze c2 asks 'si-ma' in "),
        (lambda root: write_ledger(root, mod=999), "mod 999 is earlier than 1000 in "),
    ],
)
def test_a_pull_request_is_checked_against_its_merge_base(
    tmp_path: Path, index, change, message: str
) -> None:
    root = committed_project(tmp_path / "p")
    base = git(root, "rev-parse", "HEAD")
    git(root, "checkout", "-q", "-b", "pr")
    change(root)
    git(root, "commit", "-q", "-am", "a pull request rewriting the ledger")
    assert errors(root, index) == []  # its own HEAD agrees with itself
    found = errors(root, index, base="main")
    assert "cloze:bi" in [path for _, path, _ in found]
    assert all(text.startswith(message + base) for _, _, text in found), found


def test_new_cloze_numbers_and_later_times_pass(tmp_path: Path, index) -> None:
    root = committed_project(tmp_path / "p")
    write_ledger(root, clozes=("bi", "si-ma", "ku"), mod=2000)
    assert errors(root, index, base="main") == []


def test_an_unknown_base_is_an_error_not_an_option(tmp_path: Path, index) -> None:
    root = committed_project(tmp_path / "p")
    for base in ("no-such-branch", "--output=x"):
        result = CliRunner().invoke(
            cli,
            ["check", "--terms", str(root / "terms.yaml"), "--corpus", str(root / "corpus"),
             "--base", base],
        )  # fmt: skip
        assert result.exit_code == 1 and "not a revision git knows here" in result.output
    assert not (root / "x").exists()


def test_the_largest_time_keeps_the_next_build_working() -> None:
    ledger = Ledger({"note:bi": Stamp("0" * 64, MAX_MOD)})
    assert ledger.stamp("note:bi", "changed", epoch=1_700_000_000) == MAX_MOD
    assert ledger.stamp("note:new", "new", epoch=MAX_MOD + 10) == MAX_MOD
    assert parse_ledger(ledger.to_bytes()).stamps["note:bi"].mod == MAX_MOD


def test_an_entry_with_a_mistake_is_not_taken_for_a_removed_id(tmp_path: Path, index) -> None:
    from conftest import set_field

    root = make_project(tmp_path / "p")
    write_ledger(root)
    terms = root / "terms.yaml"
    terms.write_text(set_field(terms.read_text(encoding="utf-8"), "bi", "category", "thing"))
    found = errors(root, index)
    assert found and not any(path.startswith(("note:", "cloze:")) for _, path, _ in found), found


def test_an_id_renamed_before_its_first_commit_points_at_the_committed_ledger(
    tmp_path: Path, index
) -> None:
    root = committed_project(tmp_path / "p")
    ledger = json.loads((root / "anki-ledger.json").read_text(encoding="utf-8"))
    ledger["note:draft"] = {
        "mod": 1000,
        "sha256": "2" * 64,
    }  # a local build of an entry since renamed
    (root / "anki-ledger.json").write_text(json.dumps(ledger, indent=1), encoding="utf-8")
    [(_, path, message)] = errors(root, index)
    assert path == "note:draft"
    assert message.startswith("the id 'draft' is in the ledger but not in HEAD's (a build since)")
    assert "`git show HEAD:./anki-ledger.json`" in message


def test_a_ledger_larger_than_any_glossary_needs_is_refused_unread(
    tmp_path: Path, index, monkeypatch
) -> None:
    import glossary.published as published

    root = make_project(tmp_path / "p")
    write_ledger(root)
    monkeypatch.setattr(published, "MAX_LEDGER_BYTES", 100)
    [(line, path, message)] = errors(root, index)
    assert (line, path) == (0, "") and message.startswith("cannot read: ")
    assert "more than the 100 such a file may have" in message
