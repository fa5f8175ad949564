"""ARCHITECTURE.md's how-to "add an output format", followed with a throwaway renderer.

A module-level function that takes only the ``Glossary`` and returns its files, registered in
``RENDERERS``: the build must check, render and write it with the rest, in the same folder, and
a renderer that fails must leave nothing written (the how-to promises "never half a folder").
(The how-to "add an entry field" is followed in tests/test_fields.py.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

import glossary.render as render
from glossary.build import build
from glossary.model import Glossary
from glossary.render import Rendered, RenderOptions


def _pleco_file(glossary: Glossary) -> dict[str, bytes]:
    """Step 1: everything from the Glossary, no file read."""
    lines = [f"{e.term}\t{e.pinyin}\t{e.gloss}" for e in glossary.entries]
    return {"yili-glossary.pleco.txt": ("\n".join(lines) + "\n").encode("utf-8")}


def _pleco(glossary: Glossary, options: RenderOptions) -> Rendered:
    """Step 2: the registry's function."""
    return Rendered(_pleco_file(glossary))


def test_a_new_output_format_is_one_function_and_one_registry_line(
    mini_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(render.RENDERERS, "pleco", _pleco)
    out = tmp_path / "dist"
    report = build(mini_project / "terms.yaml", mini_project / "corpus", out)
    assert not report.failed()
    written = (out / "yili-glossary.pleco.txt").read_text(encoding="utf-8").splitlines()
    assert "楅\tfú\tarrow rack" in written
    assert (out / "yili-glossary.apkg").exists()  # written with the rest, in one folder


def test_a_new_output_format_that_fails_leaves_nothing_written(
    mini_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(glossary: Glossary, options: RenderOptions) -> Rendered:
        raise RuntimeError("the new format's bug")

    monkeypatch.setitem(render.RENDERERS, "pleco", broken)
    out = tmp_path / "dist"
    with pytest.raises(RuntimeError):
        build(mini_project / "terms.yaml", mini_project / "corpus", out)
    assert not out.exists()
