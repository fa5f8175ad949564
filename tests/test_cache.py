"""The cache: used when nothing changed, rebuilt when anything did, never in the way, never run."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import pickle
import shutil
from importlib import metadata
from pathlib import Path

import pytest
from conftest import MINI_CORPUS as CORPUS
from conftest import MINI_TERMS

import glossary.corpus
import glossary.corpus.store
from glossary import cache
from glossary.cache import IndexCache
from glossary.corpus import CorpusError
from glossary.corpus.store import Packer
from glossary.index import CorpusIndex
from glossary.normalize import normalize

SEED = "000_b6ac9449aa5994ba.txt"
#: A sentence written into a copy of the corpus, in no text of the real one.
ADDED = "此句乃測試之所加者也"
QUOTE = "楅长如笴博三寸"  # as the seed text prints it


@pytest.fixture()
def corpus_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS, folder)
    return folder


@pytest.fixture()
def fresh_code_key():
    """:func:`cache.code_key` computed anew in the test (and after it)."""
    cache.code_key.cache_clear()
    yield
    cache.code_key.cache_clear()


def _rewrite(corpus: Path, name: str, text: str) -> None:
    """Change a corpus file and its checksum, as a deliberate corpus update would."""
    path = corpus / name
    old = hashlib.sha256(path.read_bytes()).hexdigest()
    path.write_text(text, encoding="utf-8")
    new = hashlib.sha256(path.read_bytes()).hexdigest()
    sums = corpus / "SHA256SUMS"
    sums.write_text(sums.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Record every read of a corpus (the cache imports load_corpus when it opens an index)."""
    reads: list[Path] = []
    real = glossary.corpus.load_corpus

    def counted(root):
        reads.append(Path(root))
        return real(root)

    monkeypatch.setattr(glossary.corpus, "load_corpus", counted)
    return reads


def _same(a: CorpusIndex, b: CorpusIndex) -> None:
    """Two indexes hold the same corpus, text, maps and marks (every field of every object)."""
    assert a.corpus.texts == b.corpus.texts and a.text == b.text
    assert (a._starts, a._placeholders, a._tabled) == (b._starts, b._placeholders, b._tabled)
    assert (a._tabled_chars, a.tabled_keys) == (b._tabled_chars, b.tabled_keys)
    assert len(a.corpus.documents) == len(b.corpus.documents)
    for one, other in zip(a.corpus.documents, b.corpus.documents):
        assert Packer().row(one, text_info=0) == Packer().row(other, text_info=0)
        # A document names its text by identity (corpus summaries group by it).
        assert any(other.text_info is info for info in b.corpus.texts)
    for (_, stream, key), (_, again, key_again) in zip(a._streams, b._streams):
        assert Packer().row(stream) == Packer().row(again) and list(key) == list(key_again)


def test_a_second_open_comes_from_the_cache_and_equals_a_fresh_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads = _count_reads(monkeypatch)
    first = IndexCache(tmp_path).open(CORPUS)
    second = IndexCache(tmp_path).open(CORPUS)
    assert len(reads) == 1 and len(list(tmp_path.glob("index-*.json"))) == 1
    _same(second, first)
    _same(second, CorpusIndex(glossary.corpus.load_corpus(CORPUS)))
    assert second.find(normalize(QUOTE)) == first.find(normalize(QUOTE)) != []
    hit = second.find(normalize(QUOTE))[0]
    assert second.locus(hit) == first.locus(hit)


def test_a_changed_corpus_byte_builds_the_index_again(corpus_copy: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    before = IndexCache(folder).open(corpus_copy)
    assert not before.find(normalize(ADDED))
    text = (corpus_copy / SEED).read_text(encoding="utf-8")
    _rewrite(corpus_copy, SEED, text.replace(QUOTE, QUOTE + ADDED, 1))
    after = IndexCache(folder).open(corpus_copy)
    assert after.find(normalize(ADDED))
    assert len(list(folder.glob("index-*.json"))) == 2


def test_a_file_that_no_longer_matches_its_checksum_fails_even_when_cached(
    corpus_copy: Path, tmp_path: Path
) -> None:
    IndexCache(tmp_path).open(corpus_copy)
    path = corpus_copy / SEED
    path.write_bytes(path.read_bytes().replace(QUOTE.encode(), ADDED[:7].encode(), 1))
    with pytest.raises(CorpusError, match="differs from its checksum"):
        IndexCache(tmp_path).open(corpus_copy)


def test_a_changed_library_version_builds_the_index_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_code_key
) -> None:
    reads = _count_reads(monkeypatch)
    IndexCache(tmp_path).open(CORPUS)
    before = cache.corpus_key(CORPUS)
    real = metadata.version
    monkeypatch.setattr(
        metadata, "version", lambda name: "0.0.1" if name == "OpenCC" else real(name)
    )
    cache.code_key.cache_clear()
    assert cache.corpus_key(CORPUS) != before
    IndexCache(tmp_path).open(CORPUS)
    assert len(reads) == 2 and len(list(tmp_path.glob("index-*.json"))) == 2


def test_changed_code_builds_the_index_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_code_key
) -> None:
    package = tmp_path / "glossary"
    shutil.copytree(cache.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "PACKAGE", package)
    before = cache.code_key()
    # A template renders, it shapes no index or check: not in the key.
    (package / "templates" / "print" / "entry.html").write_text("changed", encoding="utf-8")
    cache.code_key.cache_clear()
    assert cache.code_key() == before
    # Any module or table is: a new import in a checking module, a regenerated table.
    for name in ("index.py", "enrich/readings/lookup.py", "data/variants.tsv"):
        path = package / name
        path.write_bytes(path.read_bytes() + b"\n")
        cache.code_key.cache_clear()
        assert cache.code_key() != before
        before = cache.code_key()
    reads = _count_reads(monkeypatch)
    IndexCache(tmp_path / "cache").open(CORPUS)
    cache.code_key.cache_clear()
    (package / "offsets.py").write_bytes((package / "offsets.py").read_bytes() + b"\n")
    IndexCache(tmp_path / "cache").open(CORPUS)
    assert len(reads) == 2


@pytest.mark.parametrize(
    "damage",
    ["empty", "garbage", "truncated", "a byte changed", "valid JSON of another shape"],
)
def test_a_damaged_cache_file_is_rebuilt_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    first = IndexCache(tmp_path).open(CORPUS)
    [path] = tmp_path.glob("index-*.json")
    data = path.read_bytes()
    if damage == "empty":
        data = b""
    elif damage == "garbage":
        data = os.urandom(4096)
    elif damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "a byte changed":
        middle = len(data) // 2
        data = data[:middle] + bytes([data[middle] ^ 1]) + data[middle + 1 :]
    else:  # with a checksum that matches: a file written by other code
        body = json.dumps({"corpus": {"texts": [["x"]], "documents": []}}).encode()
        data = cache.MAGIC + b" " + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    path.write_bytes(data)
    reads = _count_reads(monkeypatch)
    again = IndexCache(tmp_path).open(CORPUS)
    assert len(reads) == 1
    _same(again, first)
    _same(IndexCache(tmp_path).open(CORPUS), first)  # written anew, and read back
    assert len(reads) == 1


class _Planted:
    """A pickle that writes a file when it is loaded: what a planted cache file could do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "ran"))


def test_no_code_runs_from_a_cache_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    IndexCache(tmp_path).open(CORPUS)
    [path] = tmp_path.glob("index-*.json")
    marker = tmp_path / "ran"
    path.write_bytes(pickle.dumps(_Planted(marker)))
    reads = _count_reads(monkeypatch)
    assert IndexCache(tmp_path).open(CORPUS).find(normalize(QUOTE))
    assert not marker.exists() and len(reads) == 1
    # Nor could any: the cache reads JSON, by constructors; nothing that runs or names code.
    for module in (cache, glossary.corpus.store):
        assert module.__file__ is not None
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        imported |= {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        }
        assert not imported & {"pickle", "marshal", "shelve"}, module
        called = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not called & {"eval", "exec", "compile", "__import__"}, module


def test_a_fifo_planted_in_the_cache_is_a_miss_not_a_wait(tmp_path: Path) -> None:
    IndexCache(tmp_path).open(CORPUS)
    [path] = tmp_path.glob("index-*.json")
    path.unlink()
    os.mkfifo(path)
    assert IndexCache(tmp_path).read(path.name) is None


def test_a_type_the_store_does_not_know_fails_the_writing_loudly() -> None:
    with pytest.raises(TypeError, match="cannot be kept"):
        Packer().plain(object())


def test_an_unwritable_cache_folder_is_ignored(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    index = IndexCache(blocked / "cache").open(CORPUS)
    assert index.find(normalize("楅长如笴博三寸"))


def test_a_temporary_file_left_by_a_killed_run_is_swept_once_an_hour_old(tmp_path: Path) -> None:
    stale, fresh = tmp_path / ".tmp-killed", tmp_path / ".tmp-another-run-writing"
    for path in (stale, fresh):
        path.write_bytes(b"half a file")
    os.utime(stale, (0, os.path.getmtime(stale) - cache.STALE_SECONDS - 60))
    IndexCache(tmp_path).open(CORPUS)  # writes an index, then tidies the folder
    assert not stale.exists() and fresh.exists()
    assert sorted(p.name for p in tmp_path.glob(".tmp-*")) == [fresh.name]  # none of its own


def test_an_interrupted_write_removes_its_temporary_file(tmp_path: Path, monkeypatch) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)  # the os module glossary.cache writes with
    with pytest.raises(KeyboardInterrupt):
        IndexCache(tmp_path).open(CORPUS)
    assert list(tmp_path.glob(".tmp-*")) == []


def test_old_files_are_pruned(tmp_path: Path) -> None:
    folder = IndexCache(tmp_path)
    for i in range(cache.KEEP + 2):
        folder.write(f"check-{i}.json", {"i": i})
        os.utime(tmp_path / f"check-{i}.json", (i, i))
    folder.write("check-new.json", {})
    kept = sorted(p.name for p in tmp_path.glob("check-*.json"))
    assert len(kept) == cache.KEEP and "check-new.json" in kept and "check-0.json" not in kept
    assert folder.read("check-new.json") == {} and folder.read("check-missing.json") is None


def test_where_the_cache_lives(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, "")
    assert cache.default_dir() is None
    assert IndexCache.from_environment().folder is None
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    assert cache.default_dir() == tmp_path
    assert IndexCache.from_environment().folder == tmp_path
    monkeypatch.delenv(cache.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.default_dir() == tmp_path / "xdg" / "yili-glossary"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.default_dir() == tmp_path / "home" / ".cache" / "yili-glossary"

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert cache.default_dir() is None


def test_no_cache_flag_writes_nothing(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from glossary.cli import cli

    monkeypatch.setenv(cache.ENV, str(tmp_path))
    for args, shown in (
        (["locate", "楅长如笴博三寸"], "取矢"),
        (["check", "--terms", str(MINI_TERMS)], " 0 error(s)"),
    ):
        result = CliRunner().invoke(cli, ["--no-cache", *args, "--corpus", str(CORPUS)])
        assert result.exit_code == 0 and shown in result.output
        assert list(tmp_path.iterdir()) == []
    # The flag turns the cache off, not the environment.
    assert os.environ[cache.ENV] == str(tmp_path)
    result = CliRunner().invoke(cli, ["locate", "楅长如笴博三寸", "--corpus", str(CORPUS)])
    assert result.exit_code == 0 and list(tmp_path.glob("index-*.json"))
