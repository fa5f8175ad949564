"""`glossary changelog OLD NEW`: added, changed and removed entries by id, for release notes."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from glossary.errors import GlossaryError
from glossary.files import UnreadableFile, read_bounded
from glossary.load import MAX_BYTES, load_bytes
from glossary.problems import printable


@dataclass(frozen=True)
class Changes:
    added: tuple[tuple[str, str], ...]  # (id, term)
    changed: tuple[tuple[str, str, tuple[str, ...]], ...]  # (id, term, fields)
    removed: tuple[tuple[str, str], ...]


def read_version(spec: str, repo: Path) -> bytes:
    """The bytes of a terms file: a path, or ``REV:path`` read from git (``v0.1:terms.yaml``).

    Read as ``check`` reads: bounded, never through a link; a revision is given to git after
    ``--end-of-options`` (and one that starts with ``-`` is refused), so it is never an option.
    """
    path = Path(spec)
    if os.path.lexists(path):
        try:
            return read_bounded(path, MAX_BYTES, links=False)
        except (OSError, UnreadableFile) as exc:
            raise GlossaryError(
                f"{spec}: cannot read: {getattr(exc, 'strerror', None) or exc}"
            ) from None
    rev, sep, name = spec.partition(":")
    if not sep:
        # A revision alone is its terms.yaml (``changelog main HEAD``).
        rev, name = spec, "terms.yaml"
    if rev.startswith("-") or not rev:
        raise GlossaryError(f"{spec}: a revision cannot start with '-' (nor be empty)")
    command = ["git", "show", "--no-textconv", "--end-of-options", f"{rev}:{name}"]
    try:
        with subprocess.Popen(
            command, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        ) as process:
            assert process.stdout is not None and process.stderr is not None
            data = process.stdout.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                process.kill()
                raise GlossaryError(
                    f"{spec}: more than the {MAX_BYTES:,} bytes a terms file may have"
                )
            error = process.stderr.read(10_000).decode("utf-8", "replace").strip()
    except OSError as exc:
        raise GlossaryError(f"{spec}: cannot run git: {exc.strerror}") from None
    if process.returncode != 0 and not sep:
        raise GlossaryError(
            f"{spec}: no such file, nor a git revision with a terms.yaml "
            "(use a path, REV, or REV:path)"
        )
    if process.returncode != 0:
        raise GlossaryError(f"{spec}: {error or 'not found in git'}")
    return data


def read_entries(spec: str, repo: Path) -> list[dict]:
    """The entries of a terms file (see :func:`read_version`), read by the loader ``check`` uses."""
    loaded = load_bytes(read_version(spec, repo), spec)
    if loaded.problems:
        raise GlossaryError(
            f"{spec}: not a terms file:\n" + "\n".join(str(p) for p in loaded.problems[:20])
        )
    if not isinstance(loaded.data, list):
        kind = type(loaded.data).__name__
        raise GlossaryError(f"{spec}: not a terms file: a list of entries is needed, not a {kind}")
    return loaded.data


def changelog(
    old: str, new: str, repo: Path, details: bool = False, form: str | None = None
) -> str:
    """The change from terms file ``old`` to ``new``: release notes in Markdown; with ``details``,
    each changed field as a word-level diff (``form`` text or markdown, see
    :mod:`~glossary.contribute.details`); ``form`` ids: the ids to preview, one a line."""
    before, after = read_entries(old, repo), read_entries(new, repo)
    if form == "ids":
        return "".join(f"{ident}\n" for ident in preview_ids(compare(before, after)))
    if not details:
        return markdown(compare(before, after), old, new)
    from glossary.contribute import details as report

    render = report.markdown if form == "markdown" else report.text
    return render(report.details(matched(before, after)), old, new)


#: An id the schema allows (terms.schema.json's slug): only such an id is named to the shell.
SLUG = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def preview_ids(changes: Changes) -> list[str]:
    """The added and changed entries' ids that a preview can be made of (valid ids only)."""
    found = [ident for ident, _ in changes.added] + [ident for ident, *_ in changes.changed]
    return [ident for ident in found if len(ident) <= 64 and SLUG.fullmatch(ident)]


def entries_by_id(entries: Sequence[object]) -> dict[str, dict]:
    """The entries that have an id (a string), by id; of two with one id, the later."""
    return {e["id"]: e for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)}


def matched(old: Sequence[object], new: Sequence[object]) -> list[tuple[dict | None, dict | None]]:
    """The added, then the changed, then the removed entries as (old, new) pairs (None: absent)."""
    changes, before, after = compare(old, new), entries_by_id(old), entries_by_id(new)
    return [
        *((None, after[ident]) for ident, _ in changes.added),
        *((before[ident], after[ident]) for ident, _, _ in changes.changed),
        *((before[ident], None) for ident, _ in changes.removed),
    ]


def compare(old: Sequence[object], new: Sequence[object]) -> Changes:
    """Entries are matched by id: ids are stable, so a changed id reads as removed + added."""
    before, after = entries_by_id(old), entries_by_id(new)
    added = tuple((i, str(after[i].get("term", ""))) for i in after if i not in before)
    removed = tuple((i, str(before[i].get("term", ""))) for i in before if i not in after)
    changed = []
    for ident in after:
        if ident in before and after[ident] != before[ident]:
            fields = sorted(
                k
                for k in set(before[ident]) | set(after[ident])
                if before[ident].get(k) != after[ident].get(k)
            )
            changed.append((ident, str(after[ident].get("term", "")), tuple(fields)))
    return Changes(added, tuple(changed), removed)


def markdown(changes: Changes, old: str, new: str) -> str:
    """Release notes in Markdown."""
    # Terms and ids are a pull request's text: each stays on its line, shown, never obeyed.
    lines = [f"# Glossary changes: {printable(old)} → {printable(new)}", ""]
    for title, items in (("Added", changes.added), ("Removed", changes.removed)):
        lines.append(f"## {title} ({len(items)})")
        lines.extend(f"- `{printable(ident)}` {printable(term)}" for ident, term in items)
        lines.append("")
    lines.append(f"## Changed ({len(changes.changed)})")
    lines.extend(
        f"- `{printable(ident)}` {printable(term)}: {', '.join(printable(str(f)) for f in fields)}"
        for ident, term, fields in changes.changed
    )
    return "\n".join(lines) + "\n"
