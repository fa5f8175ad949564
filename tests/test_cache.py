"""The corpus cache: used when nothing changed, rebuilt when anything did, never in the way, never run."""

from __future__ import annotations

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
from test_citations import ENTRY

import glossary.corpus
from glossary import cache
from glossary.cache import IndexCache
from glossary.check import check_project
from glossary.corpus import CorpusError
from glossary.index import CorpusIndex
from glossary.normalize import normalize

SEED = "000_b6ac9449aa5994ba.txt"
#: A sentence written into a copy of the corpus, in no text of the real one.
ADDED = "此句乃測試之所加者也"
QUOTE = "楅長如笴博三寸"


@pytest.fixture()
def corpus_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS, folder)
    return folder


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


def _payload(path: Path) -> object:
    """What a cache file holds, read the way only a test may: trusting it."""
    data = path.read_bytes()
    assert data.startswith(cache.MAGIC)
    return pickle.loads(data[len(cache.MAGIC) + cache.TAG_BYTES :])


def test_second_open_comes_from_the_cache_and_equals_a_fresh_read(
    tmp_path: Path, monkeypatch
) -> None:
    fresh = cache.open_index(CORPUS, tmp_path)
    assert len(list(tmp_path.glob("index-*.pickle"))) == 1
    reads = _count_reads(monkeypatch)
    cached = cache.open_index(CORPUS, tmp_path)
    assert reads == []
    assert cached is not fresh
    assert cached.text == fresh.text
    hits = cached.find(normalize("楅长如笴博三寸"))
    assert [cached.locus(h).to_json() for h in hits] == [
        fresh.locus(h).to_json() for h in fresh.find(normalize("楅长如笴博三寸"))
    ]
    assert len(hits) >= 2


def test_a_changed_corpus_file_is_read_again(corpus_copy: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    before = cache.open_index(corpus_copy, folder)
    assert not before.find(normalize(ADDED))
    text = (corpus_copy / SEED).read_text(encoding="utf-8")
    _rewrite(corpus_copy, SEED, text.replace("楅长如笴博三寸", "楅长如笴博三寸" + ADDED, 1))
    after = cache.open_index(corpus_copy, folder)
    assert after.find(normalize(ADDED))
    assert len(list(folder.glob("index-*.pickle"))) == 2


def test_a_file_that_no_longer_matches_its_checksum_fails_even_when_cached(
    corpus_copy: Path, tmp_path: Path
) -> None:
    cache.open_index(corpus_copy, tmp_path)
    (corpus_copy / SEED).write_text("tampered", encoding="utf-8")
    with pytest.raises(CorpusError, match="SHA256SUMS"):
        cache.open_index(corpus_copy, tmp_path)


def test_a_change_of_code_or_tables_changes_the_key(monkeypatch) -> None:
    before = cache.corpus_key(CORPUS)
    monkeypatch.setattr(cache, "_code_fingerprint", lambda: b"another normalisation table")
    assert cache.corpus_key(CORPUS) != before


def test_the_index_code_is_what_builds_an_index_found_from_the_source() -> None:
    names = {p.relative_to(cache.PACKAGE).as_posix() for p in cache.index_code()}
    corpus_modules = {f"corpus/{p.name}" for p in (cache.PACKAGE / "corpus").glob("*.py")}
    assert (
        corpus_modules
        | {
            "index.py",
            "normalize.py",
            "offsets.py",
            "cache.py",
            "nogc.py",
            "data/variants.tsv",
            "data/commentators.tsv",
        }
        <= names
    )
    # What only checks, renders or transcribes does not rebuild the index when it changes.
    assert not names & {
        "check.py",
        "citations.py",
        "validate.py",
        "cli.py",
        "enrich/pinyin.py",
        "data/pypinyin_readings.tsv",
        "data/radicals.tsv",
    }


def test_a_module_newly_imported_by_the_index_code_joins_the_key(
    tmp_path: Path, monkeypatch
) -> None:
    package = tmp_path / "glossary"
    shutil.copytree(cache.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "weights.py").write_text("WEIGHTS = {}\n", encoding="utf-8")
    (package / "data" / "weights.tsv").write_text("a\t1\n", encoding="utf-8")
    offsets = package / "offsets.py"
    offsets.write_text(
        offsets.read_text(encoding="utf-8").replace(
            "from array import array\n",
            "from array import array\n\nfrom glossary import (  # a parenthesised import over lines\n    weights,\n)\n",
            1,
        ),
        encoding="utf-8",
    )
    normalize_py = package / "normalize.py"
    normalize_py.write_text(
        normalize_py.read_text(encoding="utf-8")
        + '\n\ndef _weights():\n    return "weights.tsv"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(cache, "PACKAGE", package)
    cache.index_code.cache_clear()
    try:
        names = {p.relative_to(package).as_posix() for p in cache.index_code()}
    finally:
        cache.index_code.cache_clear()
    assert {"weights.py", "data/weights.tsv"} <= names


def test_library_versions_are_in_the_key(monkeypatch) -> None:
    for name in cache.LIBRARIES:
        assert cache.installed_version(name) == metadata.version(name)
    before = cache.corpus_key(CORPUS)
    monkeypatch.setattr(cache, "installed_version", lambda name: "0.0-other")
    cache._environment.cache_clear()
    try:
        assert cache.corpus_key(CORPUS) != before
    finally:
        cache._environment.cache_clear()


def test_a_broken_cache_file_is_only_a_miss(tmp_path: Path) -> None:
    cache.open_index(CORPUS, tmp_path)
    [path] = tmp_path.glob("index-*.pickle")
    path.write_bytes(b"not a pickle")
    index = cache.open_index(CORPUS, tmp_path)
    assert index.find(normalize("楅长如笴博三寸"))
    assert isinstance(_payload(path), CorpusIndex)  # rewritten whole
    path.write_bytes(path.read_bytes()[:-1000])  # truncated
    assert cache.open_index(CORPUS, tmp_path).find(normalize("楅长如笴博三寸"))
    assert isinstance(_payload(path), CorpusIndex)


class Planted:
    """A pickle that writes a file when it is loaded: what a planted cache file could do."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "this ran"))


def test_a_planted_pickle_is_never_run_and_the_index_is_rebuilt(
    tmp_path: Path, monkeypatch
) -> None:
    folder = tmp_path / "cache"
    cache.open_index(CORPUS, folder)
    [path] = folder.glob("index-*.pickle")
    quotes = folder / path.name.replace("index-", "quotes-")
    # The test's own pickle does run when loaded plainly: the checks below can fail.
    pickle.loads(pickle.dumps(Planted(tmp_path / "proof")))
    assert (tmp_path / "proof").read_text() == "this ran"
    marker = tmp_path / "marker"
    planted = pickle.dumps(Planted(marker))
    real = path.read_bytes()
    head = len(cache.MAGIC) + cache.TAG_BYTES
    reads = _count_reads(monkeypatch)
    # Bare, behind our header with the real file's tag, and as the remembered quotes.
    for name, data in (
        (path, planted),
        (path, real[:head] + planted),
        (quotes, real[:head] + planted),
    ):
        name.write_bytes(data)
        index = cache.open_index(CORPUS, folder)
        assert not marker.exists()
        assert index.find(normalize(QUOTE))
    assert reads == [CORPUS, CORPUS]  # the index was rebuilt each time it was planted
    assert isinstance(_payload(path), CorpusIndex)


def test_even_a_pickle_signed_with_the_key_restores_only_an_index(
    tmp_path: Path, monkeypatch
) -> None:
    # Were the key ever read by someone else, the unpickler still refuses anything but an index's classes.
    import hmac

    folder = tmp_path / "cache"
    cache.open_index(CORPUS, folder)
    [path] = folder.glob("index-*.pickle")
    marker = tmp_path / "marker"
    planted = pickle.dumps(Planted(marker))
    secret = (folder / cache.KEY_FILE).read_bytes()
    tag = hmac.new(secret, path.name.encode() + b"\0" + planted, "sha256").digest()
    path.write_bytes(cache.MAGIC + tag + planted)
    reads = _count_reads(monkeypatch)
    assert cache.open_index(CORPUS, folder).find(normalize(QUOTE))
    assert not marker.exists() and reads == [CORPUS]


def test_an_edited_quotes_file_neither_verifies_a_misquote_nor_fails_a_real_quote(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "cache"
    terms = tmp_path / "terms.yaml"
    misquote = "楅長如竿博三寸"
    entry = ENTRY.format(term="楅", locus="")
    terms.write_text(
        entry + entry.replace("id: bi", "id: bi2").replace(QUOTE, misquote), encoding="utf-8"
    )
    first = check_project(terms, CORPUS, cache=IndexCache(folder))
    assert [r.status for r in first.results] == ["verified", "not-found"]
    [path] = folder.glob("quotes-*.pickle")
    found = _payload(path)
    # Remembered too: the 儀禮音義's reading of 楅 (音福), found again for the entry's readings.
    assert set(found) == {normalize(QUOTE), normalize(misquote), normalize("音福")}
    assert len(found[normalize(QUOTE)]) >= 2
    # Swap what is remembered: the misquote "occurs" where the real quote does, the real quote nowhere.
    forged = {
        normalize(QUOTE): type(found[normalize(QUOTE)])("Q"),
        normalize(misquote): found[normalize(QUOTE)],
    }
    data = path.read_bytes()
    path.write_bytes(data[: len(cache.MAGIC) + cache.TAG_BYTES] + pickle.dumps(forged))
    again = check_project(terms, CORPUS, cache=IndexCache(folder))
    assert [r.status for r in again.results] == ["verified", "not-found"]
    assert json.dumps(again.to_json(), ensure_ascii=False) == json.dumps(
        first.to_json(), ensure_ascii=False
    )


def test_a_file_of_another_key_is_not_taken_for_this_one(
    corpus_copy: Path, tmp_path: Path, monkeypatch
) -> None:
    folder = tmp_path / "cache"
    cache.open_index(corpus_copy, folder)
    [old] = folder.glob("index-*.pickle")
    text = (corpus_copy / SEED).read_text(encoding="utf-8")
    _rewrite(corpus_copy, SEED, text.replace("楅长如笴博三寸", "楅长如笴博三寸" + ADDED, 1))
    # An authentic index of the old corpus, renamed to the new corpus' key.
    new = folder / f"index-{cache.corpus_key(corpus_copy)}.pickle"
    shutil.copy(old, new)
    assert cache.open_index(corpus_copy, folder).find(normalize(ADDED))


def _trust(folder: Path) -> list[Path]:
    """Open the corpus through ``folder`` twice; the corpus reads that took."""
    with pytest.MonkeyPatch.context() as patch:
        reads = _count_reads(patch)
        for _ in range(2):
            assert IndexCache(folder).open(CORPUS).find(normalize(QUOTE))
    return reads


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX owners and modes")
def test_a_cache_folder_others_may_write_to_is_not_trusted(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "cache"
    assert _trust(folder) == [CORPUS]  # written once, then read from the cache
    assert (folder.stat().st_mode & 0o777, (folder / cache.KEY_FILE).stat().st_mode & 0o777) == (
        0o700,
        0o600,
    )
    files = sorted(folder.iterdir())
    for mode in (0o770, 0o702, 0o777):
        folder.chmod(mode)
        assert not IndexCache(folder).trusted()
        assert _trust(folder) == [
            CORPUS,
            CORPUS,
        ]  # read afresh each time: nothing taken from the folder
        assert sorted(folder.iterdir()) == files  # and nothing written to it
    folder.chmod(0o755)  # readable by others is no danger: the key itself is not
    assert _trust(folder) == []


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="POSIX owners and modes")
def test_a_key_others_can_read_a_symlinked_folder_or_key_and_a_foreign_owner_are_not_trusted(
    tmp_path: Path, monkeypatch
) -> None:
    folder = tmp_path / "cache"
    assert _trust(folder) == [CORPUS]
    key = folder / cache.KEY_FILE
    key.chmod(0o644)
    assert not IndexCache(folder).trusted() and _trust(folder) == [CORPUS, CORPUS]
    key.chmod(0o600)
    assert IndexCache(folder).trusted()
    link = tmp_path / "link"
    link.symlink_to(folder)
    assert not IndexCache(link).trusted() and _trust(link) == [CORPUS, CORPUS]
    other = tmp_path / "other"
    other.mkdir(mode=0o700)
    (other / cache.KEY_FILE).symlink_to(key)
    assert not IndexCache(other).trusted() and _trust(other) == [CORPUS, CORPUS]
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(folder).st_uid + 1)
    assert not IndexCache(folder).trusted()


def test_a_truncated_key_is_replaced_and_what_it_signed_is_rebuilt(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    assert _trust(folder) == [CORPUS]
    (folder / cache.KEY_FILE).write_bytes(b"short")
    assert IndexCache(folder).trusted()
    assert len((folder / cache.KEY_FILE).read_bytes()) == cache.KEY_BYTES
    assert _trust(folder) == [CORPUS]  # the old files no longer authenticate: rebuilt once


def test_an_unwritable_cache_folder_is_ignored(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    index = cache.open_index(CORPUS, blocked / "cache")
    assert index.find(normalize("楅长如笴博三寸"))


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

    monkeypatch.setattr(cache.Path, "home", staticmethod(no_home))
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
    assert os.environ[cache.ENV] == str(
        tmp_path
    )  # the flag turns the cache off, not the environment
    result = CliRunner().invoke(cli, ["locate", "楅长如笴博三寸", "--corpus", str(CORPUS)])
    assert result.exit_code == 0 and list(tmp_path.glob("index-*.pickle"))


def test_checks_remember_their_quotes_and_give_the_same_report(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    cold = check_project(MINI_TERMS, CORPUS)
    [quotes] = tmp_path.glob("quotes-*.pickle")
    remembered = _payload(quotes)
    quotes_checked = {normalize(c.quote) for e in cold.entries for c in e.citations}
    assert quotes_checked <= set(remembered)
    assert all(
        list(remembered[k]) == [h.start for h in cold.index.find(k) if not h.placeholders]
        for k in sorted(quotes_checked)[:50]
    )
    warm = check_project(MINI_TERMS, CORPUS)
    assert json.dumps(warm.to_json(), ensure_ascii=False) == json.dumps(
        cold.to_json(), ensure_ascii=False
    )
    assert warm.verified == warm.citations


def test_only_the_cache_that_opened_an_index_saves_its_quotes(tmp_path: Path) -> None:
    first, other = IndexCache(tmp_path / "a"), IndexCache(tmp_path / "b")
    index = first.open(CORPUS)
    index.prefetch([normalize(QUOTE)])
    other.save(index)
    assert not list((tmp_path / "b").glob("quotes-*.pickle"))
    first.save(index)
    [quotes] = (tmp_path / "a").glob("quotes-*.pickle")
    assert normalize(QUOTE) in _payload(quotes)
    IndexCache(None).save(index)  # no cache: nothing to do, nothing raised


def test_a_new_quote_is_searched_although_others_are_remembered(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    terms = tmp_path / "terms.yaml"
    entry = ENTRY.format(term="楅", locus="").replace("楅長如笴博三寸", "{quote}")
    terms.write_text(entry.format(quote="楅長如笴博三寸"), encoding="utf-8")
    assert check_project(terms, CORPUS).verified == 1
    terms.write_text(entry.format(quote="司射適堂西袒決遂"), encoding="utf-8")
    report = check_project(terms, CORPUS)
    assert report.verified == 1
    [quotes] = tmp_path.glob("quotes-*.pickle")
    assert {normalize("楅長如笴博三寸"), normalize("司射適堂西袒決遂")} <= set(_payload(quotes))
    terms.write_text(entry.format(quote="司射適堂西袒決竿"), encoding="utf-8")
    assert check_project(terms, CORPUS).verified == 0


def test_old_indexes_are_pruned(tmp_path: Path, monkeypatch) -> None:
    for version in range(cache.KEEP + 2):
        monkeypatch.setattr(cache, "_code_fingerprint", lambda v=version: f"code {v}".encode())
        cache.open_index(CORPUS, tmp_path)
    assert len(list(tmp_path.glob("index-*.pickle"))) == cache.KEEP


def test_a_memo_keeps_what_a_run_used_and_as_many_others_most_recent_first(tmp_path: Path) -> None:
    # Two copies of a terms file checked in turn stay warm; what no run uses any more goes.
    memos = cache.IndexCache(tmp_path / "cache")
    roots = ("glossary.load",)
    for key in ("a", "b", "c"):
        memo = memos.memo("test", roots)
        memo[key] = key.upper()
        memos.keep(memo)
    kept = memos.memo("test", roots)
    assert dict(kept) == {"b": "B", "c": "C"}  # c used last, b the one spare; a dropped
    assert kept.get("b") == "B" and not kept.changed()  # a run that only reads writes nothing
    memos.keep(kept)
    assert dict(memos.memo("test", roots)) == {"b": "B", "c": "C"}
    assert dict(cache.IndexCache(None).memo("test", roots)) == {}  # the cache off: nothing kept


def test_a_temporary_file_left_by_a_killed_run_is_swept_once_an_hour_old(tmp_path: Path) -> None:
    stale, fresh = tmp_path / ".tmp-killed", tmp_path / ".tmp-another-run-writing"
    for path in (stale, fresh):
        path.write_bytes(b"half a pickle")
    os.utime(stale, (0, os.path.getmtime(stale) - cache.STALE_SECONDS - 60))
    cache.open_index(CORPUS, tmp_path)  # writes an index, then tidies the folder
    assert not stale.exists() and fresh.exists()


def test_an_interrupted_write_removes_its_temporary_file(tmp_path: Path, monkeypatch) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cache.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        cache.open_index(CORPUS, tmp_path)
    assert list(tmp_path.glob(".tmp-*")) == []
