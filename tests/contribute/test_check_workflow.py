"""The reviewer's view in CI (.github/workflows/check.yml): its `run:` steps executed here.

A fixture repository (the mini project) with two commits, the second changing one entry, is
cloned as actions/checkout clones a pull request (the base branch as ``origin/main``); the job
summary and preview steps run with bash as Actions runs them, with the variables Actions sets
(GITHUB_STEP_SUMMARY, RUNNER_TEMP) and the step's own ``env:``. The upload action's inputs are
asserted instead of run.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import workflow_steps
import yaml
from conftest import ROOT, make_project, set_field
from release_repo import bin_path

WORKFLOW = ROOT / ".github" / "workflows" / "check.yml"
SUMMARY, PREVIEWS, UPLOAD = (
    "Changes, field by field (job summary)",
    "Previews of the added and changed entries",
    "Upload the previews",
)
#: What stands for the expressions these steps' `env:` may use.
EXPRESSIONS = {"${{ github.base_ref }}": "main"}
#: The condition of the three steps: pull requests only, once per run, also after a failed check.
CONDITION = (
    "${{ !cancelled() && github.event_name == 'pull_request' && matrix.python-version == '3.13' }}"
)


def steps() -> dict[str, dict]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return {step["name"]: step for step in workflow["jobs"]["check"]["steps"] if "name" in step}


def git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


def run_step(step: dict, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One `run:` step of this workflow, as the runner runs it (tests/workflow_steps.py)."""
    return workflow_steps.run_step(step, cwd, env, EXPRESSIONS, timeout=600)


def test_the_reviewers_steps_run_once_for_a_pull_request_and_take_values_as_variables() -> None:
    found = steps()
    for name in (SUMMARY, PREVIEWS, UPLOAD):
        assert found[name]["if"] == CONDITION, name
    for name in (SUMMARY, PREVIEWS):
        assert "${{" not in found[name]["run"]  # a branch name is data, never pasted into a script
        assert set(found[name]["env"].values()) <= set(EXPRESSIONS)
    upload = found[UPLOAD]
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["with"]["path"] == "${{ runner.temp }}/previews"
    names = list(found)
    assert names.index("glossary build") < names.index(SUMMARY) < names.index(PREVIEWS)
    assert names.index(PREVIEWS) < names.index(UPLOAD)


@pytest.mark.slow  # three glossary runs in subprocesses: check, gather and render the notes
def test_a_pull_request_that_changes_one_entry_gets_its_field_diff_and_preview(
    tmp_path: Path,
) -> None:
    origin = make_project(tmp_path / "origin")
    git(origin, "init", "-q", "-b", "main")
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "base")
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", str(origin), str(checkout))
    terms = checkout / "terms.yaml"
    text = set_field(terms.read_text(encoding="utf-8"), "bi", "gloss", "rack for the arrows")
    # The first citation's quote made shorter: still a verified quote of the same passage.
    text = text.replace("quote: 命弟子設楅乃設楅于中庭南當洗", "quote: 乃設楅于中庭南當洗", 1)
    terms.write_text(text, encoding="utf-8")
    git(checkout, "commit", "-qam", "bi: a clearer gloss")

    runner = tmp_path / "runner"
    runner.mkdir()
    summary = runner / "step-summary.md"
    env = {
        **os.environ,
        "PATH": bin_path(),
        "RUNNER_TEMP": str(runner),
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    env.pop("VIRTUAL_ENV", None)
    for name in (SUMMARY, PREVIEWS):
        done = run_step(steps()[name], checkout, env)
        assert done.returncode == 0, f"{name}:\n{done.stdout}\n{done.stderr}"

    written = summary.read_text(encoding="utf-8")
    assert "<p>0 added, 1 changed, 0 removed</p>" in written
    assert "<h3><code>bi</code> 楅 (changed)</h3>" in written
    assert (
        "<tr><th>gloss</th><td><del>arrow rack</del><ins>rack for the arrows</ins></td></tr>"
        in (written)
    )
    # The changed citation: its quote as a diff (by character) and the place it names.
    assert "quote: <del>命弟子設楅</del>乃設楅于中庭南當洗" in written
    assert "place: 禮經本義 卷4 classic" in written
    assert "sheng-shi" not in written  # an entry the pull request left alone

    folder = runner / "previews"
    names = sorted(p.name for p in folder.iterdir())
    assert "preview-bi.html" in names and "bi-printed.png" in names
    assert {"bi-recognition-front.png", "bi-recognition-back.png"} <= set(names)
    assert all(
        n == "preview-bi.html" or (n.startswith("bi-") and n.endswith(".png")) for n in names
    )
    page = (folder / "preview-bi.html").read_text(encoding="utf-8")
    assert "<h1>Preview of <code>bi</code></h1>" in page
    assert "rack for the arrows" in page and "Printed glossary" in page
