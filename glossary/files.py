"""Writing files and folders so that readers never see half of them."""

from __future__ import annotations

import ctypes
import errno
import fcntl
import glob
import os
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class LinkRefused(OSError):
    """A path that is, or lies under, a symbolic link: never read or written through."""


def symlink_on(path: Path, base: Path | None = None) -> Path | None:
    """The first step of ``path`` that is a symbolic link (lstat), or None.

    Every step at or below ``base`` (default: the current folder) is looked at, the last one
    always: a pull request can commit a link anywhere in the checkout (``dist -> .``,
    ``preview-bi.html -> ~/.ssh/authorized_keys``, ``media -> /``), while the folders above it
    are the user's own. The steps are taken as written (``a/../b`` looks at ``a``), so no
    link is resolved before it is looked at.
    """
    base = Path(os.path.abspath(base if base is not None else Path.cwd()))
    whole = Path.cwd() / path  # an absolute path stays itself
    step = Path(whole.anchor)
    for number, part in enumerate(whole.parts[1:], 2):
        step = step / part
        here = Path(os.path.normpath(step))
        if number != len(whole.parts) and here != base and base not in here.parents:
            continue
        try:
            if stat.S_ISLNK(os.lstat(step).st_mode):
                return step
        except FileNotFoundError:
            return None  # nothing below it exists, so no link either
    return None


def refuse_links(path: Path, base: Path | None = None) -> None:
    """Raise :class:`LinkRefused` when :func:`symlink_on` finds a link on ``path``."""
    if (link := symlink_on(path, base)) is not None:
        raise LinkRefused(
            errno.ELOOP,
            f"{link} is a symbolic link; files are read and written only as real files, never "
            "through a link (remove the link)",
            str(path),
        )


def write_file_atomically(path: Path, data: bytes, expect: bytes | None = None) -> None:
    """Write one file by rename, so readers never see half of it (unchanged content: not rewritten).

    Never through a link: a link at ``path`` (or on the way to it) is refused, and the file is
    renamed over the name, never opened for writing. ``expect``: the bytes the caller read
    before; if the file holds others now (an editor saved it meanwhile), nothing is written.
    Every failure is a :class:`~glossary.errors.GlossaryError` naming ``path``; the file is then
    as it was.
    """
    from glossary.errors import GlossaryError

    try:
        refuse_links(path)
        current = _current_bytes(path)
        if expect is not None and current != expect:
            raise GlossaryError(
                f"{path}: changed while this command ran (saved by an editor?); nothing written: "
                "run it again"
            )
        if current == data:
            return
        tmp = _write_temp(path, data)
        try:
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)  # a full disk must not leave a stray .terms.yaml.*
            raise
    except LinkRefused as exc:
        raise GlossaryError(f"{path}: not written: {exc.strerror}") from None
    except OSError as exc:
        raise GlossaryError(
            f"{path}: cannot write: {exc.strerror or exc}; the file is unchanged"
        ) from None


def _current_bytes(path: Path) -> bytes | None:
    """What the regular file ``path`` holds now (None: no file); anything else is refused."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EISDIR, "not a regular file (a folder, FIFO or device)", str(path))
    return read_unlinked(path)


def read_unlinked(path: Path) -> bytes:
    """The bytes of the regular file ``path``, refused (:class:`LinkRefused`) if a link is on its
    way; a folder, FIFO or device is an ``OSError`` (a FIFO is not waited on)."""
    refuse_links(path)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    with open(os.open(path, flags), "rb") as stream:
        mode = os.fstat(stream.fileno()).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file (a FIFO or device)", str(path))
        return stream.read()


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where unsupported."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False  # an old kernel, or a file system that cannot exchange
    raise OSError(code, os.strerror(code), str(b))


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """One build at a time per output folder: an exclusive lock on the folder that holds it
    (a lock on the folder itself leaves no lock file behind)."""
    fd = os.open(out.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _recover(out: Path) -> None:
    """Finish or undo what a killed build left beside ``out``, and remove its leftovers."""
    parent = out.parent
    # The folder's name is escaped: ``out[1]`` or ``dist*`` must find their own leftovers, not others'.
    name = glob.escape(out.name)
    retired = sorted(parent.glob(f".{name}.old-*"))
    if not out.exists():
        # Killed between moving the old folder away and the new one in: the old one comes back.
        for folder in retired:
            # Only a real folder comes back: a committed ``.dist.old-x/old -> ~`` stays where it is.
            if symlink_on(folder / "old", parent) is None and (folder / "old").is_dir():
                os.rename(folder / "old", out)
                break
    for folder in [*retired, *parent.glob(f".{name}.new-*")]:
        shutil.rmtree(folder, ignore_errors=True)


def publish(out: Path, files: dict[str, bytes], state: dict[Path, bytes] | None = None) -> None:
    """Replace the folder ``out`` with one holding exactly ``files`` (relative name → bytes), and
    write the ``state`` files (path → bytes) with it: all of it, or none of it.

    The new folder and the state files are written beside their targets first; then the
    folders are exchanged in one step (or, where the system cannot, renamed in two, which the
    next build finishes or undoes) and the state files renamed into place. A build killed at
    any point leaves the old complete output or the new one, never none; a failure writing
    the state files puts the old folder back.
    """
    for path in [out, *(state or {})]:
        refuse_links(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with _locked(out):
        _recover(out)
        refuse_links(out)  # again, now that no other build of ours can be changing it
        for path in state or {}:
            # Temporary state files of a build killed before it renamed them.
            for stale in path.parent.glob(f".{glob.escape(path.name)}.*"):
                stale.unlink(missing_ok=True)
        with _reported_as(out):
            staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
        pending: list[tuple[str, Path]] = []
        try:
            with _reported_as(out):
                staging.chmod(0o755)
                for name, data in files.items():
                    target = staging / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
            for path, data in (state or {}).items():
                with _reported_as(path):
                    if path.exists() and path.read_bytes() == data:
                        continue
                    pending.append((_write_temp(path, data), path))
            had_old = out.exists()
            # Ctrl-C (or a kill) waits until the folder and the state files have all moved, or all
            # moved back: it can never leave the new output with the old ledger.
            with _signals_held():
                with _reported_as(out):
                    _swap(staging, out, had_old, out.name)
                try:
                    for tmp, path in pending:
                        with _reported_as(path):
                            os.replace(tmp, path)
                except BaseException:
                    # Nothing of this build stays: the old folder back (or, on a first build, none).
                    if had_old:
                        _swap(out, staging, had_old, out.name)
                    else:
                        os.rename(out, staging)
                    raise
        finally:
            for tmp, _ in pending:
                Path(tmp).unlink(missing_ok=True)
            shutil.rmtree(staging, ignore_errors=True)


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back inside (delivered when it ends): a step that must not be cut."""
    held = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread():
        yield  # Python handles signals in the main thread only: nothing to hold here
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextmanager
def _reported_as(path: Path) -> Iterator[None]:
    """An ``OSError`` inside names ``path``: the temporary file or folder it would name is gone by
    the time the message is read ("dist: … No space left on device", not ".dist.new-x1y2/…")."""
    try:
        yield
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None


def _swap(staging: Path, out: Path, had_old: bool, name: str) -> None:
    """Put ``staging`` at ``out``; an old ``out`` (``had_old``) ends up at ``staging``.

    Without an exchange, the folder moved away first waits in ``.<name>.old-*`` (``name``: the
    output folder's, also when a swap is undone), where :func:`_recover` looks for it.
    """
    if not had_old:
        os.rename(staging, out)
    elif not _exchange(staging, out):
        retired = Path(tempfile.mkdtemp(prefix=f".{name}.old-", dir=out.parent))
        os.rename(out, retired / "old")
        os.rename(staging, out)
        os.rename(retired / "old", staging)
        retired.rmdir()


def _write_temp(path: Path, data: bytes) -> str:
    """``data`` in a temporary file beside ``path``, with the mode ``path`` has (or the usual one)."""
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


class UnreadableFile(ValueError):
    """A path that is not a regular file, or a file larger than it may be."""


def read_bounded(path: Path, limit: int, links: bool = True, base: Path | None = None) -> bytes:
    """The bytes of the regular file ``path``, of at most ``limit`` bytes.

    FIFOs, devices and folders are refused before anything is read (opening a FIFO does not
    wait for a writer), and so is a file larger than ``limit``: ``/dev/zero`` or a 50 MB
    terms file never reaches the parser. ``links=False``: a link on the path is refused
    (:func:`refuse_links` below ``base``), the last step also as it is opened
    (``O_NOFOLLOW``). Raises :class:`UnreadableFile`, :class:`LinkRefused` or ``OSError``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not links:
        refuse_links(path, base)
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFile("not a regular file (a folder, FIFO or device)")
        if info.st_size > limit:
            raise UnreadableFile(
                f"{info.st_size:,} bytes, more than the {limit:,} such a file may have"
            )
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew while being read
                raise UnreadableFile(f"more than the {limit:,} bytes such a file may have")
        return b"".join(chunks)
    finally:
        os.close(fd)


def in_repository(folder: Path) -> bool:
    """Whether git could find a repository for ``folder``: a ``.git`` in it or above it, or one
    named by $GIT_DIR. Outside one, git is not asked (it would only say so, a process each time)."""
    if os.environ.get("GIT_DIR"):
        return True
    folder = folder.resolve()
    return any(os.path.lexists(p / ".git") for p in (folder, *folder.parents))
