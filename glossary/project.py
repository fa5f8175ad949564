"""A project's own settings for the check, beside its terms file (``[tool.glossary]`` in its
pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

from glossary.problems import ERROR, Problem

#: The file beside the terms file where a project sets its rules: ``[tool.glossary]``.
PROJECT_FILE = "pyproject.toml"


def project_rules(folder: Path) -> tuple[frozenset[str], list[Problem]]:
    """The preview rules the project in ``folder`` turns on (``[tool.glossary] preview =
    ["Y307"]`` in its pyproject.toml, as ruff's ``extend-select``), and the problems of that
    setting (Y902). A project without the file, or without the table, turns none on."""
    import tomllib

    from glossary.files import UnreadableFile, read_bounded
    from glossary.rules.codes import PREVIEW

    path = folder / PROJECT_FILE
    try:
        data = read_bounded(path, 1 << 20, links=False, base=folder)
    except (OSError, UnreadableFile):
        return frozenset(), []
    text = data.decode("utf-8", errors="replace")
    line = next(
        (n for n, row in enumerate(text.splitlines(), 1) if row.lstrip().startswith("preview")), 0
    )

    def problem(path_in_file: str, message: str) -> Problem:
        return Problem(str(path), line, path_in_file, ERROR, message, code="Y902")

    try:
        table = tomllib.loads(text).get("tool", {}).get("glossary", {})
    except tomllib.TOMLDecodeError as exc:
        return frozenset(), [problem("tool.glossary", f"not TOML: {exc}")]
    codes = table.get("preview", []) if isinstance(table, dict) else None
    if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
        return frozenset(), [problem("tool.glossary.preview", 'a list of codes: ["Y307"]')]
    known = ", ".join(sorted(PREVIEW)) or "none"
    problems = [
        problem(f"tool.glossary.preview[{i}]", f"{code} is no preview rule's code ({known})")
        for i, code in enumerate(codes)
        if code not in PREVIEW
    ]
    return frozenset(code for code in codes if code in PREVIEW), problems
