"""The ``glossary release`` command (click only; the work is :func:`glossary.release.make.make_release`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from glossary.commands.common import CORPUS, TERMS, echo

if TYPE_CHECKING:
    from glossary.cache import IndexCache


@click.command()
@TERMS
@CORPUS
@click.option(
    "--out",
    default="release",
    show_default=True,
    type=click.Path(path_type=Path),
    help="The release folder (replaced whole).",
)
@click.option(
    "--tag",
    help="The tag the release is for (a workflow's pushed tag): it must be v<version>, the "
    "version pyproject.toml holds, and name HEAD.",
)
@click.option(
    "--url",
    help="Where the releases are listed, named by the decks and the book as the place of the next "
    "one; default: $GITHUB_SERVER_URL/$GITHUB_REPOSITORY/releases.",
)
@click.option(
    "--no-pdf", is_flag=True, help="Leave the PDFs out (a quick look; never a published release)."
)
@click.pass_obj
def release(
    cache: IndexCache,
    terms: Path,
    corpus: Path,
    out: Path,
    tag: str | None,
    url: str | None,
    no_pdf: bool,
) -> None:
    """From a clean checkout of the commit tagged v<version>: every output (PDFs on A4 and
    Letter, a study sheet per rite), CHANGES.md, IMPORT.md and SHA256SUMS, into OUT."""
    from glossary.release.make import make_release, releases_url

    files = make_release(
        terms,
        corpus,
        out,
        url=releases_url(url),
        tag=tag,
        pdf=not no_pdf,
        cache=cache,
    )
    echo(f"released {out}/: {len(files)} files, checksums in SHA256SUMS")
