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
from glossary.problems import MAX_PROBLEMS, dump_json, safe_output

if TYPE_CHECKING:
    from glossary.cache import IndexCache
    from glossary.check import Report
    from glossary.index import CorpusIndex
    from glossary.model import Entry


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


def _summary(report: Report) -> str:
    errors = sum(1 for p in report.problems if p.severity == "error")
    warnings = len(report.problems) - errors
    return (
        f"{report.total_terms} terms, {report.citations} citations, {report.verified} verified; "
        f"{errors} error(s), {warnings} warning(s)"
    )


def _print_problems(problems: list, github: bool = False, err: bool = False) -> None:
    """The first :data:`MAX_PROBLEMS` problems, then how many more there are."""
    for problem in problems[:MAX_PROBLEMS]:
        if github:
            # A workflow command on purpose: Problem.to_github escapes what it holds itself.
            click.echo(problem.to_github(), err=err)
        else:
            echo(str(problem), err=err)
    if len(problems) > MAX_PROBLEMS:
        echo(f"… and {len(problems) - MAX_PROBLEMS:,} more problem(s)", err=err)


def _entries(terms: Path) -> list[Entry]:
    """The valid entries of the terms file; its problems are printed (a command may go on without them)."""
    from glossary.validate import load_entries

    entries, problems = load_entries(terms)
    _print_problems(problems, err=True)
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


def _index(corpus: Path) -> CorpusIndex:
    # The cache the group set up for this run (--no-cache: none).
    from glossary.enrich.witness import attach

    cache: IndexCache = click.get_current_context().obj
    return attach(cache.open(corpus), cache)


@cli.command()
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
@BASE
@click.pass_obj
def check(
    cache: IndexCache, terms: Path, corpus: Path, fmt: str, strict: bool, base: str | None
) -> None:
    """Verify every entry and every quoted passage against the corpus."""
    from glossary.check import check_project

    # Text and annotations need only the problems: a run whose every input is unchanged reuses the
    # last one's (JSON lists every locus, so it is always checked afresh).
    report = check_project(terms, corpus, cache=cache, reuse=fmt != "json", base=base)
    if fmt == "json":
        echo(dump_json(report.to_json()), nl=False)
    else:
        _print_problems(report.problems, github=fmt == "github")
        # Then the quotes that matched through variant folds (歩 for 步): not problems, but said.
        _print_problems(report.notes, github=fmt == "github")
        echo(_summary(report), err=fmt == "github")
    sys.exit(1 if report.failed(strict) else 0)


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

    index = _index(corpus)
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

    found = align.aligned(_index(corpus))
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
    _print_problems(report.problems, err=True)
    if report.failed():
        echo(f"build failed, nothing written: {_summary(report)}", err=True)
        sys.exit(1)
    echo(f"built {out}/: {_summary(report)}")


@cli.command()
@click.argument("text", type=TEXT)
@TERMS
@click.option("--plain", is_flag=True, help="Syllables only, space-separated, with tone marks.")
def pinyin(text: str, terms: Path, plain: bool) -> None:
    """TEXT in pinyin, in the ritual readings of the glossary's entries (敦 duì, 拾 shè)."""
    from glossary.enrich.pinyin import ritual_pinyin

    echo(ritual_pinyin(text, _entries(terms), plain))


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
    """The most frequent words and characters of the rites that have no entry yet."""
    from glossary.enrich.coverage import coverage as uncovered

    result = uncovered(_entries(terms), _index(corpus), rites, layer, top)
    echo(f"Not yet in the glossary ({', '.join(result.rites)}; {layer}):")
    echo("words: " + "  ".join(f"{w} {n}" for w, n in result.words))
    echo("characters: " + "  ".join(f"{c} {n}" for c, n in result.chars))


@cli.command()
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
        _entries(terms),
        _index(corpus) if quote else None,
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


@cli.command()
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


@cli.command()
@click.argument("old")
@click.argument("new")
def changelog(old: str, new: str) -> None:
    """Added, changed and removed entries between two terms files (paths, or REV:path in git)."""
    from glossary.contribute.changelog import changelog as notes

    echo(notes(old, new, Path.cwd()), nl=False)


@cli.command()
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
        gaps = variant_gaps(_index(corpus).corpus)
        echo(dump_json(gaps), nl=False) if as_json else echo("\n".join(variant_lines(gaps)))
        return
    data = summary(load_corpus(corpus))
    if as_json:
        echo(dump_json(data), nl=False)
    else:
        for line in text_lines(data):
            echo(line)


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
