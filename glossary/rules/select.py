"""Which rules a run reports: ``--select``/``--ignore`` codes (prefixes such as ``Y2``), and each
entry's own ``ignore:`` list (a code with the scholar's reason), checked in its turn."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from glossary.errors import GlossaryError
from glossary.model import Entry
from glossary.problems import ERROR, WARNING, Problem
from glossary.rules.codes import BY_CODE

#: Rules an entry cannot waive: the file must read, the ignore list must hold, the ledger and the
#: retired ids are the published identity (no entry's to excuse).
NOT_WAIVABLE = ("Y0", "Y12", "Y8", "Y9")


def parse_codes(text: str | None) -> tuple[str, ...]:
    """``"Y2,Y305"`` → ``("Y2", "Y305")``; each must be a code or the prefix of one."""
    if not text:
        return ()
    found = tuple(part.strip().upper() for part in text.split(",") if part.strip())
    for code in found:
        if not code.startswith("Y") or not any(known.startswith(code) for known in BY_CODE):
            raise GlossaryError(f"{code!r} is no rule's code nor the start of one (Y201, Y2)")
    return found


def chosen(problem: Problem, select: Sequence[str], ignore: Sequence[str]) -> bool:
    """Whether ``--select``/``--ignore`` keep a problem (one without a code is always kept)."""
    if not problem.code:
        return True
    if select and not any(problem.code.startswith(code) for code in select):
        return False
    return not any(problem.code.startswith(code) for code in ignore)


def owner(problem: Problem) -> str:
    """The entry id a problem's path starts with (``bi`` of ``bi.citations[0].quote``)."""
    return problem.path.split(".", 1)[0].split("[", 1)[0]


def apply_ignores(file: str, entries: Iterable[Entry], problems: list[Problem]) -> list[Problem]:
    """``problems`` without those an entry's ``ignore:`` waives, plus a problem for each item
    that names no rule (Y122), names one that does not fire on the entry (Y123) or that no
    entry may waive (Y124)."""
    waived: dict[tuple[str, str], tuple[int, int]] = {}
    found: list[Problem] = []
    for entry in entries:
        for i, item in enumerate(entry.ignore):
            path = f"{entry.id}.ignore[{i}].code"
            if item.code not in BY_CODE:
                message = f"no rule has the code {item.code} (glossary check --explain lists them)"
                found.append(Problem(file, item.line, path, ERROR, message, code="Y122"))
            elif item.code.startswith(NOT_WAIVABLE):
                message = f"{item.code} cannot be ignored: fix the problem instead"
                found.append(Problem(file, item.line, path, ERROR, message, code="Y124"))
            else:
                waived[(entry.id, item.code)] = (item.line, i)
    fired: set[tuple[str, str]] = set()
    for problem in problems:
        key = (owner(problem), problem.code)
        if problem.file == file and key in waived:
            fired.add(key)
        else:
            found.append(problem)
    for (ident, code), (line, i) in sorted(waived.items()):
        if (ident, code) not in fired:
            message = f"{code} does not fire on {ident} (any more): remove this ignore"
            path = f"{ident}.ignore[{i}].code"
            found.append(Problem(file, line, path, WARNING, message, code="Y123"))
    return found
