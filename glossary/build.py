"""`glossary build`: check, gather, render every output, then write them all at once.

Like mkdocs' build, it gathers everything first and writes last: nothing is written
unless the check passes and every renderer succeeds; the output folder is then
exchanged for the new one in one step (:func:`glossary.files.publish`), so a failed or
killed build never leaves half an output behind. The renderers' state files (the Anki
ledger) are written with it, all or nothing.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path, PurePosixPath

from glossary.cache import IndexCache
from glossary.check import Report, check_project
from glossary.enrich.align import alignments
from glossary.enrich.concordance import concordance
from glossary.enrich.sequence import sequences
from glossary.errors import BuildError
from glossary.files import publish
from glossary.model import Glossary
from glossary.render import RENDERERS, STATE_FILES, Rendered, RenderOptions

#: Kept in every output folder: only a folder holding it may be replaced by a build.
MARKER = ".glossary-build"


def source_epoch(base: Path) -> int:
    """SOURCE_DATE_EPOCH, else the commit time of HEAD, else the terms file's mtime."""
    if value := os.environ.get("SOURCE_DATE_EPOCH"):
        return int(value)
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
    return int((base / "terms.yaml").stat().st_mtime) if (base / "terms.yaml").exists() else 0


def source_commit(base: Path) -> str | None:
    """The commit of HEAD in the repository holding ``base`` (None outside one or without git)."""
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
            state[name] = path.read_bytes()
        except FileNotFoundError:
            continue  # a first build: the renderer starts its state afresh
        except OSError as exc:
            raise BuildError(f"{path}: cannot read: {exc.strerror}") from None
    return state


def gather(report: Report, base: Path, cache: IndexCache | None = None) -> Glossary:
    """Everything the renderers need, from a passing report and the project folder ``base``.

    ``cache``: the cache that opened the report's index, which keeps the corpus' alignments
    beside it (without one they are computed afresh).
    """
    assert report.index is not None
    loci = {
        entry.id: tuple(result.loci for result in report.results_for(entry.id))
        for entry in report.entries
    }
    return Glossary(
        entries=tuple(report.entries),
        loci=loci,
        concordance=concordance(report.entries, report.index),
        epoch=source_epoch(base),
        state=_read_state(base),
        plan=report.plan,
        plan_loci=report.plan_loci,
        sequences=sequences(report.index.corpus),
        media={
            PurePosixPath(name).name: (base / name).read_bytes()
            for e in report.entries
            for name in e.media
        },
        retired=report.retired,
        readings=report.readings,
        alignments=cache.alignments(report.index, alignments)
        if cache is not None
        else alignments(report.index.corpus),
        texts=report.index.corpus.texts,
        commit=source_commit(base),
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


def write_outputs(out: Path, files: dict[str, bytes], state: dict[Path, bytes]) -> None:
    """Replace ``out`` with a folder holding exactly ``files`` (and a build marker), and write the
    renderers' state files with it: all or nothing (see :func:`glossary.files.publish`)."""
    out = out.resolve()
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out}: is a file, not a folder; choose another --out")
    if out.exists() and any(out.iterdir()) and not (out / MARKER).exists():
        # Never swap away a folder this tool did not write (``--out .`` must not eat the repo).
        raise BuildError(f"{out}: not empty and not a glossary build folder; choose another --out")
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


def build(
    terms: Path | str,
    corpus_root: Path | str,
    out: Path | str,
    options: RenderOptions = RenderOptions(),
    *,
    cache: IndexCache | None = None,
) -> Report:
    """Check the glossary and, if it passes, write every output to ``out`` and update the state files."""
    terms = Path(terms)
    cache = cache if cache is not None else IndexCache.from_environment()
    report = check_project(terms, corpus_root, cache=cache)
    if report.failed():
        return report
    glossary = gather(report, terms.parent, cache)
    rendered = render_all(glossary, options)
    write_outputs(
        Path(out),
        rendered.files,
        {terms.parent / name: data for name, data in rendered.state.items()},
    )
    return report
