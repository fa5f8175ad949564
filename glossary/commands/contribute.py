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
    from glossary.enrich.readings.lookup import Yinyi
    from glossary.retired import FILENAME, load_retired

    entries = read_entries(terms)
    # Retired ids are never used again; a broken retired.yaml is glossary check's to report.
    retired_path = terms.parent / FILENAME
    retired = load_retired(retired_path, entries)[0] if retired_path.is_file() else ()
    index = open_index(corpus) if quote else None
    yinyi = None
    if index is None and rite:
        from glossary.corpus import load_corpus

        yinyi = Yinyi.of(load_corpus(corpus))  # the 儀禮音義's notes for yinyi: no index needed
    made = new_entry(
        term,
        category,
        entries,
        index,
        quote,
        rite,
        append_to=terms if append else None,
        occurrence=occurrence,
        retired=retired,
        files=(str(terms), str(retired_path)),
        yinyi=yinyi,
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
    diff = format_file(terms, check_only, rewrites, cache)
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
@click.option("--details", is_flag=True, help="Each changed field as a word-level diff.")
@click.option(
    "--format",
    "form",
    type=click.Choice(["text", "markdown", "ids"]),
    help="--details as text (default) or markdown (a job summary); ids: those to preview.",
)
def changelog(old: str, new: str, details: bool, form: str | None) -> None:
    """Added, changed and removed entries between two terms files (paths, REV or REV:path in git)."""
    from glossary.contribute.changelog import changelog as notes

    echo(notes(old, new, Path.cwd(), details, form), nl=False)


@click.command()
@click.argument("entry_ids", nargs=-1, required=True, type=TEXT)
@TERMS
@CORPUS
@click.option(
    "--out", type=click.Path(path_type=Path), help="HTML file to write (default preview-ID.html)."
)
@click.option("--folder", type=click.Path(path_type=Path), help="Write preview-ID.html there.")
@click.option(
    "--png",
    is_flag=True,
    help="Also write a PNG of each card (front, back) and of the printed entry (Chromium).",
)
@click.pass_obj
def preview(
    cache: IndexCache,
    entry_ids: tuple[str, ...],
    terms: Path,
    corpus: Path,
    out: Path | None,
    folder: Path | None,
    png: bool,
) -> None:
    """Render each ENTRY_ID's cards (front and back of every card type) and printed entry on a page."""
    from glossary.contribute.preview import write_preview, write_previews

    if out is not None and (folder is not None or len(entry_ids) > 1):
        raise click.UsageError("--out names the page of one ID; use --folder for several")
    written = (
        write_preview(terms, corpus, entry_ids[0], out, png, cache=cache)
        if folder is None and len(entry_ids) == 1
        else write_previews(terms, corpus, entry_ids, folder or Path("."), png, cache=cache)
    )
    for path in written:
        echo(f"wrote {path}")
