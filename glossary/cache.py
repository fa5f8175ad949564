"""A cache of the read and indexed corpus, keyed by every byte it was built from.

Reading the corpus (pages, 卷, sections, commentators) and normalising it costs far more
than the checks themselves; the corpus rarely changes while terms.yaml changes on every
edit. So the built :class:`~glossary.index.CorpusIndex` is kept on disk, under a key made
of the corpus files, the manifest, ``SHA256SUMS`` and the code and tables that read them:
any change to any of these builds the index anew, so a stale index is never used.

The cache lives in ``$GLOSSARY_CACHE_DIR``, else ``$XDG_CACHE_HOME/yili-glossary``, else
``~/.cache/yili-glossary``; ``GLOSSARY_CACHE_DIR=""`` (or ``glossary --no-cache``) turns it
off. It holds pickles, so it must be a folder only its user writes to, like any cache
folder in the home directory. A cache that cannot be read or written is ignored.

Beside each index, the occurrences of every quote a check has looked for are kept under
the same key (:func:`remember`): a quote depends only on the index text, so a run after an
edit searches the corpus only for the quotes that are new.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
import weakref
from array import array
from importlib import resources
from pathlib import Path

from glossary import nogc
from glossary.corpus import CorpusError, load_corpus, read_manifest
from glossary.index import CorpusIndex

#: Bump when the pickled layout changes in a way the code fingerprint would not show.
FORMAT = 1
#: Indexes kept (one per corpus version and code version); older ones are removed.
KEEP = 4
ENV = "GLOSSARY_CACHE_DIR"
#: The code and tables that shape the index: a change to any of them is a change of key.
CODE = ("corpus", "index.py", "normalize.py", "offsets.py", "data", "cache.py")
#: Quotes whose occurrences are remembered per index; the most recently found are kept.
KEEP_QUOTES = 50_000

#: Indexes read through the cache: where their quotes are remembered, and how many were.
_origins: "weakref.WeakKeyDictionary[CorpusIndex, tuple[Path, int]]" = weakref.WeakKeyDictionary()


def default_dir() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    if ENV in os.environ:
        return Path(os.environ[ENV]) if os.environ[ENV] else None
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]) / "yili-glossary"
    try:
        return Path.home() / ".cache" / "yili-glossary"
    except RuntimeError:
        return None  # no home to keep a cache in (a bare container user): check without one


def _code_fingerprint() -> bytes:
    digest = hashlib.sha256()
    package = resources.files("glossary")
    for name in CODE:
        node = package.joinpath(name)
        files = sorted(node.iterdir(), key=lambda f: f.name) if node.is_dir() else [node]
        for file in files:
            if file.name.endswith((".py", ".tsv")):
                digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.digest()


def corpus_key(root: Path) -> str:
    """A digest of everything the index of ``root`` is built from."""
    digest = hashlib.sha256(f"{FORMAT}:{sys.version_info[:2]}:{pickle.HIGHEST_PROTOCOL}".encode())
    digest.update(_code_fingerprint())
    for name in ("manifest.yaml", "SHA256SUMS"):
        path = root / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.exists() else b"-") + b"\0")
    for info in read_manifest(root):
        for name in info.files:
            try:
                data = (root / name).read_bytes()
            except OSError as exc:
                raise CorpusError(f"{root / name}: {exc.strerror}") from None
            digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def open_index(root: Path | str, cache_dir: Path | None = None) -> CorpusIndex:
    """The corpus at ``root``, read and indexed: from the cache when nothing changed.

    ``cache_dir`` defaults to :func:`default_dir`. Raises :class:`CorpusError` as
    :func:`~glossary.corpus.load_corpus` does (a missing file, a changed checksum).
    """
    root = Path(root)
    folder = cache_dir if cache_dir is not None else default_dir()
    if folder is None:
        return CorpusIndex(load_corpus(root))
    key = corpus_key(root)
    path = folder / f"index-{key}.pickle"
    index = _read(path, CorpusIndex)
    if index is None:
        index = CorpusIndex(load_corpus(root))
        _write(path, index)
    quotes = folder / f"quotes-{key}.pickle"
    found = _read(quotes, dict) or {}
    index.remember({k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, array)})
    _origins[index] = (quotes, len(index.remembered()))
    return index


def remember(index: CorpusIndex) -> None:
    """Keep the occurrences of the quotes ``index`` has looked for, if it came from the cache."""
    if index not in _origins:
        return
    path, known = _origins[index]
    found = index.remembered()
    if len(found) == known:
        return  # nothing new: the file stays as it is
    # Newest last (dicts keep insertion order): the oldest quotes are the ones dropped.
    kept = dict(list(found.items())[-KEEP_QUOTES:])
    _write(path, kept)
    _origins[index] = (path, len(found))


def _read(path: Path, kind: type) -> object:
    try:
        with path.open("rb") as handle, nogc.paused():
            value = pickle.load(handle)
    except Exception:  # noqa: BLE001 - a missing, truncated or foreign file is only a cache miss
        return None
    if not isinstance(value, kind):
        return None
    try:
        os.utime(path)  # most recently used: kept when older indexes are pruned
    except OSError:
        pass
    return value


def _write(path: Path, value: object) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False)
    except OSError:
        return  # a read-only home, say: the check goes on without a cache
    try:
        # Written to a temporary file and renamed: another run never reads half a file.
        with handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, path)
        _prune(path)
    except OSError:
        Path(handle.name).unlink(missing_ok=True)


def _prune(written: Path) -> None:
    folder = written.parent
    # The file just written stays whatever the clock's resolution says of its age.
    others = [p for p in folder.glob("index-*.pickle") if p.name != written.name]
    indexes = sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)
    for old in indexes[KEEP - 1 :]:
        old.unlink(missing_ok=True)
        (folder / old.name.replace("index-", "quotes-", 1)).unlink(missing_ok=True)
