"""The contributor\'s commands: ``new``, ``fmt``, ``changelog``, ``preview``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from glossary.commands.common import (
    CORPUS,
    TERMS,
    TEXT,
    CategoryChoice,
    echo,
    open_index,
    read_entries,
)

if TYPE_CHECKING:
    from glossary.cache import IndexCache


@click.command()
@click.argument("term", type=TEXT)
@click.option("--category", type=CategoryChoice(), required=True)
@click.option(
    "--quote", type=TEXT, help="A passage that contains the term: its locus is filled in."
)
@click.option("--rite", type=TEXT, help="The rite (e.g. 乡射礼); default: the quote's.")
@click.option(
    "--append", is_flag=True, help="Append the scaffold to the terms file instead of printing it."
)
@click.option(
    "--occurrence",
    type=click.IntRange(1),
    metavar="N",
    help="Cite the quote's Nth occurrence, as glossary locate numbers them (default: the primary "
    "text's, the classic first).",
)
@TERMS
@CORPUS
def new(
    term: str,
    category: str,
    quote: str | None,
    rite: str | None,
    append: bool,
    occurrence: int | None,
    terms: Path,
    corpus: Path,
) -> None:
    """Scaffold an entry for TERM: next free id, a pinyin suggestion, the locus of a quote."""
    from glossary.contribute.new import new_entry

    made = new_entry(
        term,
        category,
        read_entries(terms),
        open_index(corpus) if quote else None,
        quote,
        rite,
        append_to=terms if append else None,
        occurrence=occurrence,
    )
    for line in made.listing():
        echo(line, err=True)
    if append:
        echo(f"appended to {terms}; replace every TODO, then run glossary check")
    else:
        echo(made.text, nl=False)


@click.command()
@TERMS
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing: print the lines that would change (a diff) and exit 1 if any would.",
)
@click.option(
    "--quotes",
    is_flag=True,
    help="Also rewrite every verified quote to the exact text of the passage it resolves to "
    "(script, punctuation, old forms), as the corpus prints it.",
)
@CORPUS
@click.pass_obj
def fmt(cache: IndexCache, terms: Path, check_only: bool, quotes: bool, corpus: Path) -> None:
    """Rewrite the terms file in canonical key order and layout, keeping comments."""
    from glossary.contribute.fmt import format_file, source_quotes

    rewrites = None
    if quotes:
        from glossary.check import check_project

        rewrites = source_quotes(check_project(terms, corpus, cache=cache))
    diff = format_file(terms, check_only, rewrites)
    if not diff:
        echo(
            f"{terms}: already formatted"
            + (", every quote as its source prints it" if quotes else "")
        )
    elif check_only:
        echo(diff, nl=False)
        echo(f"{terms}: would be reformatted (run glossary fmt{' --quotes' if quotes else ''})")
        sys.exit(1)
    else:
        said = f", {len(rewrites)} quote(s) written as their source prints them" if rewrites else ""
        echo(f"{terms}: formatted{said}")


@click.command()
@click.argument("old")
@click.argument("new")
def changelog(old: str, new: str) -> None:
    """Added, changed and removed entries between two terms files (paths, or REV:path in git)."""
    from glossary.contribute.changelog import changelog as notes

    echo(notes(old, new, Path.cwd()), nl=False)


@click.command()
@click.argument("entry_id", type=TEXT)
@TERMS
@CORPUS
@click.option(
    "--out", type=click.Path(path_type=Path), help="HTML file to write (default preview-ID.html)."
)
@click.option("--png", is_flag=True, help="Also write a PNG of the page through headless Chromium.")
@click.pass_obj
def preview(
    cache: IndexCache, entry_id: str, terms: Path, corpus: Path, out: Path | None, png: bool
) -> None:
    """Render ENTRY_ID's cards (front and back of every card type) and its printed entry on one page."""
    from glossary.contribute.preview import write_preview

    for path in write_preview(terms, corpus, entry_id, out, png, cache=cache):
        echo(f"wrote {path}")
