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
    assert [d.path for d in shipped_corpus.documents] == [
        n for t in shipped_corpus.texts for n in t.files
    ]
    for doc in shipped_corpus.documents:
        assert doc.streams and any(s.text for s in doc.streams), doc.path
        main = doc.text_info.main_layer
        assert any(s.layer == main for s in doc.streams), doc.path


@pytest.mark.slow  # reads the whole shipped corpus
def test_variant_gaps_leave_the_three_rites_and_the_issues_old_forms(shipped_corpus) -> None:
    # `glossary corpus --variants`: old forms no table folds. The fold gaps found by quoting other
    # editions (issue 14: 靣 歩 戸 懐 扄 㸑 𦵏) are folded; the 禮經本義 卷 of the three rites
    # (and the two seed texts) have none left.
    from glossary.corpus.summary import variant_gaps
    from glossary.normalize import fold_char
    from glossary.standard import is_standard

    rows = variant_gaps(shipped_corpus)["characters"]
    assert isinstance(rows, list)
    assert not {row["char"] for row in rows} & set("靣歩戸懐扄㸑𦵏馀")
    assert all(
        not is_standard(row["char"]) and fold_char(row["char"]) == row["char"] for row in rows
    )
    three = {
        "kanripo/KR1d0044/KR1d0044_004.txt",
        "kanripo/KR1d0044/KR1d0044_014.txt",
        "kanripo/KR1d0044/KR1d0044_015.txt",
        "000_b6ac9449aa5994ba.txt",
        "002_a73e8d04fc3338bc.txt",
    }
    for doc in shipped_corpus.documents:
        if doc.path in three:
            text = "".join(stream.text for stream in doc.streams)
            assert not [row["char"] for row in rows if row["char"] in text], doc.path
