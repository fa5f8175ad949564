"""The mini corpus (tests/fixtures/corpus-mini) is what its README says: whole lines of the shipped files."""

from __future__ import annotations

import hashlib
from types import ModuleType

import yaml
from conftest import FIXTURES, MINI_CORPUS, SHIPPED_CORPUS, load_script


def cutter() -> ModuleType:
    return load_script(FIXTURES / "make_corpus_mini.py")


def test_every_fixture_file_is_its_line_ranges_of_the_shipped_file() -> None:
    make = cutter()
    assert make.SOURCE == SHIPPED_CORPUS and make.TARGET == MINI_CORPUS
    on_disk = sorted(str(p.relative_to(MINI_CORPUS)) for p in MINI_CORPUS.rglob("*.txt"))
    assert sorted(make.EXCERPTS) == on_disk
    for name, ranges in make.EXCERPTS.items():
        shipped = (SHIPPED_CORPUS / name).read_bytes().splitlines(keepends=True)
        fixture = (MINI_CORPUS / name).read_bytes()
        assert fixture == make.excerpt(name), name
        assert all(1 <= start <= end <= len(shipped) for start, end in ranges), name
        assert all(a[1] < b[0] for a, b in zip(ranges, ranges[1:])), (
            name
        )  # in order, not overlapping
        lines = fixture.splitlines(keepends=True)
        assert sum(end - start + 1 for start, end in ranges) == len(lines), name
        assert set(lines) <= set(shipped), (
            name
        )  # nothing written that the shipped file does not hold


def test_checksums_and_manifest_of_the_mini_corpus() -> None:
    sums = {}
    for line in (MINI_CORPUS / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ", 1)
        sums[name.removeprefix("./")] = digest
    assert sums == {
        name: hashlib.sha256((MINI_CORPUS / name).read_bytes()).hexdigest() for name in sums
    }
    mini = yaml.safe_load((MINI_CORPUS / "manifest.yaml").read_text(encoding="utf-8"))
    shipped = {
        t["id"]: t
        for t in yaml.safe_load((SHIPPED_CORPUS / "manifest.yaml").read_text(encoding="utf-8"))[
            "texts"
        ]
    }
    assert set(mini) == set(
        yaml.safe_load((SHIPPED_CORPUS / "manifest.yaml").read_text(encoding="utf-8"))
    )
    listed = [name for text in mini["texts"] for name in text["files"]]
    assert sorted(listed) == sorted(sums)
    for text in mini["texts"]:
        original = shipped[text["id"]]
        # The same keys and the same reading of the text; only the edition note and the file list differ.
        assert set(text) == set(original), text["id"]
        for key in set(text) - {"edition", "files"}:
            assert text[key] == original[key], (text["id"], key)
        assert set(text["files"]) <= set(original["files"])
