"""What every command shares: how it prints, the options of the terms file and corpus, the
entries and index it reads."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from glossary.problems import MAX_PROBLEMS, safe_output

if TYPE_CHECKING:
    from glossary.cache import IndexCache
    from glossary.index import CorpusIndex
    from glossary.model import Entry
    from glossary.report import Report


def echo(message: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Every line a command prints: control and bidi characters escaped, CI workflow commands
    (``::error``, ``##[error]``) neutralised, whatever the text holds (``problems.safe_output``)."""
    click.echo(safe_output(message), err=err, nl=nl)


TERMS = click.option(
    "--terms",
    default="terms.yaml",
    show_default=True,
    type=click.Path(path_type=Path),
    help="The glossary file.",
)
CORPUS = click.option(
    "--corpus",
    default="corpus",
    show_default=True,
    type=click.Path(path_type=Path),
    help="The corpus folder (with manifest.yaml).",
)


class Utf8Text(click.ParamType):
    """Text typed on the command line (a passage, a term, a rite), read as UTF-8 also where the C
    locale left it as undecodable bytes (surrogate escapes), which would then match nothing.
    (Paths are left as the system decoded them: that is how the system opens them again.)"""

    name = "text"

    def convert(self, value: object, param: object, ctx: object) -> str:
        import os

        text = str(value)
        if any("\udc80" <= ch <= "\udcff" for ch in text):
            try:
                return os.fsencode(text).decode("utf-8")
            except UnicodeDecodeError:
                pass  # not UTF-8 either: left for the command to refuse
        return text


TEXT = Utf8Text()


class CategoryChoice(click.Choice):
    """The vocabulary's category ids, read only when a command needs them (not for ``--help``)."""

    def __init__(self) -> None:
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]
        from glossary.vocab import vocabulary

        return vocabulary().category_ids


def summary_line(report: Report) -> str:
    errors = sum(1 for p in report.problems if p.severity == "error")
    warnings = len(report.problems) - errors
    return (
        f"{report.total_terms} terms, {report.citations} citations, {report.verified} verified; "
        f"{errors} error(s), {warnings} warning(s)"
    )


def print_problems(problems: list, github: bool = False, err: bool = False) -> None:
    """The first :data:`MAX_PROBLEMS` problems, then how many more there are."""
    for problem in problems[:MAX_PROBLEMS]:
        if github:
            # A workflow command on purpose: Problem.to_github escapes what it holds itself.
            click.echo(problem.to_github(), err=err)
        else:
            echo(str(problem), err=err)
    if len(problems) > MAX_PROBLEMS:
        echo(f"… and {len(problems) - MAX_PROBLEMS:,} more problem(s)", err=err)


def read_entries(terms: Path) -> list[Entry]:
    """The valid entries of the terms file; its problems are printed (a command may go on without them)."""
    from glossary.validate import load_entries

    entries, problems = load_entries(terms)
    print_problems(problems, err=True)
    if problems:
        echo(
            f"{terms}: {len(problems)} problem(s) above; entries with errors are left out "
            "(run glossary check)",
            err=True,
        )
    return entries


#: The revision whose Anki ledger this one must extend (see glossary.published).
BASE = click.option(
    "--base",
    metavar="REV",
    help="Check the Anki ledger against the one of REV's merge base with HEAD (for a pull "
    "request: origin/main); default: the ledger committed at HEAD.",
)


def open_index(corpus: Path) -> CorpusIndex:
    # The cache the group set up for this run (--no-cache: none).
    from glossary.enrich.witness import attach

    cache: IndexCache = click.get_current_context().obj
    return attach(cache.open(corpus), cache)
