"""A release's two texts for students: ``CHANGES.md`` (what changed since the previous release, by
rite, in plain words) and ``IMPORT.md`` (which boxes to tick in Anki's import dialog, by the
version one updates from). The words are templates (``templates/release``); this module works out
what they say: the entries added, corrected and removed (``glossary changelog``'s comparison),
the notes an update changes (the Anki ledgers of the two releases) and whether the note types
changed since each earlier release (then Anki must merge them: README, *Updating*)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2

from glossary.contribute.changelog import compare, read_entries
from glossary.model import Glossary
from glossary.problems import printable
from glossary.render.anki.ledger import Ledger, parse_ledger
from glossary.vocab import Rite, vocabulary

if TYPE_CHECKING:
    from glossary.release.git import Tags

#: An entry's fields as a student knows them (a field not named here is shown by its name).
FIELD_WORDS = {
    "term": "the headword",
    "traditional": "the traditional characters",
    "variants": "the variant forms",
    "pinyin": "the reading",
    "guangyun": "the 廣韻 reading",
    "yinyi": "the 經典釋文 reading",
    "reading_note": "the note on the reading",
    "tts": "what text-to-speech says",
    "category": "its kind",
    "rites": "the rites it belongs to",
    "gloss": "the English meaning",
    "definition": "the explanation",
    "definition_zh": "the Chinese explanation",
    "citations": "the passages quoted",
    "related": "the related words",
    "media": "its pictures or recordings",
    "tags": "its tags",
}
#: Ledger key prefix → the notes it stamps, as the decks call them.
NOTE_KINDS = {"note": "word notes", "cloze": "passage notes", "sequence": "section notes"}


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("glossary", "templates/release"),
        autoescape=False,  # Markdown; every value from the data goes through printable()
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def _rites(entry: Mapping[str, object]) -> list[Rite]:
    names = entry.get("rites")
    found = [vocabulary().rite(str(n)) for n in names] if isinstance(names, list) else []
    return sorted({r.id: r for r in found if r is not None}.values(), key=lambda r: r.order)


def _word(entry: Mapping[str, object]) -> dict[str, str]:
    term, traditional = str(entry.get("term", "")), str(entry.get("traditional") or "")
    return {
        "id": printable(str(entry.get("id", ""))),
        "term": printable(
            term + (f" ({traditional})" if traditional and traditional != term else "")
        ),
        "pinyin": printable(str(entry.get("pinyin", ""))),
        "gloss": printable(str(entry.get("gloss", ""))),
    }


def note_changes(old: Ledger, new: Ledger) -> list[dict[str, object]]:
    """Per kind of note: how many an update adds and how many it changes (the ledgers' stamps)."""
    rows = []
    for prefix, name in NOTE_KINDS.items():
        keys = [k for k in new.stamps if k.startswith(prefix + ":")]
        added = sum(k not in old.stamps for k in keys)
        changed = sum(
            k in old.stamps and old.stamps[k].sha256 != new.stamps[k].sha256 for k in keys
        )
        rows.append({"name": name, "added": added, "changed": changed, "all": len(keys)})
    return rows


def notetypes_changed(old: Ledger, new: Ledger) -> bool:
    """Whether a note type differs between the two ledgers (fields, templates or styling): Anki
    then needs *Merge note types*, and *Update notes: Always* once (README, *Updating*)."""
    kinds = {k for k in (*old.stamps, *new.stamps) if k.startswith("notetype:")}
    return not kinds or any(
        k not in old.stamps or k not in new.stamps or old.stamps[k].sha256 != new.stamps[k].sha256
        for k in kinds
    )


def changes_file(
    repo: Path,
    terms: Path,
    tags: Tags,
    glossary: Glossary,
    ledger: bytes,
    earlier: Mapping[str, bytes | None],
    files: Mapping[str, bytes],
) -> str:
    """``CHANGES.md``: new words by rite, corrected entries (what of them), removed ones (and where
    they went), and what importing the release changes and keeps."""
    name = os.path.relpath(terms.resolve(), repo)
    now = read_entries(str(terms), repo)
    before = read_entries(f"{tags.previous}:{name}", repo) if tags.previous else []
    changes = compare(before, now)
    by_id = {str(e.get("id")): e for e in now}
    # rite id → (its place in 禮經本義's order, heading, the new words whose first rite it is)
    groups: dict[str, tuple[int, str, list[dict[str, str]]]] = {}
    for ident, _ in changes.added:
        entry = by_id[ident]
        rites = _rites(entry)
        home = rites[0] if rites else None
        _, _, words = groups.setdefault(
            home.id if home else "",
            (home.order, f"{home.simplified} {home.traditional} · {home.english}", [])
            if home
            else (len(vocabulary().rites) + 1, "Other", []),
        )
        words.append(_word(entry) | {"also": "、".join(r.simplified for r in rites[1:])})
    merged = {r.id: r.merged_into for r in glossary.retired}
    return (
        _env()
        .get_template("CHANGES.md")
        .render(
            version=glossary.release.version if glossary.release else tags.current,
            tag=tags.current,
            previous=tags.previous,
            commit=glossary.commit or "",
            count=len(now),
            added=len(changes.added),
            rites=[{"name": name, "words": words} for _, name, words in sorted(groups.values())],
            corrected=[
                _word(by_id[ident])
                | {"what": ", ".join(FIELD_WORDS.get(f, printable(f)) for f in fields)}
                for ident, _, fields in changes.changed
            ],
            removed=[
                {
                    "id": printable(ident),
                    "term": printable(term),
                    "into": printable(merged.get(ident, "")),
                }
                for ident, term in changes.removed
            ],
            notes=note_changes(
                parse_ledger(earlier.get(tags.previous) if tags.previous else None),
                parse_ledger(ledger),
            ),
            retired="yili-retired.apkg" in files,
            imports=import_text(tags, ledger, earlier, files, heading="##"),
        )
    )


def _packages(files: Mapping[str, bytes]) -> list[dict[str, str]]:
    """The rite packages of the release, in 禮經本義's order."""
    return [
        {"file": f"yili-{rite.id}.apkg", "name": f"{rite.simplified} · {rite.english}"}
        for rite in vocabulary().rites
        if f"yili-{rite.id}.apkg" in files
    ]


def import_text(
    tags: Tags,
    ledger: bytes,
    earlier: Mapping[str, bytes | None],
    files: Mapping[str, bytes],
    heading: str = "#",
) -> str:
    """How to import this release into Anki: new to the decks, updating from a release with the
    same note types (the default options), or from one before a note type changed (merge them)."""
    new = parse_ledger(ledger)
    merge = [t for t in tags.earlier if notetypes_changed(parse_ledger(earlier.get(t)), new)]
    plain = [t for t in tags.earlier if t not in merge]
    return (
        _env()
        .get_template("IMPORT.md")
        .render(
            h=heading,
            tag=tags.current,
            plain=plain,
            merge=merge,
            first=tags.earlier[-1] if tags.earlier else tags.current,
            retired="yili-retired.apkg" in files,
            packages=_packages(files),
            csv="yili-glossary.csv" in files,
        )
    )


def import_file(
    tags: Tags, ledger: bytes, earlier: Mapping[str, bytes | None], files: Mapping[str, bytes]
) -> str:
    """``IMPORT.md``: the import instructions of the release, on their own."""
    return import_text(tags, ledger, earlier, files)
