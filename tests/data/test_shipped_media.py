"""The shipped media/ folder: its README and licence list, and nothing unlicensed or unused in it."""

from __future__ import annotations

from conftest import ROOT


def test_the_shipped_media_folder_checks(shipped_entries) -> None:
    from glossary.media import media_problems

    root = ROOT
    assert (root / "media" / "README.md").exists() and (root / "media" / "licenses.yaml").exists()
    assert media_problems(root, "terms.yaml", shipped_entries) == []
