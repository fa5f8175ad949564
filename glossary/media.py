"""The media folder (``media/``) and its licence list (``media/licenses.yaml``).

Images and recorded readings go into the decks and the printed glossary, which are shared under
CC BY-SA 4.0: every file an entry uses must say whose it is and under which licence, and every
file in the folder is either used by an entry or reported.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from glossary.load import load_yaml, render_path
from glossary.model import Entry
from glossary.problems import ERROR, WARNING, Problem
from glossary.schema_check import schema_problems
from glossary.textcheck import text_problems
from glossary.validate import MEDIA, check_media_path

LICENSES = "licenses.yaml"
#: Files of the folder that are not media.
NOT_MEDIA = (LICENSES, "README.md")


def media_problems(base: Path, terms_file: str, entries: list[Entry]) -> list[Problem]:
    """Every media file an entry uses has a licence record; every record names a file; every file
    in ``media/`` is used by some entry (else a warning)."""
    folder = base / MEDIA
    # By the path inside media/ (entries write media/sub/x.png).
    used = {
        str(PurePosixPath(name).relative_to(MEDIA)): (entry, i)
        for entry in entries
        for i, name in enumerate(entry.media)
        if PurePosixPath(name).parts[:1] == (MEDIA,)
    }
    if not folder.is_dir():
        return []
    path = folder / LICENSES
    records: dict[str, int] = {}
    problems: list[Problem] = []
    shown = f"{MEDIA}/{LICENSES}"
    if os.path.lexists(path):
        loaded = load_yaml(path, shown, base=base)
        problems.extend(loaded.problems)
        errors = (
            schema_problems(loaded, "media.schema.json") + text_problems(loaded)
            if loaded.data is not None
            else []
        )
        problems.extend(problem for _, problem in errors)
        if isinstance(loaded.data, list):
            # Records the schema refused are reported already; the others are checked all the same.
            refused = {key[0] for key, _ in errors if key}
            for index, raw in enumerate(loaded.data):
                if index in refused or not isinstance(raw, dict):
                    continue
                key = (index, "file")
                where = (shown, loaded.line_of(key), render_path(loaded.data, key))
                if raw["file"] in records:
                    problems.append(
                        Problem(
                            *where,
                            ERROR,
                            f"{raw['file']!r} has a licence record already",
                            code="Y704",
                        )
                    )
                elif (message := check_media_path(f"{MEDIA}/{raw['file']}", base)) is not None:
                    problems.append(Problem(*where, ERROR, message, code="Y701"))
                records.setdefault(raw["file"], loaded.line_of(key))
    for name, (entry, i) in sorted(used.items()):
        if name not in records:
            problems.append(
                Problem(
                    terms_file,
                    entry.line_of("media"),
                    f"{entry.id}.media[{i}]",
                    ERROR,
                    f"media file {name!r} has no licence record in {shown}",
                    code="Y703",
                )
            )
    files = (
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink()
    )
    for file in sorted(f for f in files if f not in NOT_MEDIA):
        if file not in used:
            problems.append(
                Problem(
                    f"{MEDIA}/{file}", 0, "", WARNING, "no entry uses this media file", code="Y705"
                )
            )
    return problems


#: The largest media file an entry may use, and all of them together: each goes into the main
#: deck and into the deck of every rite its entry lists (and is read into memory to be packed).
MAX_MEDIA_BYTES = 4 * 1024 * 1024
MAX_MEDIA_TOTAL = 64 * 1024 * 1024


def media_size_problems(base: Path, terms_file: str, entries: list[Entry]) -> list[Problem]:
    """An error for each media file larger than :data:`MAX_MEDIA_BYTES`, and one when all the files
    the entries use come to more than :data:`MAX_MEDIA_TOTAL` (sizes read from the file system,
    the files not read)."""
    problems = []
    sizes: dict[str, int] = {}
    for entry in entries:
        for i, name in enumerate(entry.media):
            path = base / name
            try:
                # A path check_media_path refused (a link, no file) is reported there.
                size = path.stat().st_size if path.is_file() and not path.is_symlink() else 0
            except OSError:
                continue
            sizes[name] = size
            if size > MAX_MEDIA_BYTES:
                problems.append(
                    Problem(
                        terms_file,
                        entry.line_of("media"),
                        f"{entry.id}.media[{i}]",
                        ERROR,
                        f"media file {name!r} is {size:,} bytes, more than the "
                        f"{MAX_MEDIA_BYTES:,} a card's file may be",
                        code="Y706",
                    )
                )
    if (total := sum(sizes.values())) > MAX_MEDIA_TOTAL:
        problems.append(
            Problem(
                terms_file,
                1,
                "",
                ERROR,
                f"the media files the entries use come to {total:,} bytes, more than the "
                f"{MAX_MEDIA_TOTAL:,} the decks may carry",
                code="Y706",
            )
        )
    return problems
