"""The console examples of README.md and CONTRIBUTING.md are run, and their outputs compared.

Every ```console block is a session: each ``$ command`` line runs (bash, in a copy of the
repository, with the environment's ``glossary`` and ``python`` first on PATH), and what it prints
(stdout and stderr, in order) must be the lines below it, up to the next ``$`` line. Two marks elide
what changes as the glossary grows or from run to run:

- a line that is only ``…`` stands for any number of lines (none included);
- ``[…]`` inside a line stands for any text within that line.

A document's blocks run in order in one copy, so the walkthrough's edits carry from step to step.
The edits a reader makes by hand are HTML comments, invisible on GitHub, just before a block:

- ``<!-- test: run COMMAND -->``: run COMMAND (it must succeed), printing nothing;
- ``<!-- test: add after ID -->``: the ```yaml block that follows goes into terms.yaml after entry ID;
- ``<!-- test: in ID replace OLD with NEW -->``: the first OLD in entry ID's lines becomes NEW;
- ``<!-- test: skip -->``: the next console block is shown, not run.

Slow: each command starts an interpreter, and the walkthrough builds the whole glossary.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import ROOT

DOCS = ("README.md", "CONTRIBUTING.md")
#: What a copy of the repository leaves out: the environment, outputs and caches.
IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "dist",
    ".dist.*",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    "test-artifacts",
    "preview-*",
    "build",
)
DIRECTIVE = re.compile(r"<!-- test: (.*?) -->")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)


@dataclass
class Block:
    """A fenced block of a document, with the test directives just before it."""

    line: int
    language: str
    text: str
    directives: list[str] = field(default_factory=list)


def blocks(document: str) -> list[Block]:
    """The fenced blocks of a Markdown document, each with the directives between it and the one before."""
    found, last = [], 0
    for match in FENCE.finditer(document):
        between = document[last : match.start()]
        line = document.count("\n", 0, match.start()) + 1
        found.append(Block(line, match.group(1), match.group(2), DIRECTIVE.findall(between)))
        last = match.end()
    trailing = DIRECTIVE.findall(document[last:])
    if trailing:
        found.append(Block(document.count("\n") + 1, "", "", trailing))
    return found


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """A console block as (command, the lines it should print)."""
    runs: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            runs.append((line[2:], []))
        elif runs:
            runs[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"output before any $ command: {line!r}")
    return runs


def _line_pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.rstrip().split("[…]")) + r"\Z")


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether the printed lines are the expected ones, ``…`` lines and ``[…]`` elisions aside."""
    expected = [line.rstrip() for line in expected]
    got = [line.rstrip() for line in got]
    while expected and not expected[-1]:
        expected.pop()
    while got and not got[-1]:
        got.pop()

    def match(i: int, j: int) -> bool:
        if i == len(expected):
            return j == len(got)
        if expected[i].strip() == "…":
            return any(match(i + 1, k) for k in range(j, len(got) + 1))
        return (
            j < len(got)
            and _line_pattern(expected[i]).match(got[j]) is not None
            and match(i + 1, j + 1)
        )

    return match(0, 0)


def entry_span(lines: list[str], entry_id: str) -> tuple[int, int]:
    """Where entry ``entry_id`` stands among the lines of terms.yaml: [start, end)."""
    start = lines.index(f"- id: {entry_id}")
    end = start + 1
    while end < len(lines) and not lines[end].startswith(("- ", "#")) and lines[end].strip():
        end += 1
    return start, end


class Workspace:
    """A copy of the repository that a document's commands run in."""

    def __init__(self, folder: Path, cache: Path, copy: bool = True):
        if copy:  # else the folder holds the project already (a clone: tests/test_walkthrough.py)
            shutil.copytree(ROOT, folder, ignore=IGNORED, symlinks=True)
        self.folder = folder
        bin_dir = str(Path(sys.executable).parent)
        self.env = {
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "GLOSSARY_CACHE_DIR": str(cache),
            "PYTHONUNBUFFERED": "1",
            "NO_COLOR": "1",
            "COLUMNS": "200",
        }
        self.env.pop("VIRTUAL_ENV", None)

    def run(self, command: str) -> tuple[int, list[str]]:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=self.folder,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=900,
        )
        return done.returncode, done.stdout.decode("utf-8", "replace").splitlines()

    @property
    def terms(self) -> Path:
        return self.folder / "terms.yaml"

    def edit(self, directive: str, block: Block | None) -> None:
        lines = self.terms.read_text(encoding="utf-8").splitlines()
        if match := re.fullmatch(r"add after (\S+)", directive):
            assert block is not None and block.language == "yaml", (
                f"`{directive}` needs a yaml block after it"
            )
            _, end = entry_span(lines, match.group(1))
            lines[end:end] = ["", *block.text.rstrip("\n").splitlines()]
        elif match := re.fullmatch(r"in (\S+) replace (.+?) with (.+)", directive):
            start, end = entry_span(lines, match.group(1))
            old, new = match.group(2), match.group(3)
            at = next((i for i in range(start, end) if old in lines[i]), None)
            assert at is not None, f"{old!r} is not in entry {match.group(1)}"
            lines[at] = lines[at].replace(old, new, 1)
        else:
            raise AssertionError(f"unknown test directive: {directive!r}")
        self.terms.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.mark.slow  # every command starts an interpreter; the walkthrough builds the glossary
@pytest.mark.parametrize("name", DOCS)
def test_console_examples_print_what_the_document_says(
    name: str, tmp_path: Path, cache: Path
) -> None:
    document = (ROOT / name).read_text(encoding="utf-8")
    work = Workspace(tmp_path / "repo", cache)
    ran = 0
    for block in blocks(document):
        skip = False
        for directive in block.directives:
            if directive == "skip":
                skip = True
            elif directive.startswith("run "):
                status, output = work.run(directive[4:])
                assert status == 0, f"{name}:{block.line}: `{directive[4:]}` failed:\n" + "\n".join(
                    output
                )
            else:
                work.edit(directive, block)
        if block.language != "console" or skip:
            continue
        for command, expected in sessions(block.text):
            _, got = work.run(command)
            ran += 1
            assert matches(expected, got), (
                f"{name}:{block.line}: `{command}` printed\n"
                + "\n".join(got)
                + "\n\nwhere the document says\n"
                + "\n".join(expected)
            )
    assert ran > 0


def test_elision_marks() -> None:
    assert matches(["a", "…", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "…", "d"], ["a", "d"])
    assert not matches(["a", "…", "d"], ["a", "b"])
    assert matches(["272 terms, […] citations"], ["272 terms, 1088 citations"])
    assert not matches(["272 terms, […] citations"], ["273 terms, 1088 citations"])
    assert not matches(["a"], ["a", "b"])
    # A literal … inside a line is text to compare, not an elision.
    assert not matches(["…上射…"], ["…下射…"])


def test_every_console_block_runs_or_says_why_not() -> None:
    """A console block without a command would be compared with nothing: it must be a ```text block."""
    for name in DOCS:
        for block in blocks((ROOT / name).read_text(encoding="utf-8")):
            if block.language == "console" and "skip" not in block.directives:
                assert sessions(block.text), (
                    f"{name}:{block.line}: a console block with no $ command"
                )


def test_the_guide_lists_what_ci_runs() -> None:
    """Every command of the CI workflow's steps after the install is in CONTRIBUTING.md's section on CI."""
    import yaml

    workflow = yaml.safe_load(
        (ROOT / ".github" / "workflows" / "check.yml").read_text(encoding="utf-8")
    )
    steps = workflow["jobs"]["check"]["steps"]
    names = [step.get("name", "") for step in steps]
    commands = [
        step["run"].strip() for step in steps[names.index("Install") + 1 :] if "run" in step
    ]
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert commands and all(command in guide for command in commands), commands
