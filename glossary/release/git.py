"""The git side of a release: the checkout must be clean, HEAD must carry the version's tag, and
the earlier version tags are what the release notes compare with."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from glossary.errors import ReleaseError

#: A version tag: ``v`` and pyproject.toml's version (``v0.1.0``).
TAG = re.compile(r"v(\d+(?:\.\d+)*)")


@dataclass(frozen=True)
class Tags:
    """The version tag at HEAD and every earlier version tag HEAD contains, newest first."""

    current: str
    earlier: tuple[str, ...] = ()

    @property
    def previous(self) -> str | None:
        return self.earlier[0] if self.earlier else None


def git(repo: Path, *args: str) -> str:
    """What ``git args`` prints in ``repo`` (a failure is a :class:`ReleaseError`)."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=repo, capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ReleaseError(f"{repo}: cannot run git: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise ReleaseError(f"{repo}: git {' '.join(args)}: {message}")
    return done.stdout.decode("utf-8", "replace")


def version_key(tag: str) -> tuple[int, ...] | None:
    """``v0.10.1`` → (0, 10, 1); None for a tag that is no version tag."""
    match = TAG.fullmatch(tag)
    return tuple(int(part) for part in match.group(1).split(".")) if match else None


def find_tags(repo: Path, wanted: str, tag: str | None = None) -> Tags:
    """The tags of a release of version ``wanted``: HEAD must carry ``v<wanted>``, and ``tag`` (the
    pushed tag a workflow was started by), when given, must be that very name."""
    name = f"v{wanted}"
    if tag is not None and tag != name:
        raise ReleaseError(
            f"the tag {tag!r} is not {name!r}, the version pyproject.toml holds: tag the "
            f"commit {name}, or change the version in pyproject.toml and tag again"
        )
    if name not in git(repo, "tag", "--points-at", "HEAD").split():
        raise ReleaseError(
            f"HEAD is not tagged {name} (the version in pyproject.toml): a release is made from "
            f"the commit its tag names (`git tag {name}`, then check it out)"
        )
    current = version_key(name)
    assert current is not None
    merged = git(repo, "tag", "--merged", "HEAD", "--list", "v*").split()
    earlier = [t for t in merged if (key := version_key(t)) is not None and key < current]
    return Tags(name, tuple(sorted(earlier, key=version_key, reverse=True)))  # type: ignore[arg-type]


def require_clean(repo: Path, out: Path) -> None:
    """A release is made from the commit as committed: no change to a tracked file, no file git
    does not ignore (the output folder aside)."""
    listed = git(repo, "status", "--porcelain=v1", "-z", "--untracked-files=all").split("\0")
    inside = os.path.relpath(out.resolve(), repo.resolve())
    dirty = [
        line[3:]
        for line in listed
        if line and not (inside != "." and not inside.startswith("..") and _under(line[3:], inside))
    ]
    if dirty:
        shown = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise ReleaseError(
            f"{repo}: not a clean checkout ({shown}): a release is built from the tagged commit "
            "as committed; commit or remove the changes, or release from a fresh clone"
        )


def _under(path: str, folder: str) -> bool:
    return path == folder or path.rstrip("/") == folder or path.startswith(folder.rstrip("/") + "/")
