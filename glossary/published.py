"""Published identity is permanent: what the Anki ledger says was published, checked.

Users' Anki collections hold notes keyed by entry ids (their GUIDs are made from them) and
passage cards numbered by the ledger's ``clozes``. So an id the ledger (``anki-ledger.json``)
knows may go only through ``retired.yaml``, and the ledger only grows: every key, cloze number
and time a base revision recorded is still there (times may only increase). The base is the
ledger committed at ``HEAD`` (an edit in the working tree), or, for a pull request, the one of
its merge base with ``--base REV`` (``glossary check --base origin/main``).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from glossary.errors import GlossaryError
from glossary.files import UnreadableFile, in_repository, read_bounded
from glossary.model import Retired
from glossary.problems import ERROR, Problem
from glossary.render.anki.ledger import FILENAME, Ledger, parse_ledger

#: The largest ledger read (the shipped one is about 100 kB; two keys an entry, 20 000 entries).
MAX_LEDGER_BYTES = 32 * 1024 * 1024
#: Ledger keys made from an entry id (``note:bi``, ``cloze:bi``): an id a user's notes carry.
ID_KINDS = ("note", "cloze")


def _lines(text: str) -> dict[str, int]:
    """The line of each key of the ledger's JSON (one key a line, as :meth:`Ledger.to_bytes` writes)."""
    found: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith('"') and stripped.endswith("{"):
            try:
                key = json.loads(stripped.rsplit(":", 1)[0])
            except ValueError:
                continue
            if isinstance(key, str):
                found.setdefault(key, number)
    return found


def read_ledger(path: Path) -> tuple[Ledger | None, dict[str, int], list[Problem]]:
    """The ledger beside the terms file (None when there is none), its keys' lines, its problem."""
    try:
        # Never through a link (a pull request could link the ledger to any file).
        data = read_bounded(path, MAX_LEDGER_BYTES, links=False)
    except FileNotFoundError:
        return None, {}, []
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return None, {}, [Problem(str(path), 0, "", ERROR, f"cannot read: {reason}", code="Y801")]
    except UnreadableFile as exc:
        return None, {}, [Problem(str(path), 0, "", ERROR, f"cannot read: {exc}", code="Y801")]
    try:
        ledger = parse_ledger(data)
    except ValueError as exc:
        message = str(exc).removeprefix(f"{FILENAME}: ")
        return None, {}, [Problem(str(path), 0, "", ERROR, message, code="Y801")]
    return ledger, _lines(data.decode("utf-8")), []


def identity_problems(
    file: str,
    ledger: Ledger,
    lines: dict[str, int],
    ids: set[str],
    retired: tuple[Retired, ...],
    base: tuple[Ledger, str] | None = None,
) -> list[Problem]:
    """An error for each id the ledger published that is neither an id of the terms file (``ids``:
    every entry's, a broken one's too) nor retired. An id that ``base`` (the base revision's
    ledger, and its name) lacks was stamped by a build since: its fix is that ledger."""
    known = ids | {r.id for r in retired}
    problems = []
    reported: set[str] = set()
    for key in sorted(ledger.stamps):
        kind, _, ident = key.partition(":")
        if kind not in ID_KINDS or ident in known or ident in reported:
            continue
        reported.add(ident)
        if base is not None and not any(f"{kind}:{ident}" in base[0].stamps for kind in ID_KINDS):
            message = (
                f"the id {ident!r} is in the ledger but not in {base[1]}'s (a build since) and no "
                f"longer in the glossary: restore the id, or the ledger of {base[1]} "
                f"(`git show {base[1]}:./{FILENAME}`) and build again"
            )
        else:
            message = (
                f"the published id {ident!r} is no longer in the glossary (users' Anki notes are "
                f"keyed on it): restore the id, or add it to retired.yaml with "
                f"`- id: {ident}`, its term, `merged_into:` the entry that holds it now, and a note"
            )
        problems.append(Problem(file, lines.get(key, 0), key, ERROR, message, code="Y802"))
    return problems


def append_only_problems(
    file: str, base: Ledger, base_name: str, ledger: Ledger, lines: dict[str, int]
) -> list[Problem]:
    """An error for each key, cloze number or time of ``base`` that ``ledger`` lost or rewrote."""
    problems = []
    fix = f"restore it from {base_name} (`git show {base_name}:./{FILENAME}`)"
    for key, old in sorted(base.stamps.items()):
        new = ledger.stamps.get(key)
        line = lines.get(key, 0)
        if new is None:
            message = f"published in {base_name} but gone from the ledger: {fix}"
        elif new.clozes[: len(old.clozes)] != old.clozes:
            changed = next(
                n
                for n, ident in enumerate(old.clozes, 1)
                if n > len(new.clozes) or new.clozes[n - 1] != ident
            )
            now = new.clozes[changed - 1] if changed <= len(new.clozes) else "nothing"
            message = (
                f"cloze c{changed} asks {old.clozes[changed - 1]!r} in {base_name}, here {now!r}: "
                f"published cloze numbers never change (new ones go at the end); {fix}"
            )
        elif new.mod < old.mod:
            message = f"mod {new.mod} is earlier than {old.mod} in {base_name}: {fix}"
        else:
            continue
        problems.append(Problem(file, line, key, ERROR, message, code="Y803"))
    return problems


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes] | None:
    try:
        return subprocess.run(
            ["git", *args], cwd=folder, capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None


def base_ledger(folder: Path, base: str | None) -> tuple[Ledger, str] | None:
    """The ledger committed at the base revision, and the revision's name: ``HEAD`` by default,
    else the merge base of ``base`` and ``HEAD``. None outside git or where it had no ledger;
    a ``base`` git does not know is an error (a maintainer asked for it)."""
    name = "HEAD"
    if base is None and not in_repository(folder):
        return None  # no repository: nothing committed (and no git process to say so)
    if base is not None:
        found = _git(folder, "merge-base", "--end-of-options", base, "HEAD")
        if found is None or found.returncode != 0:
            raise GlossaryError(f"--base {base!r}: not a revision git knows here")
        name = found.stdout.decode().strip()
    shown = _git(folder, "show", "--end-of-options", f"{name}:./{FILENAME}")
    if shown is None or shown.returncode != 0:
        return None
    try:
        return parse_ledger(shown.stdout), name
    except ValueError:
        return None  # a base whose own ledger was corrupt: the ledger's own check says enough


def ledger_problems(
    path: Path, ids: set[str], retired: tuple[Retired, ...], base: str | None = None
) -> list[Problem]:
    """Every problem of the ledger at ``path``: unreadable, an id it published gone, or a key,
    cloze number or time of the base revision's ledger lost or rewritten."""
    ledger, lines, problems = read_ledger(path)
    if ledger is None:
        if base is not None and not problems and base_ledger(path.parent, base) is not None:
            problems.append(
                Problem(
                    str(path),
                    0,
                    "",
                    ERROR,
                    f"the ledger of {base} is gone: restore it",
                    code="Y803",
                )
            )
        return problems
    found = base_ledger(path.parent, base)
    problems.extend(identity_problems(str(path), ledger, lines, ids, retired, found))
    if found is not None:
        problems.extend(append_only_problems(str(path), found[0], found[1], ledger, lines))
    return problems
