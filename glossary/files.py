"""Writing files and folders so that readers never see half of them."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def write_file_atomically(path: Path, data: bytes) -> None:
    """Write one file by rename, so readers never see half of it (unchanged content: not rewritten)."""
    if path.exists() and path.read_bytes() == data:
        return
    handle, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        # mkstemp makes private files; keep the mode the file had, or the usual one.
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)  # a full disk must not leave a stray .terms.yaml.* behind
        raise


def replace_folder(out: Path, files: dict[str, bytes]) -> None:
    """Replace the folder ``out`` with one holding exactly ``files`` (relative name → bytes).

    The new folder is written beside ``out`` first and then renamed into place.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    staging.chmod(0o755)
    try:
        for name, data in files.items():
            target = staging / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        if out.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
            os.rename(out, retired / "old")
            os.rename(staging, out)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.rename(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
