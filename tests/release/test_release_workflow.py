"""The release workflow (.github/workflows/release.yml), its `run:` steps executed here.

The steps run in order, with bash as Actions runs them, in a fresh clone of the fixture repository
(tests/release_repo.py) checked out at its version tag, with the variables Actions sets
(GITHUB_REF_NAME, RUNNER_TEMP, GITHUB_ENV, GITHUB_REPOSITORY …). Left out: the steps that install
the environment (this test runs in an installed one) and the `uses:` actions (checkout,
setup-python, the Pages upload), whose inputs are asserted instead. ``gh`` is a stand-in on PATH
that records what it was asked to publish.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
from pathlib import Path

import pytest
import workflow_steps
import yaml
from conftest import ROOT
from release_repo import CURRENT, PREVIOUS, bin_path, clone, make_release_repo

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
#: Steps that install what this test already has, and the only commands they may run.
INSTALLS = {"System packages": ("apt-get", "GITHUB_ENV"), "Install": ("pip install",)}
#: The expressions a step's `env:` may use, and what stands for them here.
EXPRESSIONS = {"${{ github.token }}": "local-token"}
GH = """#!/bin/sh
printf '%s\\n' "$@" > "$GH_RECORD"
printf '%s\\n' "$GH_TOKEN" > "$GH_RECORD.token"
"""


def steps() -> list[dict]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    # PyYAML reads the key `on` as True (YAML 1.1); what starts the workflow is a pushed v* tag.
    assert workflow[True] == {"push": {"tags": ["v*"]}}
    (job,) = workflow["jobs"].values()
    return job["steps"]


def environment(work: Path, tag: str) -> dict[str, str]:
    (work / "bin").mkdir(parents=True, exist_ok=True)
    gh = work / "bin" / "gh"
    gh.write_text(GH, encoding="utf-8")
    gh.chmod(0o755)
    (work / "runner").mkdir(exist_ok=True)
    env = {
        **os.environ,
        "PATH": f"{work / 'bin'}{os.pathsep}{bin_path()}",
        "GITHUB_REF_NAME": tag,
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "example/yili-fixture",
        "GITHUB_ENV": str(work / "github-env"),
        "RUNNER_TEMP": str(work / "runner"),
        "GH_RECORD": str(work / "gh-args"),
    }
    env.pop("VIRTUAL_ENV", None)
    return env


def run_step(step: dict, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """One `run:` step of this workflow, as the runner runs it (tests/workflow_steps.py)."""
    return workflow_steps.run_step(step, cwd, env, EXPRESSIONS, timeout=1800)


def test_run_steps_use_no_expressions_and_installs_only_install() -> None:
    """Values reach a `run:` script as variables, never pasted in (a tag name is data)."""
    names = [step.get("name") for step in steps() if "run" in step]
    assert set(INSTALLS) <= set(names)
    for step in steps():
        if "run" in step:
            assert "${{" not in step["run"], step["name"]
        if step.get("name") in INSTALLS:
            script = step["run"].replace("\\\n", " ")  # a command continued on the next line
            commands = [line.strip() for line in script.splitlines() if line.strip()]
            assert all(any(word in line for word in INSTALLS[step["name"]]) for line in commands), (
                step["name"]
            )


def test_the_tag_step_refuses_a_tag_that_is_not_the_version(tmp_path: Path) -> None:
    (step,) = [s for s in steps() if s.get("name") == "The tag is the version"]
    done = run_step(step, tmp_path, environment(tmp_path, PREVIOUS))
    assert done.returncode == 1
    assert f"::error::the tag {PREVIOUS} is not {CURRENT}" in done.stdout
    assert run_step(step, tmp_path, environment(tmp_path, CURRENT)).returncode == 0


@pytest.mark.slow  # the release prints the book and every sheet on A4 and on Letter (Chromium)
def test_the_workflow_releases_a_tagged_fixture_repository(tmp_path: Path) -> None:
    from pypdf import PdfReader

    repo = make_release_repo(tmp_path / "origin")
    work = tmp_path / "actions"
    checkout = clone(repo, work / "checkout")  # actions/checkout, fetch-depth 0: every tag
    env = environment(work, CURRENT)
    ran = []
    for step in steps():
        if "uses" in step or step.get("name") in INSTALLS:
            continue
        done = run_step(step, checkout, env)
        assert done.returncode == 0, f"{step['name']}:\n{done.stdout}\n{done.stderr}"
        ran.append(step["name"])
    assert ran == [
        "The tag is the version",
        "Release folder",
        "Checksums",
        "Web page",
        "GitHub Release",
    ]

    folder = work / "runner" / "release"
    files = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    # The GitHub Release: every file of the folder, CHANGES.md as its notes, the pushed tag.
    args = (work / "gh-args").read_text(encoding="utf-8").splitlines()
    assert args[:3] == ["release", "create", CURRENT] and "--verify-tag" in args
    notes = args.index("--notes-file") + 1
    assert args[notes] == str(folder / "CHANGES.md")
    assets = [a for i, a in enumerate(args) if i > notes and a.startswith(str(folder) + "/")]
    assert sorted(Path(a).name for a in assets) == files
    assert (work / "gh-args.token").read_text(encoding="utf-8").strip() == "local-token"
    # The web page: the release's glossary.html, as index.html of the folder Pages uploads.
    upload = next(s for s in steps() if s.get("uses", "").startswith("actions/upload-pages"))
    assert upload["with"]["path"] == "${{ runner.temp }}/site"
    site = work / "runner" / "site"
    assert (site / "index.html").read_bytes() == (folder / "glossary.html").read_bytes()
    # ... under its own name too, beside the reader view its "in the text" links open, whose
    # pages link back to it (../glossary.html#e-…).
    assert (site / "glossary.html").read_bytes() == (folder / "glossary.html").read_bytes()
    pages = sorted(p.name for p in (site / "read").glob("*.html"))
    assert "index.html" in pages and len(pages) > 1, pages
    page = (site / "read" / pages[-1]).read_text(encoding="utf-8")
    assert 'href="../glossary.html#e-' in page
    linked = set(re.findall(r'href="read/([^"#]+)', (site / "glossary.html").read_text("utf-8")))
    assert linked and linked <= set(pages), linked - set(pages)
    # Every PDF on A4 and on Letter, under names that carry no version.
    pdfs = [name for name in files if name.endswith(".pdf")]
    stems = {re.sub(r"-(a4|letter)\.pdf$", "", name) for name in pdfs}
    assert stems == {"glossary", "sheet-xiangshe", "sheet-shiyu", "sheet-tesheng"}
    assert sorted(pdfs) == sorted(f"{s}-{p}.pdf" for s in stems for p in ("a4", "letter"))
    sizes = {"a4": (595, 842), "letter": (612, 792)}
    for name in pdfs:
        box = PdfReader(io.BytesIO((folder / name).read_bytes())).pages[0].mediabox
        paper = name.rsplit("-", 1)[1].removesuffix(".pdf")
        assert (round(float(box.width)), round(float(box.height))) == sizes[paper], name
    assert not any(CURRENT.lstrip("v") in name for name in files)
    # The checksums verify (the workflow's own step did; and once more, by name).
    listed = (folder / "SHA256SUMS").read_text(encoding="utf-8")
    assert sorted(line.split("  ")[1] for line in listed.splitlines()) == sorted(
        set(files) - {"SHA256SUMS"}
    )
