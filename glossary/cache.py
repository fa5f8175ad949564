"""The cache: the corpus index, and the last results of a whole check, kept between runs.

Two kinds of file, each named by the digest of everything it was made from:

- ``index-KEY.json``: the read and indexed corpus (:class:`~glossary.index.CorpusIndex`). KEY
  (:func:`corpus_key`) is the digest of the corpus' bytes (the manifest, ``SHA256SUMS`` and every
  file it lists) and of :func:`code_key`: every file of the ``glossary`` package (its code and
  data tables; the templates only render), Python's version and the versions of the libraries
  of :data:`LIBRARIES`. Reading the corpus costs several times what opening this file does.
- ``check-KEY.json``: what a whole ``glossary check`` found, reused only when KEY (made by
  :func:`glossary.check.run_key`: every byte the check reads, the corpus key and the code key)
  is the same: a run after any edit checks everything again.

Nothing in the cache can run code: files are JSON, read back into the few classes an index is
made of by their constructors. A file that cannot be read, fails its checksum or does not have
the expected shape is a miss: the index or the check is made again and the file written anew.
Files are written to a temporary name and renamed; the :data:`KEEP` most recently used of each
kind are kept.

Where: ``$GLOSSARY_CACHE_DIR``, else ``$XDG_CACHE_HOME/yili-glossary``, else
``~/.cache/yili-glossary``; ``GLOSSARY_CACHE_DIR=""`` (or ``glossary --no-cache``) turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from glossary import nogc

if TYPE_CHECKING:
    from glossary.index import CorpusIndex

ENV = "GLOSSARY_CACHE_DIR"
#: Bump when the layout of the files changes.
FORMAT = 3
#: Files of each kind kept (a few corpus or code versions, a few terms files or branches).
KEEP = 4
#: Distributions whose behaviour shapes an index or a check (the tables of OpenCC, the parsers).
LIBRARIES = ("OpenCC", "pyahocorasick", "PyYAML", "jsonschema-rs", "rapidfuzz", "tshet-uinh")
#: A temporary file of the cache older than this (seconds) was left by a killed run.
STALE_SECONDS = 3600
#: A cache file larger than this is not read (the index of a 10 M-character corpus is ~70 MB).
MAX_BYTES = 1 << 30
PACKAGE = Path(__file__).resolve().parent
MAGIC = b"yili-glossary-cache"


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


@cache
def code_key() -> str:
    """The digest of the code a result comes from: the package's files, Python, the libraries."""
    from importlib import metadata

    digest = hashlib.sha256(f"{FORMAT}:{sys.version}:{sys.platform}".encode())
    for name in LIBRARIES:
        try:
            digest.update(f"{name}={metadata.version(name)};".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=none;".encode())
    top = str(PACKAGE)
    files: list[str] = []
    for folder, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "templates")]
        files.extend(os.path.join(folder, n) for n in names if not n.endswith(".pyc"))
    for path in sorted(files):
        with open(path, "rb") as handle:
            digest.update(os.path.relpath(path, top).encode() + b"\0" + handle.read() + b"\0")
    return digest.hexdigest()


def corpus_key(root: Path | str) -> str:
    """The digest of the corpus at ``root`` as it is on disk, and of :func:`code_key`.

    The files are those ``SHA256SUMS`` lists, read as the corpus reader reads them (inside the
    folder, no links); one that cannot be read enters the key as such, and reading the corpus
    then says what is wrong. A file changed without its checksum line makes a new key, so the
    reader, not the cache, meets it (and refuses it).
    """
    from glossary.corpus import MAX_FILE_BYTES, CorpusError, corpus_path, read_checksums
    from glossary.files import UnreadableFile, read_bounded

    root = Path(root)
    digest = hashlib.sha256(code_key().encode())
    for name in ("manifest.yaml", "SHA256SUMS"):
        digest.update(name.encode() + b"\0" + _bytes(root / name, MAX_FILE_BYTES) + b"\0")
    try:
        names = sorted(read_checksums(root))
    except CorpusError:
        names = []
    for name in names:
        try:
            data = hashlib.sha256(read_bounded(corpus_path(root, name), MAX_FILE_BYTES)).digest()
        except (CorpusError, OSError, UnreadableFile):
            data = b"unreadable"
        digest.update(name.encode() + b"\0" + data)
    return digest.hexdigest()


def _bytes(path: Path, limit: int) -> bytes:
    """A file's bytes for a key; a missing or unreadable file is a marker of its own."""
    from glossary.files import UnreadableFile, read_bounded

    try:
        return b"+" + read_bounded(path, limit)
    except (OSError, UnreadableFile):
        return b"-"


class IndexCache:
    """The cache folder (None: no cache): corpus indexes and whole checks' results."""

    def __init__(self, folder: Path | str | None) -> None:
        self.folder = Path(folder) if folder is not None else None

    @classmethod
    def from_environment(cls) -> IndexCache:
        """The cache :func:`default_dir` names ($GLOSSARY_CACHE_DIR, XDG, ~/.cache; "" = off)."""
        return cls(default_dir())

    def __repr__(self) -> str:
        return f"IndexCache({str(self.folder) if self.folder else None!r})"

    def open(self, root: Path | str) -> CorpusIndex:
        """The corpus at ``root``, read and indexed: from the cache when nothing changed.

        Raises :class:`CorpusError` as :func:`~glossary.corpus.load_corpus` does (a missing
        file, a changed checksum): such a corpus is never in the cache.
        """
        from glossary.corpus import load_corpus
        from glossary.index import CorpusIndex

        if self.folder is None:
            return CorpusIndex(load_corpus(root))
        name = f"index-{corpus_key(root)}.json"
        with nogc.paused():  # tens of thousands of objects, none of them garbage
            stored = self.read(name)
            if stored is not None:
                try:
                    return CorpusIndex.from_state(stored)  # type: ignore[arg-type]
                except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                    pass  # another shape (a hand-edited file): made again below
        index = CorpusIndex(load_corpus(root))
        self.write(name, index.state())
        return index

    def read(self, name: str) -> object:
        """The JSON value kept under ``name``, or None (no cache, no file, a damaged file)."""
        from glossary.files import UnreadableFile, read_bounded

        if self.folder is None:
            return None
        try:
            # Bounded and regular files only: a FIFO or /dev/zero planted here is a miss.
            head, _, body = read_bounded(self.folder / name, MAX_BYTES).partition(b"\n")
            os.utime(self.folder / name)  # most recently used: kept when others are pruned
        except (OSError, UnreadableFile):
            return None
        if head != MAGIC + b" " + hashlib.sha256(body).hexdigest().encode():
            return None  # truncated, edited or of another layout
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            return None

    def write(self, name: str, value: object) -> None:
        """Keep ``value`` (JSON data) under ``name``: written whole, then renamed into place."""
        if self.folder is None:
            return
        import tempfile  # here: only a run that writes needs it

        body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
        temporary = None
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            with os.fdopen(handle, "wb") as stream:
                stream.write(MAGIC + b" " + hashlib.sha256(body).hexdigest().encode() + b"\n")
                stream.write(body)
            os.replace(temporary, self.folder / name)
            temporary = None
            self._prune(name.split("-", 1)[0])
        except OSError:
            pass  # a full disk or a read-only home: the run goes on without writing
        finally:
            if temporary is not None:
                Path(temporary).unlink(missing_ok=True)

    def _prune(self, kind: str) -> None:
        assert self.folder is not None
        files = sorted(
            self.folder.glob(f"{kind}-*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True
        )
        for old in files[KEEP:]:
            old.unlink(missing_ok=True)
        # What a run killed outright (SIGKILL, power) left before its rename: an hour old, no run
        # is still writing it. (Ctrl-C and SIGTERM remove their own: see write's ``finally``.)
        for stale in self.folder.glob(".tmp-*"):
            with contextlib.suppress(OSError):
                if time.time() - stale.lstat().st_mtime > STALE_SECONDS:
                    stale.unlink()
