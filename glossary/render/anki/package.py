"""Decks and deterministic .apkg packages (fixed ids and times, sorted zip entries)."""

from __future__ import annotations

import io
import itertools
import json
import os
import sqlite3
import tempfile
import zipfile

import genanki

from glossary.render.anki.descriptions import description
from glossary.render.anki.ids import deck_id
from glossary.render.anki.models import StableModel
from glossary.render.anki.notes import NoteSpec, StableNote
from glossary.vocab import Rite, vocabulary

ROOT_DECK = "Yili 仪礼 Glossary"
#: The sub-deck of the "what comes next" cards (sequences are not an entry category).
SEQUENCE_DECK = "Order of the rite 仪节次第"
#: The branch of the passage (cloze) cards, a sub-deck per rite: after every rite's term decks in
#: Anki's deck order (names sort by code point, and 读 U+8BFB follows the first character of every
#: rite's name), so that with Anki's default settings every headword is met on its own well before
#: it is asked in a passage (a Texts deck inside each rite came right after that rite's Roles deck).
PASSAGE_DECK = "读经 Texts"
#: Where the notes of merged entries go, whatever their rite: one place to find and delete them.
RETIRED_DECK = "Retired 已并入"
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def deck_name(rite: Rite, category: str) -> str:
    """``Yili 仪礼 Glossary::乡射礼::Objects 器物``: a note's one home, the same in every package."""
    if category == "retired":
        return f"{ROOT_DECK}::{RETIRED_DECK}"
    if category == "passage":
        return f"{ROOT_DECK}::{PASSAGE_DECK}::{rite.simplified}"
    if category == "sequence":
        label = SEQUENCE_DECK
    else:
        found = vocabulary().category(category)
        label = f"{found.heading} {found.zh}"
    return f"{ROOT_DECK}::{rite.simplified}::{label}"


def build_decks(
    specs: list[NoteSpec], models: dict[str, StableModel], mods: dict[str, int]
) -> list[genanki.Deck]:
    """The root deck (with how to study) and the sub-decks per rite and category that hold notes.

    A note goes to its home deck (its first rite's; a passage's, the rite of the passage) in every
    package, so packages imported in any order agree. ``due`` follows the order of ``specs``.
    """
    decks: dict[str, genanki.Deck] = {
        ROOT_DECK: genanki.Deck(deck_id(ROOT_DECK), ROOT_DECK, description("root"))
    }
    for due, spec in enumerate(specs):
        rite = spec.rites[0]
        name = deck_name(rite, spec.category)
        parent = name.rsplit("::", 1)[0]
        if parent not in decks:
            kind = "texts" if parent.endswith(PASSAGE_DECK) else "rite"
            decks[parent] = genanki.Deck(
                deck_id(parent), parent, description(kind, rite if kind == "rite" else None)
            )
        deck = decks.get(name)
        if deck is None:
            kind = (
                spec.category if spec.category in ("retired", "passage", "sequence") else "category"
            )
            deck = decks[name] = genanki.Deck(
                deck_id(name), name, description(kind, rite, name.rsplit("::", 1)[1])
            )
        deck.add_note(
            StableNote(
                model=models[spec.kind],
                fields=list(spec.fields),
                tags=list(spec.tags),
                guid=spec.guid,
                due=due,
                mod=mods[spec.key],
            )
        )
    return [decks[name] for name in sorted(decks)]


def write_apkg(decks: list[genanki.Deck], media: dict[str, bytes], timestamp: int) -> bytes:
    """A package's bytes: same decks, media and timestamp give the same bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "collection.anki2")
        connection = sqlite3.connect(path)
        cursor = connection.cursor()
        # Note and card ids count up from the timestamp, so they are stable too.
        genanki.Package(decks).write_to_db(cursor, timestamp, itertools.count(timestamp * 1000))
        connection.commit()
        connection.close()
        with open(path, "rb") as handle:
            collection = handle.read()
    names = sorted(media)
    entries = {
        "collection.anki2": collection,
        "media": json.dumps(
            {str(i): name for i, name in enumerate(names)}, sort_keys=True
        ).encode(),
    }
    entries.update({str(i): media[name] for i, name in enumerate(names)})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, entries[name])
    return buffer.getvalue()
