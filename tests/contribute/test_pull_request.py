"""What a pull request runs: the repository's pre-commit hooks and the published ones, the template.

The hooks must work without an activated environment (a contributor commits from any shell):
they are run by the real pre-commit, with a PATH that holds no virtual environment.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    "test-artifacts",
    "preview-*",
    "build",
    ".mypy_cache",
    ".ruff_cache",
)
#: A shell's PATH without any virtual environment on it.
BARE_PATH = os.pathsep.join(p for p in ("/usr/local/bin", "/usr/bin", "/bin") if Path(p).is_dir())


def repository_hooks() -> str:
    """The repository's own `.pre-commit-config.yaml`, which CONTRIBUTING.md tells a contributor
    to install."""
    return (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=IGNORED)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    for command in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "copy"]):
        subprocess.run(command, cwd=repo, check=True, env=env)
    return repo


def _pre_commit(repo: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env.update(
        PATH=BARE_PATH,
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
        GLOSSARY_CACHE_DIR=str(tmp_path / "cache"),
    )
    pre_commit = Path(sys.executable).parent / "pre-commit"
    return subprocess.run(
        [str(pre_commit), *args], cwd=repo, env=env, capture_output=True, text=True, timeout=900
    )


def test_the_repository_hooks_name_the_environment_by_path() -> None:
    hooks = {hook["id"]: hook for hook in yaml.safe_load(repository_hooks())["repos"][0]["hooks"]}
    assert {"glossary-check", "glossary-fmt", "readme-stats", "ruff", "ruff-format", "mypy"} <= set(
        hooks
    )
    assert all(hook["entry"].startswith(".venv/bin/") for hook in hooks.values())
    # each runs only for the files it reads
    assert all("files" in hook or "types" in hook for hook in hooks.values())
    assert "pre-commit install" in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    published = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    # pre-commit installs the package into an environment of its own for a `python` hook.
    assert {hook["id"]: hook["language"] for hook in published} == {
        "glossary-check": "python",
        "glossary-fmt": "python",
    }
    assert [hook["entry"] for hook in published] == ["glossary check", "glossary fmt --check"]


@pytest.mark.slow  # real pre-commit and two glossary runs on the shipped data
def test_the_repository_hooks_run_without_an_active_environment(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    # The contributor's environment, where the guide's set-up puts it.
    (repo / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    assert shutil.which("glossary", path=BARE_PATH) is None
    passed = _pre_commit(repo, tmp_path, "run", "--all-files")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert re.search(r"glossary check\.+Passed", passed.stdout) and re.search(
        r"glossary fmt --check\.+Passed", passed.stdout
    )
    assert re.search(r"mypy\.+Passed", passed.stdout) and re.search(
        r"ruff check\.+Passed", passed.stdout
    )
    terms = repo / "terms.yaml"
    terms.write_text(
        terms.read_text(encoding="utf-8").replace("  gloss: ", "  gloss: TODO ", 1),
        encoding="utf-8",
    )
    subprocess.run(["git", "add", "terms.yaml"], cwd=repo, check=True)
    # A commit of terms.yaml alone runs the glossary's hooks, not ruff's or mypy's.
    failed = _pre_commit(repo, tmp_path, "run")
    assert re.search(r"mypy\.+\(no files to check\)Skipped", failed.stdout), failed.stdout
    assert re.search(r"ruff check\.+\(no files to check\)Skipped", failed.stdout), failed.stdout
    assert failed.returncode == 1 and "still the scaffold's placeholder" in failed.stdout, (
        failed.stdout
    )


def test_the_template_carries_the_reviewers_checklist() -> None:
    template = (ROOT / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    for item in (
        "Quotes verified",
        "Sources cited for every claim",
        "Readings sourced",
        "One entry per concept",
    ):
        assert f"- [ ] **{item}**" in template
    for command in (
        "glossary check --strict",
        "glossary fmt --check",
        "python scripts/stats.py --write",
    ):
        assert command in template


@pytest.mark.slow  # pre-commit installs the package (and its dependencies) into an environment of its own
def test_the_published_hooks_run_without_an_active_environment(tmp_path: Path) -> None:
    # try-repo takes this repository's last commit, as a contributor's `repo:` and `rev:` would.
    repo = _repository(tmp_path)
    for hook in ("glossary-check", "glossary-fmt"):
        done = _pre_commit(repo, tmp_path, "try-repo", str(ROOT), hook, "--all-files")
        assert done.returncode == 0, done.stdout + done.stderr
        assert re.search(r"\.+Passed", done.stdout), done.stdout


def test_the_template_names_every_rule_of_the_review_rubric() -> None:
    rubric = (ROOT / "docs" / "review" / "RUBRIC.md").read_text(encoding="utf-8")
    rules = re.findall(r"^\| (R\d+ [^|]+?) \|", rubric, re.MULTILINE)
    assert len(rules) >= 8, rules
    template = (ROOT / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    assert "docs/review/RUBRIC.md" in template
    for rule in rules:
        assert f"- [ ] **{rule}**:" in template, rule
