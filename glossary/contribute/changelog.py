"""`glossary changelog OLD NEW`: added, changed and removed entries by id, for release notes."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import yaml

from glossary.errors import GlossaryError


@dataclass(frozen=True)
class Changes:
    added: tuple[tuple[str, str], ...]  # (id, term)
    changed: tuple[tuple[str, str, tuple[str, ...]], ...]  # (id, term, fields)
    removed: tuple[tuple[str, str], ...]


def read_version(spec: str, repo: Path) -> str:
    """The text of a terms file: a path, or ``REV:path`` read from git (``v0.1:terms.yaml``)."""
    path = Path(spec)
    if path.exists():
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise GlossaryError(f"{spec}: cannot read: {exc}") from None
    rev, sep, name = spec.partition(":")
    if not sep:
        raise GlossaryError(f"{spec}: no such file (use a path, or REV:path for a git revision)")
    result = subprocess.run(
        ["git", "show", f"{rev}:{name}"], cwd=repo, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise GlossaryError(f"{spec}: {result.stderr.strip() or 'not found in git'}")
    return result.stdout


def changelog(old: str, new: str, repo: Path) -> str:
    """Release notes in Markdown for the change from terms file ``old`` to ``new``."""
    data: list[list[object]] = []
    for spec in (old, new):
        try:
            loaded = (
                yaml.load(
                    read_version(spec, repo), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
                )
                or []
            )
        except yaml.YAMLError as exc:
            raise GlossaryError(f"{spec}: not a YAML file: {exc}") from None
        if not isinstance(loaded, list):  # a mapping or a scalar is no terms file
            raise GlossaryError(f"{spec}: not a terms file (a list of entries)")
        data.append(loaded)
    return markdown(compare(data[0], data[1]), old, new)


def compare(old: list[object], new: list[object]) -> Changes:
    """Entries are matched by id: ids are stable, so a changed id reads as removed + added."""
    before = {e["id"]: e for e in old if isinstance(e, dict) and isinstance(e.get("id"), str)}
    after = {e["id"]: e for e in new if isinstance(e, dict) and isinstance(e.get("id"), str)}
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
    lines = [f"# Glossary changes: {old} → {new}", ""]
    for title, items in (("Added", changes.added), ("Removed", changes.removed)):
        lines.append(f"## {title} ({len(items)})")
        lines.extend(f"- `{ident}` {term}" for ident, term in items)
        lines.append("")
    lines.append(f"## Changed ({len(changes.changed)})")
    lines.extend(
        f"- `{ident}` {term}: {', '.join(fields)}" for ident, term, fields in changes.changed
    )
    return "\n".join(lines) + "\n"
