"""Fixtures of the test suite.

Tests run on a small fixture corpus and glossary (``tests/fixtures``): ``corpus``, ``index``
and ``doc`` are the mini corpus, ``mini_project`` is a project folder made of the fixtures.
Only the tests about the shipped data (``tests/data``) read ``corpus/``, ``terms.yaml`` and
``plan.yaml`` of the repository, through the fixtures and names that say so (``shipped_…``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from glossary.corpus import Corpus, load_corpus
from glossary.index import CorpusIndex
from glossary.load import load_bytes, load_yaml
from glossary.model import Entry
from glossary.validate import validate
from glossary.vocab import Rite, vocabulary

ROOT = Path(__file__).resolve().parent.parent

FIXTURES = ROOT / "tests" / "fixtures"
MINI_CORPUS = FIXTURES / "corpus-mini"
MINI_TERMS = FIXTURES / "terms-mini.yaml"
MINI_PLAN = FIXTURES / "plan-mini.yaml"

SHIPPED_CORPUS = ROOT / "corpus"
SHIPPED_TERMS = ROOT / "terms.yaml"
SHIPPED_PLAN = ROOT / "plan.yaml"


SHIPPED_DATA_TESTS = ROOT / "tests" / "data"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test of the shipped data (``tests/data``) is slow: it reads the whole corpus or
    glossary and grows with them, so the quick loop (``-m "not slow"``) stays the same size
    however many entries the glossary gains."""
    for item in items:
        if item.path.is_relative_to(SHIPPED_DATA_TESTS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus cache of this test run: never the user's own (~/.cache)."""
    folder = tmp_path_factory.mktemp("glossary-cache")
    os.environ["GLOSSARY_CACHE_DIR"] = str(folder)
    return folder


@pytest.fixture(scope="session", autouse=True)
def shared_indexes(cache_dir: Path) -> Iterator[None]:
    """Through the run's own cache folder, each corpus is opened once per test run: a hundred
    checks and builds of the mini project would otherwise each read its index back from the JSON
    cache and align its two witnesses again (a third of the quick loop). The key is the cache's
    own (the corpus bytes, the code, the libraries), so a changed corpus is read afresh; a test
    of the cache itself gives a folder of its own, which this leaves alone."""
    from glossary import cache as cache_module

    real = cache_module.IndexCache.open
    opened: dict[str, CorpusIndex] = {}

    def open_once(self: cache_module.IndexCache, root: Path | str) -> CorpusIndex:
        if self.folder != cache_dir:
            return real(self, root)
        key = cache_module.corpus_key(root)
        if key not in opened:
            opened[key] = real(self, root)
        return opened[key]

    patch = pytest.MonkeyPatch()
    patch.setattr(cache_module.IndexCache, "open", open_once)
    yield
    patch.undo()


# -- the mini corpus and glossary (tests/fixtures) ---------------------------------------------


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    """The mini corpus, read."""
    return load_corpus(MINI_CORPUS)


@pytest.fixture(scope="session")
def index(corpus: Corpus) -> CorpusIndex:
    """The mini corpus, indexed."""
    return CorpusIndex(corpus)


def _finder(corpus: Corpus):
    def find(path: str):
        return next(d for d in corpus.documents if d.path == path)

    return find


@pytest.fixture(scope="session")
def doc(corpus: Corpus):
    """A document of the mini corpus by its path: ``doc("000_b6ac9449aa5994ba.txt")``."""
    return _finder(corpus)


def raw(path: str) -> str:
    """A mini corpus file's text, for finding offsets to ask a document about."""
    return (MINI_CORPUS / path).read_text(encoding="utf-8")


def mini_entries() -> dict[str, Entry]:
    """The entries of terms-mini.yaml by id: what the fixture itself says, to compare outputs with
    (a fresh dict each time; the entries are frozen)."""
    return dict(_mini_entries())


@cache
def _mini_entries() -> dict[str, Entry]:
    entries, problems = validate(load_yaml(MINI_TERMS), MINI_TERMS.parent)
    assert not problems, problems
    return {entry.id: entry for entry in entries}


def make_project(
    folder: Path, terms: str | bytes | None = None, plan: bool = True, corpus: bool = True
) -> Path:
    """A project folder: ``terms.yaml`` (terms-mini.yaml unless given), ``plan.yaml``, ``corpus/``."""
    folder.mkdir(parents=True, exist_ok=True)
    if terms is None:
        terms = MINI_TERMS.read_bytes()
    (folder / "terms.yaml").write_bytes(terms.encode("utf-8") if isinstance(terms, str) else terms)
    if plan:
        shutil.copyfile(MINI_PLAN, folder / "plan.yaml")
    if corpus:
        shutil.copytree(MINI_CORPUS, folder / "corpus")
    return folder


def rite_named(name: str) -> Rite:
    """The vocabulary's rite of a name a test knows to be one (any script, alias or id)."""
    found = vocabulary().rite(name)
    assert found is not None, name
    return found


def search(pattern: str, text: str, flags: int = 0) -> re.Match[str]:
    """``re.search`` of what a test knows is there: a miss fails the test by the pattern."""
    match = re.search(pattern, text, flags)
    assert match is not None, f"{pattern!r} not in {text[:200]!r}"
    return match


def load_script(path: Path, register: bool = False) -> ModuleType:
    """A script that is no module of the package (``scripts/*.py``, a fixture's) imported by its
    path. ``register``: put it in ``sys.modules`` (its dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def mini_project(tmp_path: Path) -> Path:
    """A project folder of the fixtures: terms.yaml, plan.yaml and corpus/ (no Anki ledger yet)."""
    return make_project(tmp_path / "project")


def set_field(text: str, entry_id: str, field: str, value: object) -> str:
    """``text`` (a terms file) with one field of one entry replaced by ``value``.

    The field's lines (a block scalar's too) become one line in JSON's notation (a
    double-quoted string, a flow list), so tests change an entry without depending on how
    the fixture happens to lay it out.
    """
    loaded = load_bytes(text.encode("utf-8"), "terms.yaml")
    assert not loaded.problems, loaded.problems
    assert isinstance(loaded.data, list)
    position = next(i for i, item in enumerate(loaded.data) if item.get("id") == entry_id)
    assert field in loaded.data[position], (entry_id, field)
    lines = text.splitlines(keepends=True)
    first = loaded.lines[(position, field)] - 1
    indent = len(lines[first]) - len(lines[first].lstrip(" "))
    assert lines[first].lstrip(" ").startswith(f"{field}:"), lines[first]
    last = first + 1
    while last < len(lines) and (
        not lines[last].strip() or len(lines[last]) - len(lines[last].lstrip(" ")) > indent
    ):
        last += 1
    while last > first + 1 and not lines[last - 1].strip():
        last -= 1  # blank lines after the value belong to what follows
    replacement = f"{' ' * indent}{field}: {json.dumps(value, ensure_ascii=False)}\n"
    return "".join(lines[:first] + [replacement] + lines[last:])


# -- the shipped data (tests/data only) ---------------------------------------------------------


@pytest.fixture(scope="session")
def shipped_corpus() -> Corpus:
    """The repository's own corpus/, read (checksums checked)."""
    return load_corpus(SHIPPED_CORPUS)


@pytest.fixture(scope="session")
def shipped_index(shipped_corpus: Corpus) -> CorpusIndex:
    return CorpusIndex(shipped_corpus)


@pytest.fixture(scope="session")
def shipped_entries() -> list[Entry]:
    """The shipped glossary's entries; the file itself must have no problem."""
    from glossary.validate import load_entries

    entries, problems = load_entries(SHIPPED_TERMS)
    assert not problems, "\n".join(map(str, problems))
    return entries


@pytest.fixture(scope="session")
def shipped_doc(shipped_corpus: Corpus):
    return _finder(shipped_corpus)


@pytest.fixture(scope="session")
def shipped_dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every output of the shipped terms and corpus, built once per run with a fixed date, in a
    project copy of its own (the Anki tests of several modules import these packages)."""
    from click.testing import CliRunner

    from glossary.cli import cli

    base = tmp_path_factory.mktemp("shipped-build")
    project = base / "project"
    project.mkdir()
    for name in ("terms.yaml", "plan.yaml", "stages.yaml", "retired.yaml", "anki-ledger.json"):
        if (ROOT / name).exists():
            shutil.copyfile(ROOT / name, project / name)
    shutil.copytree(ROOT / "corpus", project / "corpus")
    if (ROOT / "media").exists():
        shutil.copytree(ROOT / "media", project / "media")
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1800000000"}
    result = CliRunner(env=env).invoke(
        cli,
        [
            "build",
            "--terms",
            str(project / "terms.yaml"),
            "--corpus",
            str(project / "corpus"),
            "--out",
            str(base / "dist"),
        ],
    )
    assert result.exit_code == 0, result.output
    return base / "dist"


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium through Playwright (its own browser download is not used), offline like
    the printer: no proxy, no host name resolves; a page under test must need none."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-proxy-server", "--host-resolver-rules=MAP * ~NOTFOUND"],
        )
        yield launched
        launched.close()
