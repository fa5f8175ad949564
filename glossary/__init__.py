"""Glossary of the Yili (儀禮) as read in 蔡德晉's 禮經本義: load, check, build."""

from __future__ import annotations

#: The distribution whose metadata holds the version (pyproject.toml's ``version``, its one home).
DISTRIBUTION = "yili-glossary"


def version() -> str:
    """The installed version of the package, as pyproject.toml's ``version`` gives it.

    Read from the installed metadata (imported here, not at start-up: importlib.metadata pulls in
    email, zipfile, csv …, which ``glossary --help`` does not need).
    """
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # a source tree on sys.path that was never installed
        return "0+unknown"
