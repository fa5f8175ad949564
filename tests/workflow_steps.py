"""Running a GitHub Actions workflow's `run:` steps locally, as the runner would, for the tests
that execute the project's workflows (check.yml's reviewer steps, release.yml)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def run_step(
    step: dict, cwd: Path, env: dict[str, str], expressions: dict[str, str], timeout: int = 600
) -> subprocess.CompletedProcess[str]:
    """One `run:` step as Actions runs it (``bash -eo pipefail``), its own env on top of the
    runner's; every value of that env must be an expression the test stands in for."""
    extra = {}
    for name, value in (step.get("env") or {}).items():
        assert value in expressions, f"{step.get('name')}: an expression no test stands in for"
        extra[name] = expressions[value]
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=cwd,
        env={**env, **extra},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
