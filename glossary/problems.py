"""Problems found in user data, and the three ways of reporting them."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass

ERROR = "error"
WARNING = "warning"
#: Not a problem: what a check found worth saying (the variant folds a verified quote needed).
NOTE = "note"
#: Longer messages (a quote of millions of characters, say) are cut when shown.
MAX_MESSAGE = 1000
#: Characters that would move a terminal's cursor, recolour its text or reorder it (bidi
#: controls): shown as ``\u202e`` instead, so a value in a message can only ever be read.
UNSAFE = re.compile(
    r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]"
)
#: In a line of text output a newline is unsafe too: a value (an entry id in a problem's path, say)
#: must not start a line of its own, such as a fake "0 error(s)" summary. (JSON keeps its own
#: newlines between values and escapes those inside strings, so dump_json uses UNSAFE.)
UNSAFE_IN_LINE = re.compile(UNSAFE.pattern[:-1] + r"\n]")


#: What a CI log reads as a command rather than text: GitHub Actions takes a line whose first
#: characters (after spaces) are ``::`` as a workflow command (``::error``, ``::stop-commands::``,
#: ``::add-mask::``), and ``##[`` anywhere in a line as an old-style one (``##[error]``). A colon
#: or bracket of such a sequence is shown escaped, so data can only ever be read as data.
WORKFLOW_COMMAND = re.compile(r"^(\s*):(?=:)|(?<=##)\[", re.MULTILINE)


def printable(text: str, limit: int | None = MAX_MESSAGE) -> str:
    """``text`` safe for a terminal and a CI log: unsafe characters escaped (newlines too),
    workflow commands neutralised, cut after ``limit`` characters (None: never)."""
    if limit is not None and len(text) > limit:
        text = f"{text[:limit]}…({len(text):,} characters)"
    return ci_safe(UNSAFE_IN_LINE.sub(_escape, text))


def ci_safe(text: str) -> str:
    """``text`` (lines of output) with every workflow-command sequence neutralised (see
    :data:`WORKFLOW_COMMAND`) and nothing else changed; valid JSON stays valid JSON."""
    return WORKFLOW_COMMAND.sub(lambda m: (m.group(1) or "") + _escape_char(m.group()[-1]), text)


def safe_output(text: str) -> str:
    """Lines to print: unsafe characters escaped but line breaks kept, workflow commands
    neutralised. Every line a command prints goes through it (``cli.echo``)."""
    return ci_safe(UNSAFE.sub(_escape, text))


def _escape(match: re.Match[str]) -> str:
    return _escape_char(match.group())


def _escape_char(ch: str) -> str:
    return f"\\u{ord(ch):04x}"


@dataclass(frozen=True, order=True)
class Problem:
    """One problem, placed at a file, line and data path (``bi.citations[0].quote``)."""

    file: str
    line: int
    path: str
    severity: str
    message: str
    hints: tuple[str, ...] = ()
    #: The rule's code (``Y201``, see :mod:`glossary.rules.codes`); shown before the message.
    code: str = ""

    @property
    def coded(self) -> str:
        """The message after its code and name: ``Y201 quote-not-found: not found …``."""
        from glossary.rules.codes import name_of

        if not self.code:
            return self.message
        return f"{self.code} {name_of(self.code)}: {self.message}"

    def __str__(self) -> str:
        file, path = printable(self.file), printable(self.path)
        where = f"{file}:{self.line}:" if self.line else f"{file}:"
        head = f"{where} {path}: " if path else f"{where} "
        label = {ERROR: "", NOTE: "note: "}.get(self.severity, "warning: ")
        lines = [f"{head}{label}{printable(self.coded)}"]
        lines.extend(f"    {printable(hint)}" for hint in self.hints)
        return "\n".join(lines)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["message"] = _cut(self.message)
        data["hints"] = [_cut(hint) for hint in self.hints]
        return data

    def to_github(self) -> str:
        """A GitHub Actions workflow command, shown as an annotation on the pull request."""
        level = {ERROR: "error", NOTE: "notice"}.get(self.severity, "warning")
        message = (
            printable(self.coded)
            if not self.path
            else f"{printable(self.path)}: {printable(self.coded)}"
        )
        if self.hints:
            message += "\n" + "\n".join(printable(hint) for hint in self.hints)
        message = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        file = printable(self.file).replace("%", "%25").replace(",", "%2C").replace(":", "%3A")
        location = f"file={file}" + (f",line={self.line}" if self.line else "")
        return f"::{level} {location}::{message}"


def _cut(text: str) -> str:
    # JSON escapes control characters itself; only the length needs bounding.
    return text if len(text) <= MAX_MESSAGE else f"{text[:MAX_MESSAGE]}…({len(text):,} characters)"


def is_failure(problem: Problem, strict: bool) -> bool:
    """Errors always fail a run; warnings fail it under ``--strict``; notes never do."""
    return problem.severity == ERROR or (strict and problem.severity != NOTE)


#: At most this many problems are listed in one run; the rest are counted ("… and 12 more").
MAX_PROBLEMS = 1000


def dump_json(data: object) -> str:
    """Stable JSON: same data, same bytes (bidi and line-separator characters escaped, as JSON allows)."""
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    return safe_output(text)


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """`` (did you mean 'gloss'?)`` or ''."""
    from rapidfuzz import fuzz, process  # only a file with a mistake needs it

    best = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=60)
    return f" (did you mean {best[0]!r}?)" if best else ""
