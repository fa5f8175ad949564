"""The corpus cache: used when nothing changed, rebuilt when anything did, never in the way."""
from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS, ROOT
from test_citations import ENTRY

from glossary import cache
from glossary.check import check_project
from glossary.corpus import CorpusError
from glossary.normalize import normalize

SEED = "000_b6ac9449aa5994ba.txt"
#: A sentence written into a copy of the corpus, in no text of the real one.
ADDED = "此句乃測試之所加者也"


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


def _no_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(root):
        raise AssertionError("the corpus was read although the cache holds its index")

    monkeypatch.setattr(cache, "load_corpus", refuse)


def test_second_open_comes_from_the_cache_and_equals_a_fresh_read(tmp_path: Path, monkeypatch) -> None:
    fresh = cache.open_index(CORPUS, tmp_path)
    assert len(list(tmp_path.glob("index-*.pickle"))) == 1
    _no_reading(monkeypatch)
    cached = cache.open_index(CORPUS, tmp_path)
    assert cached is not fresh
    assert cached.text == fresh.text
    hits = cached.find(normalize("楅长如笴博三寸"))
    assert [cached.locus(h).to_json() for h in hits] == [fresh.locus(h).to_json() for h in fresh.find(normalize("楅长如笴博三寸"))]
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


def test_a_file_that_no_longer_matches_its_checksum_fails_even_when_cached(corpus_copy: Path, tmp_path: Path) -> None:
    cache.open_index(corpus_copy, tmp_path)
    (corpus_copy / SEED).write_text("tampered", encoding="utf-8")
    with pytest.raises(CorpusError, match="SHA256SUMS"):
        cache.open_index(corpus_copy, tmp_path)


def test_a_change_of_code_or_tables_changes_the_key(monkeypatch) -> None:
    before = cache.corpus_key(CORPUS)
    monkeypatch.setattr(cache, "_code_fingerprint", lambda: b"another normalisation table")
    assert cache.corpus_key(CORPUS) != before


def test_a_broken_cache_file_is_only_a_miss(tmp_path: Path) -> None:
    cache.open_index(CORPUS, tmp_path)
    [path] = tmp_path.glob("index-*.pickle")
    path.write_bytes(b"not a pickle")
    index = cache.open_index(CORPUS, tmp_path)
    assert index.find(normalize("楅长如笴博三寸"))
    path.write_bytes(pickle.dumps({"a": "dict, not an index"}))
    assert cache.open_index(CORPUS, tmp_path).find(normalize("楅长如笴博三寸"))
    assert isinstance(pickle.loads(path.read_bytes()), cache.CorpusIndex)  # rewritten whole


def test_an_unwritable_cache_folder_is_ignored(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder should be", encoding="utf-8")
    index = cache.open_index(CORPUS, blocked / "cache")
    assert index.find(normalize("楅长如笴博三寸"))


def test_where_the_cache_lives(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, "")
    assert cache.default_dir() is None
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    assert cache.default_dir() == tmp_path
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
    result = CliRunner().invoke(cli, ["--no-cache", "locate", "楅长如笴博三寸", "--corpus", str(CORPUS)])
    assert result.exit_code == 0 and "取矢" in result.output
    assert list(tmp_path.iterdir()) == []


def test_checks_remember_their_quotes_and_give_the_same_report(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    cold = check_project(ROOT / "terms.yaml", CORPUS)
    [quotes] = tmp_path.glob("quotes-*.pickle")
    remembered = pickle.loads(quotes.read_bytes())
    quotes_checked = {normalize(c.quote) for e in cold.entries for c in e.citations}
    assert quotes_checked <= set(remembered)
    assert all(list(remembered[k]) == [h.start for h in cold.index.find(k) if not h.placeholders] for k in sorted(quotes_checked)[:50])
    warm = check_project(ROOT / "terms.yaml", CORPUS)
    assert json.dumps(warm.to_json(), ensure_ascii=False) == json.dumps(cold.to_json(), ensure_ascii=False)
    assert warm.verified == warm.citations


def test_a_new_quote_is_searched_although_others_are_remembered(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(cache.ENV, str(tmp_path))
    terms = tmp_path / "terms.yaml"
    entry = ENTRY.format(term="楅", locus="").replace("楅長如笴博三寸", "{quote}")
    terms.write_text(entry.format(quote="楅長如笴博三寸"), encoding="utf-8")
    assert check_project(terms, CORPUS).verified == 1
    terms.write_text(entry.format(quote="司射適堂西袒決遂"), encoding="utf-8")
    report = check_project(terms, CORPUS)
    assert report.verified == 1
    [quotes] = tmp_path.glob("quotes-*.pickle")
    assert {normalize("楅長如笴博三寸"), normalize("司射適堂西袒決遂")} <= set(pickle.loads(quotes.read_bytes()))
    terms.write_text(entry.format(quote="司射適堂西袒決竿"), encoding="utf-8")
    assert check_project(terms, CORPUS).verified == 0


def test_old_indexes_are_pruned(tmp_path: Path, monkeypatch) -> None:
    for version in range(cache.KEEP + 2):
        monkeypatch.setattr(cache, "_code_fingerprint", lambda v=version: f"code {v}".encode())
        cache.open_index(CORPUS, tmp_path)
    assert len(list(tmp_path.glob("index-*.pickle"))) == cache.KEEP
