"""The ``glossary`` command: click only. Each command parses its options, calls one function, prints.

Commands import what they need when they run, so ``glossary --help`` starts fast. Failures a
user can fix are :class:`~glossary.errors.GlossaryError` (click prints them, exit 1).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from glossary import DISTRIBUTION
from glossary.commands import check as check_command
from glossary.commands import contribute
from glossary.commands.common import (
    BASE,
    CORPUS,
    TERMS,
    TEXT,
    echo,
    open_index,
    print_problems,
    read_entries,
    summary_line,
)
from glossary.problems import dump_json

if TYPE_CHECKING:
    from glossary.cache import IndexCache


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name=DISTRIBUTION, prog_name="glossary")
@click.option(
    "--no-cache",
    is_flag=True,
    help="Read the corpus afresh instead of taking its index from the cache "
    "(kept in $GLOSSARY_CACHE_DIR, else ~/.cache/yili-glossary).",
)
@click.pass_context
def cli(ctx: click.Context, no_cache: bool) -> None:
    """Check, locate and build the Yili glossary."""
    from glossary.cache import IndexCache

    # The one cache every command's corpus reading goes through (see glossary.cache).
    ctx.obj = IndexCache(None) if no_cache else IndexCache.from_environment()


@cli.command()
@click.argument("passage", type=TEXT)
@CORPUS
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of occurrences.")
@click.pass_obj
def locate(cache: IndexCache, passage: str, corpus: Path, as_json: bool) -> None:
    """Every place PASSAGE stands in the corpus (any script; punctuation ignored).

    Under a passage that has a modern rendering, the rendering; under a place in the modern
    rendering, the passage of the original it renders.
    """
    from glossary.citations import locate as find
    from glossary.enrich import align_views as align
    from glossary.enrich import witness

    index = open_index(corpus)
    found = find(index, passage)
    # Aligned only when a place found is in a rendering or its original.
    alignments = align.aligned(index) if align.concerns(index.corpus, found.loci) else ()
    if as_json:
        keys = (
            "work",
            "title",
            "file",
            "juan",
            "page",
            "section",
            "layer",
            "page_id",
            "rite",
            "commentator",
            "speakers",
            "line",
            "text",
            "context",
            "placeholders",
        )
        echo(
            dump_json(
                [
                    {
                        **{k: locus.to_json()[k] for k in keys},
                        "folds": [fold.to_json() for fold in folds],
                        "warning": warning or None,
                        **{
                            k: v for k, v in locus.to_json().items() if k in ("received", "repeats")
                        },
                        **align.locus_json(alignments, locus),
                    }
                    for locus, folds, warning in zip(found.loci, found.folds, found.warnings)
                ]
            ),
            nl=False,
        )
    else:
        for number, (locus, folds, warning) in enumerate(
            zip(found.loci, found.folds, found.warnings), 1
        ):
            echo(f"{number}. {locus.label()}")
            if locus.page_id:
                echo(f"   page id: {locus.page_id}")
            echo(f"   …{locus.context}…")
            if locus.placeholders:
                echo("   (matched through 〇 placeholders: any one character)")
            for fold in folds:
                echo(f"   fold: {fold.label()}")
            if warning:
                echo(f"   warning: {warning}")
            for line in align.locus_lines(alignments, locus):
                echo(f"   {line}")
            for line in witness.locus_lines(locus):
                echo(f"   {line}")
        if not found.loci:
            echo(f"not found: {passage}", err=True)
            for suggestion in found.suggestions:
                echo(f"  {suggestion.hint()}", err=True)
    sys.exit(0 if found.loci else 1)


@cli.command(name="align")
@CORPUS
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print a JSON list: each paragraph of the rendering with the passages it renders.",
)
@click.pass_obj
def align_command(cache: IndexCache, corpus: Path, as_json: bool) -> None:
    """The modern rendering paragraph by paragraph, each with the passages of the original it renders."""
    from glossary.enrich import align_views as align

    found = align.aligned(open_index(corpus))
    if as_json:
        echo(dump_json(align.as_json(found)), nl=False)
    else:
        for line in align.as_text(found):
            echo(line)


@cli.command()
@TERMS
@CORPUS
@click.option(
    "--out",
    default="dist",
    show_default=True,
    type=click.Path(path_type=Path),
    help="Output folder.",
)
@click.option(
    "--sheet",
    "sheets",
    multiple=True,
    metavar="RITE",
    type=TEXT,
    help="Also write a study sheet for RITE (any rite the glossary lists, e.g. 乡射礼; repeatable; "
    "`all`: one for every rite).",
)
@click.option(
    "--pdf", is_flag=True, help="Also print every HTML output to PDF with headless Chromium."
)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option(
    "--record-ledger",
    is_flag=True,
    help="Also write anki-ledger.json (what a release commits); a plain build only reads it.",
)
@BASE
@click.pass_obj
def build(
    cache: IndexCache,
    terms: Path,
    corpus: Path,
    out: Path,
    sheets: tuple[str, ...],
    pdf: bool,
    paper: str,
    record_ledger: bool,
    base: str | None,
) -> None:
    """Check, then write every output (decks, glossary.html, terms.json) to OUT; nothing is written on failure."""
    from glossary.build import build as run_build
    from glossary.render import RenderOptions

    try:
        report = run_build(
            terms,
            corpus,
            out,
            RenderOptions(paper=paper, sheets=sheets, pdf=pdf),
            cache=cache,
            base=base,
            record=record_ledger,
        )
    except KeyboardInterrupt:
        # The exchange holds Ctrl-C back until the folder and the ledger have both moved.
        echo(
            f"glossary: interrupted; {out}/ and the Anki ledger are as they were, or both new",
            err=True,
        )
        sys.exit(130)
    print_problems(report.problems, err=True)
    if report.failed():
        echo(f"build failed, nothing written: {summary_line(report)}", err=True)
        sys.exit(1)
    echo(f"built {out}/: {summary_line(report)}")


@cli.command()
@click.argument("text", type=TEXT)
@TERMS
@click.option("--plain", is_flag=True, help="Syllables only, space-separated, with tone marks.")
def pinyin(text: str, terms: Path, plain: bool) -> None:
    """TEXT in pinyin, in the ritual readings of the glossary's entries (敦 duì, 拾 shè)."""
    from glossary.enrich.pinyin import ritual_pinyin

    echo(ritual_pinyin(text, read_entries(terms), plain))


@cli.command()
@TERMS
@CORPUS
@click.option(
    "--rite",
    "rites",
    multiple=True,
    metavar="RITE",
    type=TEXT,
    help="A rite to count in (repeatable; default: every rite the glossary lists).",
)
@click.option(
    "--layer",
    type=click.Choice(["classic", "commentary", "text"]),
    default="classic",
    show_default=True,
)
@click.option("--top", type=click.IntRange(1, 1000), default=30, show_default=True)
def coverage(terms: Path, corpus: Path, rites: tuple[str, ...], layer: str, top: int) -> None:
    """The most frequent words and characters of the rites that have no entry yet (the text cut
    at the glossary's own headwords, then into the words that stand apart or that a commentary
    explains)."""
    from glossary.enrich.coverage import coverage as uncovered

    result = uncovered(read_entries(terms), open_index(corpus), rites, layer, top)
    echo(f"Not yet in the glossary ({', '.join(result.rites)}; {layer}):")
    echo("words: " + "  ".join(f"{w} {n}" for w, n in result.words))
    echo("characters: " + "  ".join(f"{c} {n}" for c, n in result.chars))
    if glossed := [w for w, _ in result.words if w in result.defined]:
        echo("words a commentary explains (X謂, X猶): " + " ".join(glossed))


@cli.command(name="corpus")
@CORPUS
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--variants",
    is_flag=True,
    help="List instead every character of the corpus that is neither a standard form nor folded "
    "by any table (old forms a quote in standard characters cannot match), with counts.",
)
def corpus_info(corpus: Path, as_json: bool, variants: bool) -> None:
    """List the corpus texts, their files and layers, and defects found in the text."""
    from glossary.corpus import load_corpus
    from glossary.corpus.summary import summary, text_lines, variant_gaps, variant_lines

    if variants:
        gaps = variant_gaps(open_index(corpus).corpus)
        echo(dump_json(gaps), nl=False) if as_json else echo("\n".join(variant_lines(gaps)))
        return
    data = summary(load_corpus(corpus))
    if as_json:
        echo(dump_json(data), nl=False)
    else:
        for line in text_lines(data):
            echo(line)


cli.add_command(check_command.check)
for command in (contribute.new, contribute.fmt, contribute.changelog, contribute.preview):
    cli.add_command(command)


def _add_commands() -> None:
    """Commands that live in modules of their own (click only at import)."""
    from glossary.release.command import release

    cli.add_command(release)


_add_commands()


def main() -> None:
    """Console entry point: user errors never end in a traceback."""
    _prepare_process()
    try:
        cli(prog_name="glossary")
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - last line of defence, reported plainly
        echo(
            f"glossary: internal error: {type(exc).__name__}: {exc} (please report this)", err=True
        )
        sys.exit(2)


def _prepare_process() -> None:
    """What every run needs from its process, whatever the locale, terminal or signal.

    - Output a terminal cannot show (a Latin-1 one) is written as ``\\u9109``, not a crash.
    - SIGTERM unwinds like Ctrl-C, so temporary files are removed on the way out.
    """
    import os
    import signal

    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")

    def terminate(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    if os.name == "posix":
        signal.signal(signal.SIGTERM, terminate)


if __name__ == "__main__":
    main()
