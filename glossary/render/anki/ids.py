"""Stable identifiers: GUIDs from entry ids only, deck ids from a fixed namespace."""

from __future__ import annotations

import hashlib

import genanki

NAMESPACE = "yili-glossary"


def note_guid(entry_id: str, kind: str = "term") -> str:
    """The GUID of an entry's note: depends on the entry id (and note kind) only, never on content."""
    guid: str = genanki.guid_for(NAMESPACE, kind, entry_id)
    return guid


def deck_id(name: str) -> int:
    """A deck id derived from the deck's full name within the project's namespace."""
    digest = hashlib.sha256(f"{NAMESPACE}:deck:{name}".encode()).digest()
    return (1 << 30) + int.from_bytes(digest[:8], "big") % (1 << 30)
