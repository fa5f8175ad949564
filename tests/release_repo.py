"""A fixture project in a git repository with two release tags, for the release tests.

``v0.0.9`` lacks the entry ``tan`` (and ``si-she`` does not relate to it); ``v<version>`` (the
installed version, pyproject.toml's) adds it back and corrects the gloss of ``bi``. Each tag's
commit holds the Anki ledger its build wrote, as a maintainer commits it before tagging.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner
from conftest import MINI_TERMS, make_project, set_field

import glossary
from glossary.cli import cli

PREVIOUS = "v0.0.9"
CURRENT = f"v{glossary.version()}"
#: Where the releases of the fixture are published (the decks and the book name it).
URL = "https://github.com/example/yili-fixture/releases"
CORRECTED = "bi"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Fixture",
    "GIT_AUTHOR_EMAIL": "fixture@example.org",
    "GIT_COMMITTER_NAME": "Fixture",
    "GIT_COMMITTER_EMAIL": "fixture@example.org",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str, date: int | None = None) -> str:
    env = {**os.environ, **GIT_ENV}
    if date is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = f"@{date} +0000"
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def build_ledger(repo: Path) -> None:
    """``glossary build --record-ledger`` in the repository, for the Anki ledger (the outputs go to tmp)."""
    result = CliRunner().invoke(
        cli,
        [
            "build",
            "--terms",
            str(repo / "terms.yaml"),
            "--corpus",
            str(repo / "corpus"),
            "--out",
            str(repo.parent / f"{repo.name}-dist"),
            "--record-ledger",
        ],
    )
    assert result.exit_code == 0, result.output


def without_tan(text: str) -> str:
    start = text.index("- id: tan\n")
    end = text.index("- id: ku\n")
    return set_field(text[:start] + text[end:], "si-she", "related", ["si-ma", "sheng-shi"])


def commit_release(repo: Path, message: str, tag: str, date: int) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message, date=date)
    build_ledger(repo)  # SOURCE_DATE_EPOCH unset: the commit's time, as a release builds
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", f"{message}: the Anki ledger", date=date + 60)
    git(repo, "tag", tag)


def make_release_repo(folder: Path) -> Path:
    """The fixture repository, HEAD at ``CURRENT``."""
    repo = make_project(folder, terms=without_tan(MINI_TERMS.read_text(encoding="utf-8")))
    (repo / ".gitignore").write_text("/release/\n/dist/\n", encoding="utf-8")
    git(repo, "init", "-q", "-b", "main")
    commit_release(repo, "the first release", PREVIOUS, 1_800_000_000)
    text = MINI_TERMS.read_text(encoding="utf-8")
    (repo / "terms.yaml").write_text(
        set_field(text, CORRECTED, "gloss", "rack for the arrows (corrected)"), encoding="utf-8"
    )
    commit_release(repo, "袒 added, 楅 corrected", CURRENT, 1_800_086_400)
    return repo


def clone(repo: Path, folder: Path, tag: str = CURRENT) -> Path:
    """A fresh clone of ``repo`` checked out at ``tag``, with every tag (as the workflow's checkout)."""
    git(repo.parent, "clone", "-q", "--branch", tag, str(repo), str(folder))
    return folder


def bin_path() -> str:
    """PATH with the environment's ``glossary`` and ``python`` first."""
    return f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
