"""Release hygiene: the version in one place, a changelog, and installs pinned by constraints.txt.

These read the repository's own files (pyproject.toml, constraints.txt, the CI workflow, the
README, scripts/test.sh): they fail when a dependency is added without rerunning
scripts/lock.sh, when a second copy of the version appears, or when an install stops using the
constraints.
"""

from __future__ import annotations

import re
import tomllib

import yaml
from conftest import ROOT

import glossary
from glossary.release.make import WEB_ZIP, paper_name
from glossary.vocab import vocabulary

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalised as PEP 503 does (ruamel.yaml → ruamel-yaml)."""
    name = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert name is not None, requirement
    return re.sub(r"[-_.]+", "-", name.group()).lower()


def test_the_version_is_pyprojects_and_written_nowhere_else() -> None:
    version = PYPROJECT["project"]["version"]
    assert glossary.version() == version  # read from the installed metadata
    copies = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "glossary").rglob("*.py")
        if re.search(rf"""["']{re.escape(version)}["']|__version__\s*=""", path.read_text("utf-8"))
    ]
    assert not copies, f"a second copy of the version: {copies}"


def test_constraints_pin_every_dependency_exactly() -> None:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, sep, version = line.partition("==")
            assert sep and re.fullmatch(r"[\w.+!-]+", version), f"not an exact pin: {line}"
            pins[_name(name)] = version
    project = PYPROJECT["project"]
    wanted = {
        _name(requirement)
        for requirement in project["dependencies"]
        + [r for extra in project["optional-dependencies"].values() for r in extra]
    }
    missing = sorted(wanted - set(pins))
    assert not missing, f"not in constraints.txt (run scripts/lock.sh): {missing}"
    assert _name(project["name"]) not in pins  # the project itself is installed editable


def _developer_part() -> str:
    """The README from its developer heading on (what comes before it is for students)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\n## For developers\n" in readme
    return readme.split("\n## For developers\n", 1)[1]


def test_every_install_uses_the_constraints() -> None:
    first = re.search(r"```sh\n(.*?)\n```", _developer_part(), re.S)
    assert first is not None and "pip install -q -c constraints.txt -e ." in first.group(1)
    script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    installs = [line for line in script.splitlines() if "pip install" in line]
    assert installs and all("-c constraints.txt" in line for line in installs)
    # and scripts/test.sh reinstalls when the constraints change
    assert "constraints.txt" in script.split("stamp=", 1)[1].splitlines()[0]
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "check.yml").read_text("utf-8"))
    steps = workflow["jobs"]["check"]["steps"]
    runs = [step["run"] for step in steps if "pip install" in step.get("run", "")]
    assert runs and all("-c constraints.txt" in run for run in runs)


def test_ci_runs_the_oldest_and_newest_python_with_lint_and_types() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "check.yml").read_text("utf-8"))
    job = workflow["jobs"]["check"]
    versions = job["strategy"]["matrix"]["python-version"]
    oldest = PYPROJECT["project"]["requires-python"].removeprefix(">=")
    assert oldest in versions and len(versions) >= 2
    assert max(versions, key=lambda v: tuple(map(int, v.split(".")))) != oldest
    commands = [step.get("run", "") for step in job["steps"]]
    for tool in ("ruff check", "ruff format --check", "mypy"):
        assert any(command.startswith(tool) for command in commands), tool


def test_the_changelog_keeps_an_unreleased_section() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "keepachangelog.com" in changelog
    sections = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert sections and sections[0] == "Unreleased"
    headings = set(re.findall(r"^### (\w+)", changelog, re.M))
    assert headings <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def test_the_developer_part_starts_with_the_install_and_the_test_command() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", _developer_part(), re.S)
    assert commands[0].startswith("python3 -m venv .venv && .venv/bin/pip install")
    assert commands[0].endswith("glossary build --sheet all")
    assert commands[1] == "bash scripts/test.sh"


def test_the_readme_starts_with_downloads_and_import_for_students() -> None:
    """Before anything about Python: where to download the decks, the book and the sheets (the
    latest release's assets, by the names a release gives them) and how to import and update."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    students = readme.split("\n## For developers\n", 1)[0]
    for word in ("python", "pip ", "venv", "glossary build", "```"):
        assert word not in students.lower(), word
    headings = re.findall(r"^## (.+)$", students, re.M)
    assert headings == ["Download", "Import into Anki", "Update to a new release"]
    linked = set(re.findall(r"\(\.\./\.\./releases/latest/download/([^)]+)\)", students))
    fixed = {"yili-glossary.apkg", "glossary-a4.pdf", "glossary-letter.pdf", "glossary.html"}
    fixed |= {"CHANGES.md", "IMPORT.md", "yili-glossary.csv", "terms.json", "SHA256SUMS", WEB_ZIP}
    per_rite = {
        name
        for rite in vocabulary().rites
        for name in (
            f"yili-{rite.id}.apkg",
            f"sheet-{rite.id}.html",
            paper_name(f"sheet-{rite.id}.pdf", "a4"),
            paper_name(f"sheet-{rite.id}.pdf", "letter"),
        )
    }
    assert linked == fixed | per_rite
    words = " ".join(students.split())
    assert "tick **Import any deck presets**" in words
    assert "tick **Merge note types** and set **Update notes** to **Always**" in words
