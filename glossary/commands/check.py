"""``glossary check``: every problem of the project, chosen by code (``--select``,
``--ignore``); ``--explain CODE`` prints a rule\'s page."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from glossary.commands.common import BASE, CORPUS, TERMS, echo, print_problems, summary_line
from glossary.problems import dump_json

if TYPE_CHECKING:
    from glossary.cache import IndexCache


@click.command()
@TERMS
@CORPUS
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
)
@click.option("--strict", is_flag=True, help="Warnings fail the check too.")
@click.option(
    "--select",
    metavar="CODES",
    help="Report only these rules (codes or their starts, comma-separated: Y2,Y305).",
)
@click.option("--ignore", metavar="CODES", help="Report none of these rules (as --select).")
@click.option(
    "--explain", metavar="CODE", help="Print the page of a rule (Y201 or quote-not-found) and stop."
)
@BASE
@click.pass_obj
def check(
    cache: IndexCache,
    terms: Path,
    corpus: Path,
    fmt: str,
    strict: bool,
    select: str | None,
    ignore: str | None,
    explain: str | None,
    base: str | None,
) -> None:
    """Verify every entry and every quoted passage against the corpus."""
    from glossary.check import check_project
    from glossary.rules.docs import explain as page
    from glossary.rules.select import chosen, parse_codes

    if explain is not None:
        echo(page(explain), nl=False)
        return
    selected, ignored = parse_codes(select), parse_codes(ignore)
    # Text and annotations need only the problems: a run whose every input is unchanged reuses the
    # last one's (JSON lists every locus, so it is always checked afresh). The choice of codes is
    # made on what the run found, so a reused run serves every choice.
    report = check_project(terms, corpus, cache=cache, reuse=fmt != "json", base=base)
    for name in ("problems", "notes"):
        kept = [p for p in getattr(report, name) if chosen(p, selected, ignored)]
        setattr(report, name, kept)
    if fmt == "json":
        echo(dump_json(report.to_json()), nl=False)
    else:
        print_problems(report.problems, github=fmt == "github")
        # Then the quotes that matched through variant folds (歩 for 步): not problems, but said.
        print_problems(report.notes, github=fmt == "github")
        echo(summary_line(report), err=fmt == "github")
    sys.exit(1 if report.failed(strict) else 0)
