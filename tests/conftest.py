from __future__ import annotations

import os
from pathlib import Path

import pytest

from glossary.corpus import Corpus, load_corpus
from glossary.index import CorpusIndex

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
TERMS = ROOT / "terms.yaml"


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The corpus cache of this test run: never the user's own (~/.cache)."""
    folder = tmp_path_factory.mktemp("glossary-cache")
    os.environ["GLOSSARY_CACHE_DIR"] = str(folder)
    return folder


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return load_corpus(CORPUS)


@pytest.fixture(scope="session")
def index(corpus: Corpus) -> CorpusIndex:
    return CorpusIndex(corpus)


def raw(path: str) -> str:
    """A corpus file's text, for finding offsets to ask a document about."""
    return (CORPUS / path).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def doc(corpus: Corpus):
    def find(path: str):
        return next(d for d in corpus.documents if d.path == path)

    return find
