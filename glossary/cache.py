"""A cache of the read and indexed corpus, keyed by every byte it was built from.

Reading the corpus (pages, 卷, sections, commentators) and normalising it costs far more
than the checks themselves; the corpus rarely changes while terms.yaml changes on every
edit. So the built :class:`~glossary.index.CorpusIndex` is kept on disk, under a key made
of the corpus files, the manifest, ``SHA256SUMS``, the code that reads and indexes them
(found from the source, see :func:`index_code`), the data tables that code loads, and the
versions of Python and of the libraries whose tables shape the result (OpenCC's
traditional→simplified table; pyahocorasick, which finds the remembered quotes): any
change to any of these builds the index anew, so a stale index is never used.

Beside each index, the occurrences of every quote a check has looked for are kept under
the same key (:meth:`IndexCache.save`): a quote depends only on the index text, so a run
after an edit searches the corpus only for the quotes that are new. Plain data other code
makes from an index (the 儀禮音義's notes analysed, for the readings) can be kept beside it too
(:meth:`IndexCache.derived`), under the index's key and the fingerprint of that code.

Where: ``$GLOSSARY_CACHE_DIR``, else ``$XDG_CACHE_HOME/yili-glossary``, else
``~/.cache/yili-glossary``; ``GLOSSARY_CACHE_DIR=""`` (or ``glossary --no-cache``) turns it
off. A cache that cannot be read or written is ignored.

Why the files cannot run code. An index is thousands of objects (documents, streams,
offset maps) that pickle restores in C; JSON or plain arrays would mean rebuilding them in
Python code of our own, on the path every warm check takes. But unpickling a planted file
runs its code, and an edited file of remembered quotes would make a misquote verify. So every file is
authenticated: it starts with an HMAC-SHA256, over the file's name and contents, under a
random 256-bit key kept in ``hmac-key`` (mode 0600) in the cache folder (created 0700).
The tag is checked *before* anything is unpickled (the file is read through the HMAC in
chunks, then unpickled from the same open file: files are replaced by rename, never
rewritten in place); a file whose tag does not match (planted, edited, truncated,
renamed from another key) is a miss, and the index is rebuilt and written anew. Whoever
cannot read the key cannot make a file we accept. The folder and the key are trusted
only if they are not symlinks, are owned by the user, and are not writable by group or
others (the key not readable by them either): otherwise the cache is not used at all, and
the corpus is read afresh. As a second wall, the unpickler restores only the few classes
an index is made of (:data:`ALLOWED`). Cost: about 2 ms to authenticate a 3 MB index.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import pickle
import re
import stat
import sys
import time
import weakref
from array import array
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar

from glossary import nogc

if TYPE_CHECKING:
    from glossary.index import CorpusIndex

# The corpus readers and the index are imported when an index is opened, not with this module:
# the CLI makes an IndexCache for every command, and `glossary fmt` reads no corpus.

T = TypeVar("T")
#: Bump when the file layout or pickled layout changes in a way the code fingerprint would not show.
FORMAT = 2
#: Indexes kept (one per corpus version and code version); older ones are removed.
KEEP = 4
#: A temporary file of the cache older than this (seconds) was left by a killed run.
STALE_SECONDS = 3600
ENV = "GLOSSARY_CACHE_DIR"
#: Quotes whose occurrences are remembered per index; the most recently found are kept.
KEEP_QUOTES = 50_000
#: A memo keeps, besides the values a run used, at most this many times as many others.
MEMO_SPARE = 1
#: The code that builds an index: these modules and packages (every module in the folder),
#: and every glossary module they import, found in their source (see :func:`index_code`).
INDEX_ROOTS = ("glossary.index", "glossary.corpus", "glossary.cache")
#: Distributions whose tables shape the index or the quotes remembered beside it.
LIBRARIES = ("OpenCC", "pyahocorasick")
#: The only globals an index or a quotes file may name (module, name): data classes, no callables.
ALLOWED = frozenset(
    {
        ("array", "array"),
        ("array", "_array_reconstructor"),
        ("glossary.index", "CorpusIndex"),
        ("glossary.corpus", "Corpus"),
        ("glossary.offsets", "_restore"),
        ("glossary.corpus.model", "Document"),
        ("glossary.corpus.model", "Stream"),
        ("glossary.corpus.model", "TextInfo"),
        ("glossary.corpus.model", "CorpusWarning"),
        # the alignments of the corpus' renderings, kept beside its index (IndexCache.alignments)
        ("glossary.model", "Alignment"),
        ("glossary.model", "Pair"),
        ("glossary.model", "Passage"),
        ("glossary.model", "Paragraph"),
        # the received text aligned with the primary's classic (IndexCache.beside_index)
        ("glossary.enrich.witness", "Witnessing"),
    }
)
#: The code an alignment is computed by, besides the index's (its key adds their source).
ALIGN_CODE = ("enrich/align.py", "enrich/align_dp.py", "model.py")
KEY_FILE = "hmac-key"
KEY_BYTES = 32
#: Every cache file starts with this, then the HMAC-SHA256 tag, then the pickle.
MAGIC = b"yili-glossary-cache\0"
TAG_BYTES = 32
PACKAGE = Path(__file__).resolve().parent


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


# -- the key -------------------------------------------------------------------------------
#: ``from glossary.x import a, b`` (parenthesised over lines too) and ``import glossary.x``, indented or not.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(glossary[\w.]*)[ \t]+import[ \t]*(?:\(([^)]*)\)|([^\n]*))"
    r"|import[ \t]+(glossary[\w.]*))",
    re.MULTILINE,
)


def _modules() -> dict[str, str]:
    """Every module and package of the glossary package by dotted name, with its source file."""
    # Plain strings, not Paths: this runs on every check, and pathlib would be most of its cost.
    found: dict[str, str] = {}
    top = str(PACKAGE)
    for folder, dirs, names in os.walk(top):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        relative = os.path.relpath(folder, top)
        prefix = "glossary" if relative == "." else "glossary." + relative.replace(os.sep, ".")
        for name in names:
            if name.endswith(".py"):
                module = prefix if name == "__init__.py" else f"{prefix}.{name[:-3]}"
                found[module] = os.path.join(folder, name)
    return found


@cache
def index_code(roots: tuple[str, ...] = INDEX_ROOTS) -> tuple[Path, ...]:
    """The source files and data tables an index is built by, derived from the code.

    From :data:`INDEX_ROOTS` (a package brings every module of its folder, as the corpus
    readers are chosen by the manifest), follow every ``glossary`` import in the source,
    lazy ones too; add each table of ``glossary/data`` whose file name the source names.
    (Other ``roots``: the code of data derived from an index, :meth:`IndexCache.derived`.)
    """
    modules = _modules()
    data = os.path.join(str(PACKAGE), "data")
    tables = [
        os.path.join(data, n) for n in sorted(os.listdir(data)) if not n.endswith((".py", ".pyc"))
    ]
    pending = [modules[name] for name in roots]
    for root in list(pending):
        if os.path.basename(root) == "__init__.py":
            pending.extend(
                sorted(p for p in modules.values() if os.path.dirname(p) == os.path.dirname(root))
            )
    files: set[str] = set()
    while pending:
        path = pending.pop()
        if path in files:
            continue
        files.add(path)
        with open(path, encoding="utf-8") as handle:
            source = handle.read()
        for match in _IMPORT.finditer(source):
            module = match.group(1) or match.group(4)
            names = (
                re.sub(r"#[^\n]*|\bas\s+\w+", "", match.group(2) or match.group(3) or "")
                .replace(",", " ")
                .split()
            )
            pending.extend(
                modules[m] for m in [module, *(f"{module}.{n}" for n in names)] if m in modules
            )
        files.update(
            table for table in tables if os.path.basename(table) in source and os.path.isfile(table)
        )
    return tuple(Path(p) for p in sorted(files))


@lru_cache(maxsize=1)
def _code_fingerprint() -> bytes:
    return _fingerprint(INDEX_ROOTS)


@cache
def _fingerprint(roots: tuple[str, ...]) -> bytes:
    digest = hashlib.sha256()
    top = len(str(PACKAGE)) + 1
    for path in map(str, index_code(roots)):
        with open(path, "rb") as handle:
            digest.update(path[top:].replace(os.sep, "/").encode() + b"\0" + handle.read() + b"\0")
    return digest.digest()


def installed_version(distribution: str) -> str:
    """A distribution's installed version, as :func:`importlib.metadata.version` gives it.

    Read from the ``.dist-info`` folder's name on ``sys.path`` (what importlib.metadata
    reads, first match wins), because importing importlib.metadata (email, zipfile, csv …)
    costs a warm check about 20 ms, more than the rest of the key; any other layout falls
    back to importlib.metadata.
    """
    wanted = re.sub(r"[-_.]+", "_", distribution).lower()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info"):
                project, _, version = name[: -len(".dist-info")].partition("-")
                if version and re.sub(r"[-_.]+", "_", project).lower() == wanted:
                    return version
    from importlib import metadata

    return metadata.version(distribution)


@lru_cache(maxsize=1)
def _environment() -> bytes:
    versions = ";".join(f"{name}={installed_version(name)}" for name in LIBRARIES)
    return f"{FORMAT}:{sys.version_info[:2]}:{pickle.HIGHEST_PROTOCOL}:{versions}".encode()


def corpus_key(root: Path) -> str:
    """A digest of everything the index of ``root`` is built from.

    The files are read as the corpus reader reads them (inside the corpus folder, no links,
    each checked against its SHA256SUMS line), so the key is never computed from a file the
    corpus may not use; a file that matches its line is then named by that line's digest.
    """
    from glossary.corpus import (
        MAX_FILE_BYTES,
        CorpusError,
        read_checksums,
        read_corpus_file,
        read_manifest,
    )
    from glossary.files import UnreadableFile, read_bounded

    digest = hashlib.sha256(_environment())
    digest.update(_code_fingerprint())
    texts = read_manifest(root)
    sums = read_checksums(root)
    for name in ("manifest.yaml", "SHA256SUMS"):
        try:
            data = read_bounded(root / name, MAX_FILE_BYTES)
        except (OSError, UnreadableFile) as exc:
            raise CorpusError(
                f"{root / name}: cannot read: {getattr(exc, 'strerror', None) or exc}"
            ) from None
        digest.update(name.encode() + b"\0" + data + b"\0")
    for info in texts:
        for name in info.files:
            read_corpus_file(root, name, sums)
            digest.update(name.encode() + b"\0" + bytes.fromhex(sums[name]))
    return digest.hexdigest()


# -- the cache -----------------------------------------------------------------------------
class IndexCache:
    """Where indexes and remembered quote occurrences are kept; folder None = no cache."""

    def __init__(self, folder: Path | str | None) -> None:
        self.folder = Path(folder) if folder is not None else None
        self._secret: bytes | None = None
        self._trusted: bool | None = None
        #: Indexes this cache opened: their key, and how many quotes they remembered then.
        self._opened: weakref.WeakKeyDictionary[CorpusIndex, tuple[str, int]] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def from_environment(cls) -> IndexCache:
        """The cache :func:`default_dir` names ($GLOSSARY_CACHE_DIR, XDG, ~/.cache; "" = off)."""
        return cls(default_dir())

    def __repr__(self) -> str:
        return f"IndexCache({str(self.folder) if self.folder else None!r})"

    def open(self, root: Path | str) -> CorpusIndex:
        """The corpus at ``root``, read and indexed: from the cache when nothing changed.

        Raises :class:`CorpusError` as :func:`~glossary.corpus.load_corpus` does (a
        missing file, a changed checksum), cached or not.
        """
        from glossary.corpus import load_corpus
        from glossary.index import CorpusIndex

        root = Path(root)
        if self._hmac_key() is None:
            return CorpusIndex(load_corpus(root))
        key = corpus_key(root)
        index = self._read(f"index-{key}.pickle", CorpusIndex)
        if index is None:
            index = CorpusIndex(load_corpus(root))
            self._write(f"index-{key}.pickle", index)
        found = self._read(f"quotes-{key}.pickle", dict) or {}
        index.remember(
            {k: v for k, v in found.items() if isinstance(k, str) and isinstance(v, array)}
        )
        self._opened[index] = (key, len(index.remembered()))
        return index

    def derived(
        self,
        index: CorpusIndex,
        name: str,
        make: Callable[[CorpusIndex], dict],
        roots: tuple[str, ...],
        libraries: tuple[str, ...] = (),
    ) -> dict | None:
        """Plain data ``make(index)`` gives (dicts, lists, tuples, strings, numbers: the unpickler
        restores no class for it), kept beside an index this cache opened; None for any other.

        Its file is keyed by the index's key, the code of ``roots`` (modules followed as for the
        index, with the tables they name) and the versions of ``libraries``: when those change
        the data is made anew, not the index.
        """
        if index not in self._opened:
            return None
        key = self._opened[index][0]
        code = hashlib.sha256(_fingerprint(roots))
        code.update(";".join(f"{lib}={installed_version(lib)}" for lib in libraries).encode())
        prefix = f"{name}-{key}-"
        file = f"{prefix}{code.hexdigest()}.pickle"
        value = self._read(file, dict)
        if value is None:
            value = make(index)
            assert self.folder is not None
            for older in self.folder.glob(
                f"{prefix}*.pickle"
            ):  # made by other code: never read again
                older.unlink(missing_ok=True)
            self._write(file, value)
        return value

    def memo(
        self,
        name: str,
        roots: tuple[str, ...],
        libraries: tuple[str, ...] = (),
        corpus: str | None = None,
    ) -> Memo:
        """Plain data kept between runs by the digest of what it was made from (a terms file's
        entries as parsed, :func:`glossary.load.load_yaml`; what checking each entry found,
        :func:`glossary.check.check_project`): empty, and never saved, with the cache off.

        The file is keyed by the code of ``roots``, the versions of ``libraries`` (as for
        :meth:`derived`) and the ``corpus`` key (:func:`corpus_key`) where the data depends on
        it, so other code or another corpus never reads what this one made.
        """
        if self._hmac_key() is None:
            return Memo(None, {})
        code = hashlib.sha256(_fingerprint(roots) + _environment())
        if corpus is not None:
            code.update(corpus.encode())
        code.update(";".join(f"{lib}={installed_version(lib)}" for lib in libraries).encode())
        file = f"memo-{name}-{code.hexdigest()[:32]}.pickle"
        return Memo(file, self._read(file, dict) or {})

    def keep(self, memo: Memo) -> None:
        """Save ``memo`` if this run added to it: the values it gave or took, and of the others
        the most recently added, up to :data:`MEMO_SPARE` times as many (a branch switched to and
        back, or two copies of a terms file, stay warm; the file does not grow without bound)."""
        if memo.file is None or self.folder is None or not memo.changed():
            return
        for older in self.folder.glob(f"{memo.file.rsplit('-', 1)[0]}-*.pickle"):
            if older.name != memo.file:  # made by other code: never read again
                older.unlink(missing_ok=True)
        spare = [key for key in memo if key not in memo.used]
        spare = spare[max(0, len(spare) - MEMO_SPARE * len(memo.used)) :]
        # Oldest first: the next run drops from the front.
        self._write(
            memo.file, {key: memo[key] for key in [*spare, *(k for k in memo if k in memo.used)]}
        )

    def save(self, index: CorpusIndex) -> None:
        """Remember the occurrences of the quotes ``index`` looked for, if this cache opened it."""
        if index not in self._opened:
            return
        key, known = self._opened[index]
        found = index.remembered()
        if len(found) == known:
            return  # nothing new: the file stays as it is
        # Newest last (dicts keep insertion order): the oldest quotes are the ones dropped.
        self._write(f"quotes-{key}.pickle", dict(list(found.items())[-KEEP_QUOTES:]))
        self._opened[index] = (key, len(found))

    def alignments(self, index: CorpusIndex, compute: Callable[..., tuple]) -> tuple:
        """The corpus' renderings aligned with their originals, ``compute(index.corpus)``
        (:func:`glossary.enrich.align.alignments`): computed once per corpus and code version and
        kept beside the index, if this cache opened it."""
        if index not in self._opened or self._hmac_key() is None:
            return compute(index.corpus)
        digest = hashlib.sha256(self._opened[index][0].encode())
        for name in ALIGN_CODE:
            digest.update(name.encode() + b"\0" + (PACKAGE / name).read_bytes() + b"\0")
        name = f"align-{digest.hexdigest()}.pickle"
        found = self._read(name, tuple)
        if found is None:
            found = compute(index.corpus)
            self._write(name, found)
        return found  # type: ignore[return-value]

    def beside_index(
        self,
        index: CorpusIndex,
        name: str,
        compute: Callable[[CorpusIndex], T],
        code: tuple[str, ...],
    ) -> T:
        """``compute(index)``, a value computed from the corpus alone, kept beside the index (if this
        cache opened it) under ``name`` and the digest of the index's key and of ``code`` (files of
        the package it is computed by)."""
        if index not in self._opened or self._hmac_key() is None:
            return compute(index)
        digest = hashlib.sha256(self._opened[index][0].encode())
        for part in code:
            digest.update(part.encode() + b"\0" + (PACKAGE / part).read_bytes() + b"\0")
        file = f"{name}-{digest.hexdigest()}.pickle"
        found = self._read(file, object)
        if found is None:
            found = compute(index)
            self._write(file, found)
        return found  # type: ignore[return-value]

    # -- trust -------------------------------------------------------------------------
    def trusted(self) -> bool:
        """Whether the cache is on and its folder and key may be trusted (see the module docstring)."""
        return self._hmac_key() is not None

    def _hmac_key(self) -> bytes | None:
        """The HMAC key of this cache, made on first use; None when off or not trusted."""
        if self._trusted is None:
            self._secret = self._load_key()
            self._trusted = self._secret is not None
        return self._secret

    def _load_key(self) -> bytes | None:
        if self.folder is None:
            return None
        try:
            # Only the cache folder itself is made private; parents get the usual mode.
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not _safe(self.folder.lstat(), stat.S_ISDIR, 0o022):
                return None
            path = self.folder / KEY_FILE
            if not path.exists() and not path.is_symlink():
                self._replace_key(path, exclusive=True)
            secret = _read_private(path)
            if secret is not None and len(secret) != KEY_BYTES:
                self._replace_key(path, exclusive=False)  # a truncated key of ours: start afresh
                secret = _read_private(path)
        except OSError:
            return None  # a read-only home, say: the check goes on without a cache
        return secret if secret is not None and len(secret) == KEY_BYTES else None

    def _replace_key(self, path: Path, exclusive: bool) -> None:
        assert self.folder is not None
        temporary = self._private_file(lambda stream: stream.write(os.urandom(KEY_BYTES)))
        try:
            if exclusive:
                # A hard link appears whole or not at all, and never over another run's key.
                try:
                    os.link(temporary, path)
                except FileExistsError:
                    pass
            else:
                os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)

    # -- files -------------------------------------------------------------------------
    def _mac(self, name: str) -> hmac.HMAC:
        """The HMAC of a file, begun with its name (a file is valid under its own name only)."""
        secret = self._hmac_key()
        assert secret is not None
        return hmac.new(secret, name.encode() + b"\0", hashlib.sha256)

    def _read(self, name: str, kind: type) -> object:
        assert self.folder is not None
        path = self.folder / name
        head = len(MAGIC) + TAG_BYTES
        try:
            stream = _open_file(path)
            if stream is None:
                return None
            with stream:
                start = stream.read(head)
                if len(start) < head or not start.startswith(MAGIC):
                    return None
                # Authenticated before a single byte is unpickled: a planted or edited file never
                # runs. Read in chunks, then unpickled from the same open file (our files are
                # replaced by rename, never rewritten in place): an index of tens of MB is not
                # held twice in memory.
                mac = self._mac(name)
                while chunk := stream.read(1 << 20):
                    mac.update(chunk)
                if not hmac.compare_digest(start[len(MAGIC) :], mac.digest()):
                    return None
                stream.seek(head)
                try:
                    with nogc.paused():
                        value = _Unpickler(stream).load()
                except Exception:  # noqa: BLE001 - an authentic file of another layout is only a miss
                    return None
        except OSError:
            return None
        if not isinstance(value, kind):
            return None
        try:
            os.utime(path)  # most recently used: kept when older indexes are pruned
        except OSError:
            pass
        return value

    def _write(self, name: str, value: object) -> None:
        assert self.folder is not None
        try:
            temporary = self._signed_file(name, value)
        except OSError:
            return  # a full disk, say: the check goes on without writing
        try:
            # Written whole and renamed: another run never reads half a file.
            os.replace(temporary, self.folder / name)
            self._prune(name)
        except OSError:
            temporary.unlink(missing_ok=True)
        except BaseException:  # Ctrl-C or SIGTERM (which the CLI turns into SystemExit)
            temporary.unlink(missing_ok=True)
            raise

    def _signed_file(self, name: str, value: object) -> Path:
        """A new private file holding ``value`` pickled, authenticated for the file ``name``."""
        mac = self._mac(name)

        def fill(stream: BinaryIO) -> None:
            stream.write(
                MAGIC + bytes(TAG_BYTES)
            )  # the tag, once the pickle has gone through the HMAC
            pickle.dump(value, _Tee(stream, mac), protocol=pickle.HIGHEST_PROTOCOL)
            stream.seek(len(MAGIC))
            stream.write(mac.digest())

        return self._private_file(fill)

    def _private_file(self, fill: Callable[[BinaryIO], object]) -> Path:
        """A new file in the cache folder, mode 0600, written by ``fill``."""
        import tempfile  # here: only a run that writes needs it

        assert self.folder is not None
        handle, name = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
        try:
            with os.fdopen(handle, "wb") as stream:
                fill(stream)
        except BaseException:
            os.unlink(name)
            raise
        return Path(name)

    def _prune(self, written: str) -> None:
        assert self.folder is not None
        # What a run killed outright (SIGKILL, power) left before its rename: an hour old, no
        # run is still writing it.
        for stale in self.folder.glob(".tmp-*"):
            with contextlib.suppress(OSError):
                if time.time() - stale.lstat().st_mtime > STALE_SECONDS:
                    stale.unlink()
        if written.startswith("memo-"):
            return  # one file per kind of memo, replaced in place (IndexCache.keep)
        if written.startswith(("align-", "witness-")):
            # Alignments have keys of their own: the most recently used are kept, as indexes are.
            kind = written.partition("-")[0]
            others = [p for p in self.folder.glob(f"{kind}-*.pickle") if p.name != written]
            for old in sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)[KEEP - 1 :]:
                old.unlink(missing_ok=True)
            return
        # The index of the file just written (an index, its quotes, data derived from it) stays
        # whatever the clock's resolution says of its age.
        others = [
            p
            for p in self.folder.glob("index-*.pickle")
            if p.name[len("index-") : -len(".pickle")] not in written
        ]
        indexes = sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)
        for old in indexes[KEEP - 1 :]:
            old.unlink(missing_ok=True)
            key = old.name[len("index-") : -len(".pickle")]
            for kept in self.folder.glob(
                f"*-{key}*.pickle"
            ):  # its quotes, the data derived from it
                kept.unlink(missing_ok=True)


class Memo(dict):
    """A dict that notes which keys a run read or wrote (:meth:`IndexCache.memo`)."""

    def __init__(self, file: str | None, stored: dict) -> None:
        super().__init__(stored)
        self.file = file
        self.used: set[object] = set()
        self._added = False

    def get(self, key: object, default: object = None) -> object:
        value = super().get(key, default)
        if key in self:
            self.used.add(key)
        return value

    def __setitem__(self, key: object, value: object) -> None:
        super().__setitem__(key, value)
        self.used.add(key)
        self._added = True

    def changed(self) -> bool:
        """Whether this run added values (only then is the memo written again)."""
        return self._added


def open_index(root: Path | str, cache_dir: Path | str | None = None) -> CorpusIndex:
    """The corpus at ``root`` through the cache in ``cache_dir`` (default: :func:`default_dir`).

    A convenience that keeps nothing: to remember the quotes a check looks for, open the
    index through an :class:`IndexCache` and call its :meth:`~IndexCache.save`.
    """
    cache = IndexCache(cache_dir) if cache_dir is not None else IndexCache.from_environment()
    return cache.open(root)


class _Tee:
    """A writable file that passes what is written through an HMAC too (pickle streams to it)."""

    def __init__(self, stream: BinaryIO, mac: hmac.HMAC) -> None:
        self.stream = stream
        self.mac = mac

    def write(self, data: bytes) -> int:
        self.mac.update(data)
        return self.stream.write(data)


class _Unpickler(pickle.Unpickler):
    """Restores the classes of :data:`ALLOWED` and nothing else."""

    def find_class(self, module: str, name: str) -> object:
        if (module, name) not in ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of a corpus index")
        return super().find_class(module, name)


def _owned(info: os.stat_result) -> bool:
    # Without POSIX owners (Windows) the per-user profile folder and the HMAC key are the guard.
    return not hasattr(os, "geteuid") or info.st_uid == os.geteuid()


def _safe(info: os.stat_result, kind: Callable[[int], bool], forbidden: int) -> bool:
    """Of the expected kind (lstat: a symlink is not), ours, and without the ``forbidden`` mode bits."""
    return kind(info.st_mode) and _owned(info) and not info.st_mode & forbidden


def _read_private(path: Path) -> bytes | None:
    """The bytes of a regular file of ours that group and others can neither read nor write."""
    info = path.lstat()
    if not _safe(info, stat.S_ISREG, 0o077):
        return None
    return _read_file(path)


def _open_file(path: Path) -> BinaryIO | None:
    """A file opened for reading, not through a symlink (None for one)."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        if path.is_symlink():
            return None
        raise
    return os.fdopen(handle, "rb")


def _read_file(path: Path) -> bytes | None:
    """A file's bytes, not following a symlink (None for one)."""
    stream = _open_file(path)
    if stream is None:
        return None
    with stream:
        return stream.read()
