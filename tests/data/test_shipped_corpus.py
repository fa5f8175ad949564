"""The shipped corpus: every file listed, unchanged (SHA256SUMS), and readable."""
from __future__ import annotations

import hashlib

import pytest
from conftest import SHIPPED_CORPUS

from glossary.corpus import read_manifest


def sums() -> dict[str, str]:
    rows = {}
    for line in (SHIPPED_CORPUS / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ", 1)
        rows[name.removeprefix("./")] = digest
    return rows


def test_every_text_file_is_in_the_manifest_and_in_the_checksums() -> None:
    listed = [name for info in read_manifest(SHIPPED_CORPUS) for name in info.files]
    assert len(listed) == len(set(listed))
    on_disk = sorted(str(p.relative_to(SHIPPED_CORPUS)) for p in SHIPPED_CORPUS.rglob("*.txt"))
    assert sorted(listed) == on_disk
    assert sorted(sums()) == on_disk


def test_every_file_is_byte_identical_to_its_checksum() -> None:
    for name, digest in sums().items():
        assert hashlib.sha256((SHIPPED_CORPUS / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.slow  # reads the whole shipped corpus
def test_every_file_is_read(shipped_corpus) -> None:
    assert [d.path for d in shipped_corpus.documents] == [n for t in shipped_corpus.texts for n in t.files]
    for doc in shipped_corpus.documents:
        assert doc.streams and any(s.text for s in doc.streams), doc.path
        main = doc.text_info.main_layer
        assert any(s.layer == main for s in doc.streams), doc.path
