"""`glossary build`: check, gather, render every output, then write them all at once.

Nothing is written unless the check passes and every renderer succeeds; the
output folder is then replaced in one rename, so a failed build never leaves
half an output behind. The Anki ledger (``anki-ledger.json``) is updated last.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable

from glossary.cache import IndexCache
from glossary.check import Report, check_project
from glossary.enrich.concordance import concordance
from glossary.enrich.sequence import sequences
from glossary.ledger import FILENAME as LEDGER_FILE
from glossary.ledger import read_ledger
from glossary.model import Glossary
from glossary.render import pdf, printed, terms_json
from glossary.render.anki import render as anki

MARKER = ".glossary-build"


@dataclass(frozen=True)
class BuildOptions:
    """What to build besides the default outputs."""

    paper: str = "a4"
    sheets: tuple[str, ...] = ()
    pdf: bool = False


def _print(glossary: Glossary, options: BuildOptions) -> dict[str, bytes]:
    print_options = printed.PrintOptions(paper=options.paper)
    outputs = {"glossary.html": printed.render_glossary(glossary, print_options)}
    for rite in options.sheets:
        name, html = printed.render_sheet(glossary, rite, print_options)
        outputs[name] = html
    if options.pdf:
        for name in list(outputs):
            if name.endswith(".html"):
                outputs[name.removesuffix(".html") + ".pdf"] = pdf.print_pdf(outputs[name])
    return outputs


Renderer = Callable[[Glossary, BuildOptions], dict[str, bytes]]

#: Output family → renderer returning {file name: bytes}.
RENDERERS: dict[str, Renderer] = {
    "terms.json": lambda glossary, options: terms_json.render(glossary),
    "anki": lambda glossary, options: anki.render(glossary),
    "print": _print,
}


class BuildError(Exception):
    """The outputs cannot be made or written (output folder, ledger, sheet name, Chromium)."""


def source_epoch(base: Path) -> int:
    """SOURCE_DATE_EPOCH, else the commit time of HEAD, else the terms file's mtime."""
    if value := os.environ.get("SOURCE_DATE_EPOCH"):
        return int(value)
    try:
        result = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=base, capture_output=True,
                                text=True, timeout=10, check=False)
        if result.returncode == 0 and result.stdout.strip().isdigit():
            return int(result.stdout.strip())
    except OSError:
        pass
    return int((base / "terms.yaml").stat().st_mtime) if (base / "terms.yaml").exists() else 0


def gather(report: Report, base: Path) -> Glossary:
    """Everything the renderers need, from a passing report."""
    assert report.index is not None
    try:
        ledger = read_ledger(base / LEDGER_FILE)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BuildError(f"{base / LEDGER_FILE}: cannot read the Anki ledger: {exc}") from None
    loci = {
        entry.id: tuple(result.loci for result in report.results_for(entry.id)) for entry in report.entries
    }
    return Glossary(
        entries=tuple(report.entries),
        loci=loci,
        concordance=concordance(report.entries, report.index),
        epoch=source_epoch(base),
        ledger=ledger,
        plan=report.plan,
        plan_loci=report.plan_loci,
        sequences=sequences(report.index.corpus),
        media={PurePosixPath(name).name: (base / name).read_bytes() for e in report.entries for name in e.media},
    )


def render_all(glossary: Glossary, options: BuildOptions) -> dict[str, bytes]:
    """Every output's bytes, in memory."""
    outputs: dict[str, bytes] = {}
    for name in sorted(RENDERERS):
        try:
            outputs.update(RENDERERS[name](glossary, options))
        except (ValueError, pdf.PdfError) as exc:
            raise BuildError(str(exc)) from None
    return outputs


def write_atomically(out: Path, outputs: dict[str, bytes]) -> None:
    """Replace ``out`` with a folder holding exactly ``outputs`` (and a build marker)."""
    out = out.resolve()
    if out.exists() and any(out.iterdir()) and not (out / MARKER).exists():
        # Never swap away a folder this tool did not write (``--out .`` must not eat the repo).
        raise BuildError(f"{out}: not empty and not a glossary build folder; choose another --out")
    outputs = {**outputs, MARKER: b"Written by `glossary build`; replaced whole on every build.\n"}
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    staging.chmod(0o755)
    try:
        for name, data in outputs.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.rename(out, retired / "old")
            os.rename(staging, out)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.rename(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def write_file_atomically(path: Path, data: bytes) -> None:
    """Write one file by rename, so readers never see half of it."""
    if path.exists() and path.read_bytes() == data:
        return
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        # mkstemp makes private files; keep the mode the file had, or the usual one.
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)  # a full disk must not leave a stray .terms.yaml.* behind
        raise


def build(terms: Path | str, corpus_root: Path | str, out: Path | str,
          options: BuildOptions = BuildOptions(), *, cache: IndexCache | None = None) -> Report:
    """Check the glossary and, if it passes, write every output to ``out`` and update the ledger."""
    terms = Path(terms)
    report = check_project(terms, corpus_root, cache=cache)
    if report.failed():
        return report
    glossary = gather(report, terms.parent)
    outputs = render_all(glossary, options)
    _, _, ledger = anki.stamp(glossary)
    write_atomically(Path(out), outputs)
    write_file_atomically(terms.parent / LEDGER_FILE, ledger.to_bytes())
    return report
