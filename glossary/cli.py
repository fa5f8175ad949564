"""The ``glossary`` command: a thin layer over check, locate and build.

Commands import what they need when they run, so ``glossary --help`` starts fast.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from glossary import __version__
from glossary.problems import dump_json

if TYPE_CHECKING:
    from glossary.cache import IndexCache
    from glossary.corpus import Corpus
    from glossary.index import CorpusIndex

TERMS = click.option("--terms", default="terms.yaml", show_default=True, type=click.Path(path_type=Path),
                     help="The glossary file.")
CORPUS = click.option("--corpus", default="corpus", show_default=True, type=click.Path(path_type=Path),
                      help="The corpus folder (with manifest.yaml).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="glossary")
@click.option("--no-cache", is_flag=True,
              help="Read the corpus afresh instead of taking its index from the cache "
                   "(kept in $GLOSSARY_CACHE_DIR, else ~/.cache/yili-glossary).")
@click.pass_context
def cli(ctx: click.Context, no_cache: bool) -> None:
    """Check, locate and build the Yili glossary."""
    from glossary.cache import IndexCache

    # The one cache every command's corpus reading goes through (see glossary.cache).
    ctx.obj = IndexCache(None) if no_cache else IndexCache.from_environment()


def _summary(report) -> str:
    errors = sum(1 for p in report.problems if p.severity == "error")
    warnings = len(report.problems) - errors
    return (f"{report.total_terms} terms, {report.citations} citations, {report.verified} verified; "
            f"{errors} error(s), {warnings} warning(s)")


def _print_problems(report, fmt: str) -> None:
    if fmt == "json":
        click.echo(dump_json(report.to_json()), nl=False)
        return
    for problem in report.problems:
        click.echo(problem.to_github() if fmt == "github" else str(problem))
    click.echo(_summary(report), err=fmt == "github")


@cli.command()
@TERMS
@CORPUS
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github"]), default="text", show_default=True)
@click.option("--strict", is_flag=True, help="Warnings fail the check too.")
@click.pass_obj
def check(cache: "IndexCache", terms: Path, corpus: Path, fmt: str, strict: bool) -> None:
    """Verify every entry and every quoted passage against the corpus."""
    from glossary.check import check_project

    report = check_project(terms, corpus, cache=cache)
    _print_problems(report, fmt)
    sys.exit(1 if report.failed(strict) else 0)


@cli.command()
@click.argument("passage")
@CORPUS
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of occurrences.")
def locate(passage: str, corpus: Path, as_json: bool) -> None:
    """Every place PASSAGE stands in the corpus (any script; punctuation ignored)."""
    from glossary.normalize import normalize_with_map

    from glossary.citations import MAX_QUOTE

    key, quote_index = normalize_with_map(passage)
    if len(key) > MAX_QUOTE:
        raise click.ClickException(f"a passage of {len(key):,} characters is longer than any we look for ({MAX_QUOTE:,})")
    index = _index(corpus)
    loci = [index.locus(hit) for hit in index.find(key)]
    if as_json:
        keys = ("work", "title", "file", "juan", "page", "section", "layer", "page_id", "rite",
                "commentator", "line", "text", "context", "placeholders")
        click.echo(dump_json([{k: locus.to_json()[k] for k in keys} for locus in loci]), nl=False)
    else:
        for number, locus in enumerate(loci, 1):
            click.echo(f"{number}. {locus.label()}")
            if locus.page_id:
                click.echo(f"   page id: {locus.page_id}")
            click.echo(f"   …{locus.context}…")
            if locus.placeholders:
                click.echo("   (matched through 〇 placeholders: any one character)")
        if not loci:
            click.echo(f"not found: {passage}", err=True)
            for suggestion in index.suggest(key, passage, quote_index):
                click.echo(f"  {suggestion.hint()}", err=True)
    sys.exit(0 if loci else 1)


@cli.command()
@TERMS
@CORPUS
@click.option("--out", default="dist", show_default=True, type=click.Path(path_type=Path), help="Output folder.")
@click.option("--sheet", "sheets", multiple=True, metavar="RITE",
              help="Also write a study sheet for RITE (乡射礼, 士虞礼, 特牲馈食礼; repeatable).")
@click.option("--pdf", is_flag=True, help="Also print every HTML output to PDF with headless Chromium.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.pass_obj
def build(cache: "IndexCache", terms: Path, corpus: Path, out: Path, sheets: tuple[str, ...], pdf: bool,
          paper: str) -> None:
    """Check, then write every output (decks, glossary.html, terms.json) to OUT; nothing is written on failure."""
    from glossary.build import BuildError, BuildOptions
    from glossary.build import build as run_build

    try:
        report = run_build(terms, corpus, out, BuildOptions(paper=paper, sheets=sheets, pdf=pdf), cache=cache)
    except BuildError as exc:
        raise click.ClickException(str(exc)) from None
    for problem in report.problems:
        click.echo(str(problem), err=True)
    if report.failed():
        click.echo(f"build failed, nothing written: {_summary(report)}", err=True)
        sys.exit(1)
    click.echo(f"built {out}/: {_summary(report)}")


@cli.command()
@click.argument("text")
@TERMS
@click.option("--plain", is_flag=True, help="Syllables only, space-separated, with tone marks.")
def pinyin(text: str, terms: Path, plain: bool) -> None:
    """TEXT in pinyin, in the ritual readings of the glossary's entries (敦 duì, 拾 shè)."""
    from glossary.enrich import pinyin as ritual
    from glossary.load import load_yaml
    from glossary.validate import validate

    entries, _ = validate(load_yaml(terms), terms.parent)
    ritual.register(entries)
    click.echo(ritual.plain(text) if plain else ritual.annotated(text))


@cli.command()
@TERMS
@CORPUS
@click.option("--rite", "rites", multiple=True, default=("乡射礼", "士虞礼", "特牲馈食礼"), show_default=True,
              help="A rite to count in (repeatable).")
@click.option("--layer", type=click.Choice(["classic", "commentary", "text"]), default="classic", show_default=True)
@click.option("--top", type=click.IntRange(1, 1000), default=30, show_default=True)
def coverage(terms: Path, corpus: Path, rites: tuple[str, ...], layer: str, top: int) -> None:
    """The most frequent words and characters of the rites that have no entry yet."""
    from glossary.enrich.coverage import coverage as uncovered
    from glossary.load import load_yaml
    from glossary.validate import validate

    entries, _ = validate(load_yaml(terms), terms.parent)
    result = uncovered(entries, _index(corpus), rites, layer, top)
    click.echo(f"Not yet in the glossary ({', '.join(rites)}; {layer}):")
    click.echo("words: " + "  ".join(f"{w} {n}" for w, n in result.words))
    click.echo("characters: " + "  ".join(f"{c} {n}" for c, n in result.chars))


@cli.command()
@click.argument("term")
@click.option("--category", type=click.Choice(["object", "position", "action", "role"]), required=True)
@click.option("--quote", help="A passage that contains the term: its locus is filled in.")
@click.option("--rite", help="The rite (乡射礼, 士虞礼, 特牲馈食礼); default: the quote's.")
@click.option("--append", is_flag=True, help="Append the scaffold to the terms file instead of printing it.")
@TERMS
@CORPUS
def new(term: str, category: str, quote: str | None, rite: str | None, append: bool, terms: Path, corpus: Path) -> None:
    """Scaffold an entry for TERM: next free id, a pinyin suggestion, the locus of a quote."""
    from glossary.contribute.new import best_locus, scaffold
    from glossary.enrich import pinyin as ritual
    from glossary.load import load_yaml
    from glossary.validate import validate

    entries, _ = validate(load_yaml(terms), terms.parent)
    ritual.register(entries)
    locus = None
    if quote:
        from glossary.normalize import normalize_with_map

        index = _index(corpus)
        key, quote_index = normalize_with_map(quote)
        loci = [index.locus(hit) for hit in index.find(key)]
        if not loci:
            hints = [s.hint() for s in index.suggest(key, quote, quote_index)]
            raise click.ClickException("the quote is not in the corpus\n" + "\n".join(hints))
        locus = best_locus(loci)
    text = scaffold(term, category, entries, quote, locus, rite)
    if not append:
        click.echo(text, nl=False)
        return
    from glossary.build import write_file_atomically

    original = terms.read_bytes()
    write_file_atomically(terms, original.rstrip(b"\n") + b"\n\n" + text.encode("utf-8"))
    click.echo(f"appended to {terms}; fill in the TODOs, then run glossary check")


@cli.command()
@TERMS
@click.option("--check", "check_only", is_flag=True, help="Exit 1 if the file is not formatted; write nothing.")
def fmt(terms: Path, check_only: bool) -> None:
    """Rewrite the terms file in canonical key order and layout, keeping comments."""
    from glossary.build import write_file_atomically
    from glossary.contribute.fmt import format_text
    from glossary.load import load_bytes, load_yaml

    before = load_yaml(terms)
    if before.problems:
        for problem in before.problems:
            click.echo(str(problem), err=True)
        raise click.ClickException("fix the file's YAML problems first")
    text = terms.read_text(encoding="utf-8-sig")
    formatted = format_text(text)
    if formatted == text:
        click.echo(f"{terms}: already formatted")
        return
    if check_only:
        click.echo(f"{terms}: would be reformatted (run glossary fmt)")
        sys.exit(1)
    if load_bytes(formatted.encode("utf-8"), str(terms)).data != before.data:
        raise click.ClickException("formatting would change the data: nothing written (please report this)")
    write_file_atomically(terms, formatted.encode("utf-8"))
    click.echo(f"{terms}: formatted")


@cli.command()
@click.argument("old")
@click.argument("new")
def changelog(old: str, new: str) -> None:
    """Added, changed and removed entries between two terms files (paths, or REV:path in git)."""
    import yaml

    from glossary.contribute.changelog import compare, markdown, read_version

    try:
        texts = [read_version(spec, Path.cwd()) for spec in (old, new)]
        data = [yaml.safe_load(text) or [] for text in texts]
    except (FileNotFoundError, yaml.YAMLError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(markdown(compare(data[0], data[1]), old, new), nl=False)


@cli.command()
@click.argument("entry_id")
@TERMS
@CORPUS
@click.option("--out", type=click.Path(path_type=Path), help="HTML file to write (default preview-ID.html).")
@click.option("--png", is_flag=True, help="Also write a PNG of the page through headless Chromium.")
@click.pass_obj
def preview(cache: "IndexCache", entry_id: str, terms: Path, corpus: Path, out: Path | None, png: bool) -> None:
    """Render ENTRY_ID's cards (front and back of every card type) and its printed entry on one page."""
    from glossary.build import gather, write_file_atomically
    from glossary.check import check_project
    from glossary.contribute.preview import preview as render_preview
    from glossary.render.pdf import PdfError, screenshot

    report = check_project(terms, corpus, cache=cache)
    if not any(e.id == entry_id for e in report.entries):
        for problem in report.problems:
            click.echo(str(problem), err=True)
        raise click.ClickException(f"no valid entry {entry_id!r} in {terms}")
    html = render_preview(gather(report, terms.parent), entry_id)
    out = out or Path(f"preview-{entry_id}.html")
    write_file_atomically(out.resolve(), html)
    click.echo(f"wrote {out}")
    if png:
        try:
            image = screenshot(html)
        except PdfError as exc:
            raise click.ClickException(str(exc)) from None
        write_file_atomically(out.with_suffix(".png").resolve(), image)
        click.echo(f"wrote {out.with_suffix('.png')}")


@cli.command(name="corpus")
@CORPUS
@click.option("--json", "as_json", is_flag=True)
def corpus_info(corpus: Path, as_json: bool) -> None:
    """List the corpus texts, their files and layers, and defects found in the text."""
    loaded = _load(corpus)
    rows = []
    for info in loaded.texts:
        docs = [d for d in loaded.documents if d.text_info is info]
        layers: dict[str, int] = {}
        for doc in docs:
            for stream in doc.streams:
                layers[stream.layer] = layers.get(stream.layer, 0) + len(stream.text)
        rows.append({"id": info.id, "title": info.title, "author": info.author, "edition": info.edition,
                     "script": info.script, "format": info.format, "files": len(docs),
                     "characters": layers, "sections": sum(len(d.sections) for d in docs)})
    warnings = [str(w) for w in loaded.warnings]
    if as_json:
        click.echo(dump_json({"texts": rows, "warnings": warnings}), nl=False)
        return
    for row in rows:
        chars = ", ".join(f"{k} {v:,}" for k, v in sorted(row["characters"].items()))
        click.echo(f"{row['id']:14} {row['title']} ({row['author']}): {row['files']} file(s), "
                   f"{row['sections']} sections; {chars}")
    for warning in warnings:
        click.echo(f"corpus warning: {warning}")


def _load(corpus: Path) -> "Corpus":
    from glossary.corpus import CorpusError, load_corpus

    try:
        return load_corpus(corpus)
    except CorpusError as exc:
        raise click.ClickException(str(exc)) from None


def _index(corpus: Path) -> "CorpusIndex":
    from glossary.corpus import CorpusError

    try:
        return click.get_current_context().obj.open(corpus)
    except CorpusError as exc:
        raise click.ClickException(str(exc)) from None


def main() -> None:
    """Console entry point: user errors never end in a traceback."""
    try:
        cli(prog_name="glossary")
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - last line of defence, reported plainly
        click.echo(f"glossary: internal error: {type(exc).__name__}: {exc} (please report this)", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
