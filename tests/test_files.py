"""glossary/files.py: the output folder replaced whole, with its state files or not at all; bounded reads.

The killed-build tests (a real ``glossary build`` stopped at every write) are in
tests/test_hostile.py; here each piece is tested in-process on plain folders.
"""

from __future__ import annotations

import errno
import fcntl
import os
import threading
from pathlib import Path

import pytest

from glossary import files
from glossary.files import UnreadableFile, publish, read_bounded

OLD = {"a.txt": b"old a", "sub/b.txt": b"old b", "gone.txt": b"only in the old build"}
NEW = {"a.txt": b"new a", "sub/b.txt": b"new b", "added.txt": b"only in the new build"}


def contents(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def siblings(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.parent.iterdir())


@pytest.fixture(params=["exchange", "two renames"])
def mode(request, monkeypatch) -> str:
    """Every publish test runs with renameat2(RENAME_EXCHANGE) and with the two-rename fallback."""
    if request.param == "two renames":
        monkeypatch.setattr(files, "_exchange", lambda a, b: False)
    elif not _exchange_works(Path(request.getfixturevalue("tmp_path"))):
        pytest.skip("this file system cannot exchange two folders")
    return request.param


def _exchange_works(tmp: Path) -> bool:
    (tmp / "x").mkdir()
    (tmp / "y").mkdir()
    try:
        return files._exchange(tmp / "x", tmp / "y")
    finally:
        (tmp / "x").rmdir()
        (tmp / "y").rmdir()


def test_exchange_swaps_two_folders_in_one_step(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "from-a").write_bytes(b"a")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "from-b").write_bytes(b"b")
    if not files._exchange(tmp_path / "a", tmp_path / "b"):
        pytest.skip("this file system cannot exchange two folders")
    assert contents(tmp_path / "a") == {"from-b": b"b"}
    assert contents(tmp_path / "b") == {"from-a": b"a"}


def test_exchange_of_a_missing_path_is_an_os_error(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    if not _exchange_works(tmp_path):
        pytest.skip("this file system cannot exchange two folders")
    with pytest.raises(FileNotFoundError):
        files._exchange(tmp_path / "a", tmp_path / "missing")


def test_publish_replaces_the_folder_whole_with_its_state(tmp_path: Path, mode: str) -> None:
    out, ledger = tmp_path / "dist", tmp_path / "ledger.json"
    publish(out, OLD, {ledger: b"v1"})
    assert contents(out) == OLD and ledger.read_bytes() == b"v1"
    publish(out, NEW, {ledger: b"v2"})
    assert contents(out) == NEW  # gone.txt is gone: the folder is replaced, not updated
    assert ledger.read_bytes() == b"v2"
    assert siblings(out) == ["dist", "ledger.json"]  # no .dist.new-*, .dist.old-*, .ledger.json.*


def test_unchanged_state_is_not_rewritten(tmp_path: Path, mode: str) -> None:
    out, ledger = tmp_path / "dist", tmp_path / "ledger.json"
    publish(out, OLD, {ledger: b"v1"})
    os.utime(ledger, (1, 1))
    publish(out, NEW, {ledger: b"v1"})
    assert ledger.stat().st_mtime == 1


def test_a_failing_state_write_puts_the_old_folder_back(
    tmp_path: Path, mode: str, monkeypatch
) -> None:
    out, ledger = tmp_path / "dist", tmp_path / "ledger.json"
    publish(out, OLD, {ledger: b"v1"})
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        if Path(dst) == ledger:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(dst))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError):
        publish(out, NEW, {ledger: b"v2"})
    assert contents(out) == OLD
    assert ledger.read_bytes() == b"v1"
    assert siblings(out) == ["dist", "ledger.json"]


def test_a_failing_state_write_on_a_first_build_leaves_no_folder(
    tmp_path: Path, mode: str, monkeypatch
) -> None:
    out, ledger = tmp_path / "dist", tmp_path / "ledger.json"
    monkeypatch.setattr(
        os, "replace", lambda src, dst: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error"))
    )
    with pytest.raises(OSError):
        publish(out, NEW, {ledger: b"v1"})
    assert siblings(out) == []


def test_a_full_disk_while_staging_changes_nothing(tmp_path: Path, mode: str, monkeypatch) -> None:
    out, ledger = tmp_path / "dist", tmp_path / "ledger.json"
    publish(out, OLD, {ledger: b"v1"})
    real_write = Path.write_bytes
    calls = []

    def write_bytes(self, data):
        calls.append(self)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    with pytest.raises(OSError) as caught:
        publish(out, NEW, {ledger: b"v2"})
    assert caught.value.errno == errno.ENOSPC
    assert contents(out) == OLD and ledger.read_bytes() == b"v1"
    assert siblings(out) == ["dist", "ledger.json"]


@pytest.mark.parametrize("failing", ["staging", "state"])
def test_errors_name_the_output_or_the_state_file_not_a_temporary_one(
    tmp_path: Path, failing: str, monkeypatch
) -> None:
    # As open() reports a full disk or a read-only file system: with the temporary path it tried.
    out, ledger = tmp_path / "dist", tmp_path / "ledger.json"
    publish(out, OLD, {ledger: b"v1"})

    def fail(*args, **kwargs):
        raise OSError(
            errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / ".dist.new-x1y2" / "a.txt")
        )

    monkeypatch.setattr(Path, "write_bytes", fail) if failing == "staging" else monkeypatch.setattr(
        files, "_write_temp", fail
    )
    with pytest.raises(OSError) as caught:
        publish(out, NEW, {ledger: b"v2"})
    assert caught.value.errno == errno.ENOSPC
    assert caught.value.filename == str(out if failing == "staging" else ledger)
    assert contents(out) == OLD and ledger.read_bytes() == b"v1"
    assert siblings(out) == ["dist", "ledger.json"]


# -- what a killed build leaves, and how the next one recovers ------------------------------------


def test_killed_between_the_two_renames_the_old_folder_comes_back(tmp_path: Path) -> None:
    # The two-rename fallback moved the old folder away and was killed before moving the new one in.
    out = tmp_path / "dist"
    publish(out, OLD)
    retired = tmp_path / ".dist.old-x1y2"
    retired.mkdir()
    os.rename(out, retired / "old")
    (tmp_path / ".dist.new-a1b2").mkdir()
    (tmp_path / ".dist.new-a1b2" / "a.txt").write_bytes(b"half a new build")
    files._recover(out)
    assert contents(out) == OLD
    assert siblings(out) == ["dist"]


def test_leftovers_of_a_killed_build_are_removed_by_the_next(tmp_path: Path, mode: str) -> None:
    out, ledger = tmp_path / "dist", tmp_path / "ledger.json"
    publish(out, OLD, {ledger: b"v1"})
    for name in (".dist.new-k1", ".dist.old-k2", ".dist.old-k3/old"):
        (tmp_path / name).mkdir(parents=True)
        (tmp_path / name / "x").write_bytes(b"left by a killed build")
    (tmp_path / ".ledger.json.tmp123").write_bytes(b"a ledger never renamed")
    publish(out, NEW, {ledger: b"v2"})
    assert contents(out) == NEW and ledger.read_bytes() == b"v2"
    assert siblings(out) == ["dist", "ledger.json"]


@pytest.mark.parametrize("name", ["out[1]", "dist*", "out?"])
def test_leftovers_are_found_whatever_the_folder_is_called(tmp_path: Path, name: str) -> None:
    # The leftovers are found by name: glob patterns in the folder's own name must not hide them
    # (``out[1]`` would look for ``.out1.new-*``) or match another folder's (``dist*``).
    out = tmp_path / name
    publish(out, OLD)
    (tmp_path / f".{name}.new-k1").mkdir()
    retired = tmp_path / f".{name}.old-k2"
    retired.mkdir()
    os.rename(out, retired / "old")
    other = tmp_path / ".dist.new-other"  # what a build of ./dist left: not ours to touch
    other.mkdir()
    files._recover(out)
    assert contents(out) == OLD
    assert siblings(out) == sorted([name, ".dist.new-other"])


def test_one_build_at_a_time_per_output_folder(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    publish(out, OLD)
    fd = os.open(tmp_path, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another build holds the lock
    try:
        worker = threading.Thread(target=publish, args=(out, NEW))
        worker.start()
        worker.join(0.5)
        # Blocked on the lock (correct code cannot finish here, whatever the machine's speed).
        assert worker.is_alive()
        assert contents(out) == OLD
    finally:
        os.close(fd)
    worker.join(60)
    assert not worker.is_alive()
    assert contents(out) == NEW


# -- read_bounded ---------------------------------------------------------------------------


def test_read_bounded_reads_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x" * 10)
    assert read_bounded(tmp_path / "f", 10) == b"x" * 10


def test_read_bounded_refuses_a_larger_file_unread(tmp_path: Path) -> None:
    big = tmp_path / "big"
    with big.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: 50 MB without writing them
    with pytest.raises(UnreadableFile, match="52,428,800 bytes, more than the 1,024"):
        read_bounded(big, 1024)


def test_read_bounded_refuses_a_fifo_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(UnreadableFile, match="not a regular file"):
        read_bounded(fifo, 1024)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_read_bounded_refuses_a_device(device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    with pytest.raises(UnreadableFile, match="not a regular file"):
        read_bounded(Path(device), 1024)


def test_read_bounded_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match="not a regular file"):
        read_bounded(tmp_path, 1024)


# -- links and write_file_atomically ---------------------------------------------------------------


def test_symlink_on_finds_a_link_at_any_step_below_the_base(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    assert files.symlink_on(tmp_path / "real" / "x", tmp_path) is None
    assert files.symlink_on(tmp_path / "link", tmp_path) == tmp_path / "link"
    assert files.symlink_on(tmp_path / "link" / "a" / "b", tmp_path) == tmp_path / "link"
    # Steps are looked at as written: ``link/..`` is not resolved away before ``link`` is seen.
    assert files.symlink_on(tmp_path / "link" / ".." / "real", tmp_path) == tmp_path / "link"
    # Above the base only the last step counts (the user's own folders may be links).
    assert files.symlink_on(tmp_path / "link" / "x", tmp_path / "real") is None
    assert files.symlink_on(tmp_path / "link", tmp_path / "real") == tmp_path / "link"


def test_write_file_atomically_renames_over_a_file_and_refuses_a_link(tmp_path: Path) -> None:
    from glossary.errors import GlossaryError

    target = tmp_path / "target"
    target.write_bytes(b"keep me")
    link = tmp_path / "out.html"
    link.symlink_to(target)
    with pytest.raises(GlossaryError, match="is a symbolic link"):
        files.write_file_atomically(link, b"new")
    assert target.read_bytes() == b"keep me" and link.is_symlink()
    files.write_file_atomically(tmp_path / "plain", b"one")
    inode = (tmp_path / "plain").stat().st_ino
    files.write_file_atomically(tmp_path / "plain", b"two")
    assert (tmp_path / "plain").read_bytes() == b"two" and (
        tmp_path / "plain"
    ).stat().st_ino != inode


def test_write_file_atomically_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    from glossary.errors import GlossaryError

    path = tmp_path / "terms.yaml"
    path.write_bytes(b"saved by an editor")
    with pytest.raises(GlossaryError, match="changed while this command ran"):
        files.write_file_atomically(path, b"formatted", expect=b"what was read")
    assert path.read_bytes() == b"saved by an editor"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["terms.yaml"]
    files.write_file_atomically(path, b"formatted", expect=b"saved by an editor")
    assert path.read_bytes() == b"formatted"


def test_read_bounded_without_links_refuses_a_link(tmp_path: Path) -> None:
    (tmp_path / "real").write_bytes(b"secret")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(files.LinkRefused):
        read_bounded(tmp_path / "link", 100, links=False)
    assert read_bounded(tmp_path / "link", 100) == b"secret"  # corpus readers check links their way
