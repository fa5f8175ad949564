"""`glossary build`: check, then render every output, then write them all at once.

Nothing is written unless the check passes and every renderer succeeds; the
output folder is then replaced in one rename, so a failed build never leaves
half an output behind.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Callable

from glossary.check import Report, check_project
from glossary.render import terms_json

Renderer = Callable[[Report], bytes]
MARKER = ".glossary-build"

#: Output file name → renderer. Later outputs (decks, the printed glossary) register here.
RENDERERS: dict[str, Renderer] = {
    "terms.json": terms_json.render,
}


def render_all(report: Report) -> dict[str, bytes]:
    """Every output's bytes, in memory."""
    return {name: renderer(report) for name, renderer in sorted(RENDERERS.items())}


class BuildError(Exception):
    """The output folder cannot be written."""


def write_atomically(out: Path, outputs: dict[str, bytes]) -> None:
    """Replace ``out`` with a folder holding exactly ``outputs`` (and a build marker)."""
    out = out.resolve()
    if out.exists() and any(out.iterdir()) and not (out / MARKER).exists():
        # Never swap away a folder this tool did not write (``--out .`` must not eat the repo).
        raise BuildError(f"{out}: not empty and not a glossary build folder; choose another --out")
    outputs = {**outputs, MARKER: b"Written by `glossary build`; replaced whole on every build.\n"}
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
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


def build(terms: Path | str, corpus_root: Path | str, out: Path | str) -> Report:
    """Check the glossary and, if it passes, write every output to ``out``."""
    report = check_project(terms, corpus_root)
    if report.failed():
        return report
    write_atomically(Path(out), render_all(report))
    return report
