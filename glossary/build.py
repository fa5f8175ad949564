"""`glossary build`: check, gather, render every output, then write them all at once.

Like mkdocs' build, it gathers everything first and writes last: nothing is written
unless the check passes and every renderer succeeds; the output folder is then
exchanged for the new one in one step (:func:`glossary.files.publish`), so a failed or
killed build never leaves half an output behind. The renderers' state files (the Anki
ledger) are read by every build but written only by one that records them (``record``: a release,
``glossary build --record-ledger``), with the outputs, all or nothing; so building a fresh clone
leaves the repository as it was.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path, PurePosixPath

from glossary.cache import IndexCache
from glossary.check import check_project
from glossary.enrich.align import alignments
from glossary.enrich.cited import resolve
from glossary.enrich.concordance import concordance
from glossary.enrich.excerpt_loci import excerpt_loci
from glossary.enrich.reader import reader_text
from glossary.enrich.sequence import sequences
from glossary.errors import BuildError
from glossary.files import LinkRefused, in_repository, publish, read_unlinked, refuse_links
from glossary.model import Glossary
from glossary.render import RENDERERS, STATE_FILES, Rendered, RenderOptions
from glossary.report import Report

#: Kept in every output folder: only a folder holding it may be replaced by a build.
MARKER = ".glossary-build"


def source_epoch(base: Path) -> int:
    """SOURCE_DATE_EPOCH, else the commit time of HEAD, else the terms file's mtime."""
    if value := os.environ.get("SOURCE_DATE_EPOCH"):
        return int(value)
    if not in_repository(base):
        return _mtime(base)
    try:
        result = subprocess.run(
            ["git", "log", "-1", "--format=%ct"],
            cwd=base,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        if result.returncode == 0 and result.stdout.strip().isdigit():
            return int(result.stdout.strip())
    except OSError:
        pass
    return _mtime(base)


def _mtime(base: Path) -> int:
    return int((base / "terms.yaml").stat().st_mtime) if (base / "terms.yaml").exists() else 0


def source_commit(base: Path) -> str | None:
    """The commit of HEAD in the repository holding ``base`` (None outside one or without git)."""
    if not in_repository(base):
        return None
    try:
        result = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=base,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except OSError:
        return None
    value = result.stdout.strip()
    return value if result.returncode == 0 and len(value) == 40 else None


def _read_state(base: Path) -> dict[str, bytes]:
    state = {}
    for name in STATE_FILES:
        path = base / name
        try:
            state[name] = read_unlinked(path)
        except FileNotFoundError:
            continue  # a first build: the renderer starts its state afresh
        except OSError as exc:
            raise BuildError(f"{path}: cannot read: {exc.strerror}") from None
    return state


def gather(
    report: Report, base: Path, *, reader: bool = True, only: frozenset[str] | None = None
) -> Glossary:
    """Everything the renderers need, from a passing report and the project folder ``base``.

    A preview asks for less: ``reader=False``, without the reader view's text; ``only``, the
    concordance of these entries alone (each entry's is its own).
    """
    assert report.index is not None
    index = report.index
    # The cards' passage windows need the sense units around each cited place: found here, for
    # the loci the renderers get, not by every look-up of the check.
    loci = {
        entry.id: tuple(
            tuple(index.with_units(locus) for locus in result.loci)
            for result in report.results_for(entry.id)
        )
        for entry in report.entries
    }
    excerpted = excerpt_loci(
        index,
        (
            locus
            for cited in (*loci.values(), *report.plan_loci.values())
            for found in cited
            for locus in found[:1]
        ),
    )
    renderings = alignments(index.corpus)
    cited = {
        entry.id: resolve(entry.citations, loci[entry.id], excerpted) for entry in report.entries
    }
    plan_places = {place.id: place for place in report.plan.places} if report.plan else {}
    return Glossary(
        entries=tuple(report.entries),
        cited=cited,
        concordance=concordance(
            [e for e in report.entries if only is None or e.id in only], report.index
        ),
        epoch=source_epoch(base),
        state=_read_state(base),
        plan=report.plan,
        plan_cited={
            i: resolve(plan_places[i].citations, found, excerpted)
            for i, found in report.plan_loci.items()
        },
        stages=report.stages,
        stage_loci=report.stage_loci,
        sequences=sequences(report.index.corpus),
        media={
            PurePosixPath(name).name: (base / name).read_bytes()
            for e in report.entries
            for name in e.media
        },
        retired=report.retired,
        readings=report.readings,
        alignments=renderings,
        texts=report.index.corpus.texts,
        commit=source_commit(base),
        excerpted=excerpted,
        reader=reader_text(index, report.entries, cited, excerpted, renderings) if reader else None,
    )


def render_all(glossary: Glossary, options: RenderOptions) -> Rendered:
    """Every renderer's outputs and state, in memory.

    Two outputs of one name are an error (a bug of the renderers, or a new one that did not
    choose its own names): the later would silently replace the earlier. Names that differ only
    in case collide too, on the case-insensitive file systems of macOS and Windows.
    """
    files: dict[str, bytes] = {}
    state: dict[str, bytes] = {}
    # Case-folded name → who writes it, for the output folder and for the state files beside
    # the terms (two places, so a state file and an output may share a name).
    outputs: dict[str, str] = {MARKER.casefold(): "the build (its marker)"}
    states: dict[str, str] = {}
    for name in sorted(RENDERERS):
        try:
            rendered = RENDERERS[name](glossary, options)
        except ValueError as exc:
            raise BuildError(str(exc)) from None
        for kind, written, owners in (
            ("output", rendered.files, outputs),
            ("state file", rendered.state, states),
        ):
            for file in written:
                key = file.casefold()
                if key in owners:
                    raise BuildError(
                        f"{kind} {file!r} of renderer {name!r} is also written by {owners[key]}: "
                        f"every {kind} needs a name of its own (names that differ only in case "
                        "are one file on macOS and Windows)"
                    )
                owners[key] = f"renderer {name!r}"
        files.update(rendered.files)
        state.update(rendered.state)
    return Rendered(files, state)


def write_outputs(
    out: Path, files: dict[str, bytes], state: dict[Path, bytes], keep: tuple[Path, ...] = ()
) -> None:
    """Replace ``out`` with a folder holding exactly ``files`` (and a build marker), and write the
    renderers' state files with it: all or nothing (see :func:`glossary.files.publish`).

    ``keep``: folders and files a build must never replace (the terms file, the corpus), nor
    any folder above them. See :func:`replaceable`.
    """
    out = _destination(out, list(state), keep)
    try:
        publish(
            out,
            {**files, MARKER: b"Written by `glossary build`; replaced whole on every build.\n"},
            state,
        )
    except OSError as exc:
        where = exc.filename or out
        raise BuildError(
            f"{where}: cannot write the outputs: {exc.strerror or exc}; nothing was changed"
        ) from None


def _destination(out: Path, state: list[Path], keep: tuple[Path, ...]) -> Path:
    """``out`` resolved, once no link leads to it or to a state file and a build may replace it
    (:func:`replaceable`); else a :class:`BuildError` saying nothing was changed."""
    try:
        for path in [out, *state]:
            refuse_links(path)
    except LinkRefused as exc:
        raise BuildError(f"{exc.filename}: {exc.strerror}; nothing was changed") from None
    out = out.resolve()  # no link below the current folder: only the user's own are resolved
    replaceable(out, keep)
    return out


def replaceable(out: Path, keep: tuple[Path, ...] = ()) -> None:
    """Raise a :class:`BuildError` unless a build may replace the folder ``out`` (resolved) whole.

    A build replaces only a folder it wrote: an empty or missing one, or one holding its marker.
    A marker proves nothing when a pull request can commit it, so a folder holding anything git
    tracks is refused too (a random marker would do as much, but would make two builds of one
    commit differ). Never replaced, marker or not: a folder holding ``.git``, the current folder
    or one above it, and anything in ``keep`` or above it.
    """
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out}: is a file, not a folder; choose another --out")
    guarded = [Path.cwd().resolve(), *(Path(p).resolve() for p in keep)]
    if any(out == p or out in p.parents for p in guarded) or os.path.lexists(out / ".git"):
        raise BuildError(
            f"{out}: holds the repository, the corpus, the terms file or the current folder; "
            "a build never replaces it: choose another --out"
        )
    if not out.exists() or not any(out.iterdir()):
        return
    if not (out / MARKER).exists():
        # Never swap away a folder this tool did not write (``--out .`` must not eat the repo).
        raise BuildError(f"{out}: not empty and not a glossary build folder; choose another --out")
    if tracked := tracked_by_git(out):
        raise BuildError(
            f"{out}: git tracks {tracked} in it (committed, not built here); a build replaces "
            "only a folder it wrote: choose another --out, or remove the folder yourself"
        )


def tracked_by_git(folder: Path) -> str | None:
    """A file under ``folder`` that git tracks (None: none, or no repository holds it)."""
    if not in_repository(folder):
        return None
    command = ["git", "--literal-pathspecs", "-C", str(folder.parent), "ls-files", "-z", "--"]
    try:
        result = subprocess.run(
            [*command, folder.name], capture_output=True, timeout=30, check=False
        )
    except OSError:
        # A repository is there but no git to ask: a committed folder cannot be told apart.
        raise BuildError(
            f"{folder}: git is needed to tell a committed folder from a build's"
        ) from None
    except subprocess.TimeoutExpired:
        raise BuildError(f"{folder}: git did not answer whether it tracks the folder") from None
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip()
        if "not a git repository" in message:
            return None
        raise BuildError(f"{folder}: cannot ask git whether it tracks the folder: {message}")
    names = [name for name in result.stdout.split(b"\0") if name]
    return names[0].decode("utf-8", "replace") if names else None


def build(
    terms: Path | str,
    corpus_root: Path | str,
    out: Path | str,
    options: RenderOptions = RenderOptions(),
    *,
    cache: IndexCache | None = None,
    base: str | None = None,
    record: bool = False,
) -> Report:
    """Check the glossary and, if it passes, write every output to ``out``; with ``record``, also
    the renderers' state files (the Anki ledger a release commits)."""
    terms = Path(terms)
    keep = (terms, Path(corpus_root))
    # A folder the build may not replace is refused before anything is read or rendered (the
    # shipped build takes a minute); write_outputs asks again, as the folder may change meanwhile.
    _destination(Path(out), [terms.parent / name for name in STATE_FILES] if record else [], keep)
    cache = cache if cache is not None else IndexCache.from_environment()
    report = check_project(terms, corpus_root, cache=cache, base=base)
    if report.failed():
        return report
    glossary = gather(report, terms.parent)
    rendered = render_all(glossary, options)
    write_outputs(
        Path(out),
        rendered.files,
        {terms.parent / name: data for name, data in rendered.state.items()} if record else {},
        keep=keep,
    )
    return report
