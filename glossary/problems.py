"""Problems found in user data, and the three ways of reporting them."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, order=True)
class Problem:
    """One problem, placed at a file, line and data path (``bi.citations[0].quote``)."""

    file: str
    line: int
    path: str
    severity: str
    message: str
    hints: tuple[str, ...] = ()

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:" if self.line else f"{self.file}:"
        head = f"{where} {self.path}: " if self.path else f"{where} "
        label = "" if self.severity == ERROR else "warning: "
        lines = [f"{head}{label}{self.message}"]
        lines.extend(f"    {hint}" for hint in self.hints)
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["hints"] = list(self.hints)
        return data

    def to_github(self) -> str:
        """A GitHub Actions workflow command, shown as an annotation on the pull request."""
        level = "error" if self.severity == ERROR else "warning"
        message = self.message if not self.path else f"{self.path}: {self.message}"
        if self.hints:
            message += "\n" + "\n".join(self.hints)
        message = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        location = f"file={self.file}" + (f",line={self.line}" if self.line else "")
        return f"::{level} {location}::{message}"


def is_failure(problem: Problem, strict: bool) -> bool:
    """Errors always fail a run; warnings fail it under ``--strict``."""
    return problem.severity == ERROR or strict


def dump_json(data: object) -> str:
    """Stable JSON: same data, same bytes."""
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
