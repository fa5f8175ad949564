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

from glossary.model import Release
from glossary.render.anki.descriptions import description
from glossary.render.anki.ids import deck_id
from glossary.render.anki.models import StableModel
from glossary.render.anki.notes import NoteSpec, StableNote
from glossary.vocab import Rite, vocabulary

ROOT_DECK = "Yili 仪礼 Glossary"
#: The sub-deck of the "what comes next" cards (sequences are not an entry category).
SEQUENCE_DECK = "Order of the rite 仪节次第"
#: The sub-deck of the stage-plan cards: sorts after the categories' decks, so that in Anki's deck
#: order too a rite's stage cards come after its words.
STAGE_DECK = "Stage plans 位次"
#: The branch of the passage (cloze) cards, a sub-deck per rite: numbered after the seventeen rites,
#: so that in Anki's deck order (which is the order new cards come in, by default) every headword
#: is met on its own well before it is asked in a passage.
PASSAGE_DECK = "18 读经 Texts"
#: Where the notes of merged entries go, whatever their rite: one place to find and delete them,
#: numbered to sort last. Only ``yili-retired.apkg`` holds them (see ``render.render``).
RETIRED_DECK = "99 Retired 已并入"
#: The names the decks were first published under. Anki matches decks by name on import, but the
#: ids in the packages stay those of these names, so a package's decks keep their identity.
_FIRST_NAMES = {PASSAGE_DECK: "读经 Texts", RETIRED_DECK: "Retired 已并入"}
#: The deck options the packages ship (imported with "Import any deck presets"): an id of its own,
#: so that importing never changes the user's Default preset.
OPTIONS_NAME = "Yili 仪礼 Glossary"
#: New cards in position order (the book's order, see ``render.positions``), siblings buried.
OPTIONS = {
    "new": {"bury": True, "perDay": 20},
    "rev": {"bury": True},
    "buryInterdayLearning": True,
    "newGatherPriority": 1,  # NewCardGatherPriority.LOWEST_POSITION
    "newSortOrder": 1,  # NewCardSortOrder.NO_SORT: as gathered
}
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def rite_label(rite: Rite, numbered: bool = True) -> str:
    """``04 乡射礼``: the rite's place in 禮經本義 first, so that decks sort in the book's order."""
    return f"{rite.order:02d} {rite.simplified}" if numbered else rite.simplified


def deck_name(rite: Rite, category: str, numbered: bool = True) -> str:
    """``Yili 仪礼 Glossary::04 乡射礼::Objects 器物``: a note's one home, the same in every package
    (``numbered=False``: the name the deck was first published under, which its id comes from)."""
    if category == "retired":
        label = RETIRED_DECK if numbered else _FIRST_NAMES[RETIRED_DECK]
        return f"{ROOT_DECK}::{label}"
    if category == "passage":
        texts = PASSAGE_DECK if numbered else _FIRST_NAMES[PASSAGE_DECK]
        return f"{ROOT_DECK}::{texts}::{rite_label(rite, numbered)}"
    if category == "sequence":
        label = SEQUENCE_DECK
    elif category == "stage":
        label = STAGE_DECK
    else:
        found = vocabulary().category(category)
        label = f"{found.heading} {found.zh}"
    return f"{ROOT_DECK}::{rite_label(rite, numbered)}::{label}"


def home_rite(spec: NoteSpec) -> Rite:
    """The rite whose deck holds a note: a passage's, a section's or a stage plan's own rite; a
    word's earliest rite in 禮經本義's order (where a learner following the book meets it first)."""
    if spec.category in ("passage", "sequence", "stage"):
        return spec.rites[0]
    return min(spec.rites, key=lambda rite: rite.order)


def home_deck(spec: NoteSpec, numbered: bool = True) -> str:
    """The full name of a note's deck."""
    return deck_name(home_rite(spec), spec.category, numbered)


def build_decks(
    specs: list[NoteSpec],
    models: dict[str, StableModel],
    mods: dict[str, int],
    positions: dict[str, dict[int, int]],
    credit: str = "",
    release: Release | None = None,
) -> list[genanki.Deck]:
    """The root deck (with how to study) and the sub-decks per rite and category that hold notes.

    A note goes to its home deck (``home_deck``) in every package, so packages imported in any
    order agree. Each card's ``due`` (its place among new cards) is ``positions[key][ord]``;
    ``credit`` names the modern renderings and ``release`` this release and where the next one
    will be, in the root deck's description.
    """
    decks: dict[str, genanki.Deck] = {
        ROOT_DECK: genanki.Deck(
            deck_id(ROOT_DECK), ROOT_DECK, description("root", credit=credit, release=release)
        )
    }
    for spec in specs:
        rite = home_rite(spec)
        name, first = home_deck(spec), home_deck(spec, numbered=False)
        parent = name.rsplit("::", 1)[0]
        if parent not in decks:
            kind = "texts" if parent.endswith(PASSAGE_DECK) else "rite"
            decks[parent] = genanki.Deck(
                deck_id(first.rsplit("::", 1)[0]),
                parent,
                description(kind, rite if kind == "rite" else None),
            )
        deck = decks.get(name)
        if deck is None:
            kind = (
                spec.category
                if spec.category in ("retired", "passage", "sequence", "stage")
                else "category"
            )
            deck = decks[name] = genanki.Deck(
                deck_id(first), name, description(kind, rite, name.rsplit("::", 1)[1])
            )
        cards = positions.get(spec.key, {})
        deck.add_note(
            StableNote(
                model=models[spec.kind],
                fields=list(spec.fields),
                tags=list(spec.tags),
                guid=spec.guid,
                due=min(cards.values(), default=0),
                mod=mods[spec.key],
                positions=cards,
            )
        )
    return [decks[name] for name in sorted(decks)]


def _ship_options(cursor: sqlite3.Cursor, decks: list[genanki.Deck]) -> None:
    """Add the package's deck options (``OPTIONS``) beside genanki's default and give them to
    every deck: Anki imports them when "Import any deck presets" is ticked."""
    dconf_text, decks_text = cursor.execute("select dconf, decks from col").fetchone()
    dconf, stored = json.loads(dconf_text), json.loads(decks_text)
    options_id = deck_id(f"options:{OPTIONS_NAME}")
    base = dict(dconf["1"])
    options = {**base, "id": options_id, "name": OPTIONS_NAME}
    for key, value in OPTIONS.items():
        options[key] = {**base.get(key, {}), **value} if isinstance(value, dict) else value
    dconf[str(options_id)] = options
    ours = {str(deck.deck_id) for deck in decks}
    for key, deck in stored.items():
        if key in ours:
            deck["conf"] = options_id
    cursor.execute(
        "update col set dconf = ?, decks = ?",
        (json.dumps(dconf, sort_keys=True), json.dumps(stored, sort_keys=True)),
    )


def write_apkg(
    decks: list[genanki.Deck], media: dict[str, bytes], timestamp: int, *, suspended: bool = False
) -> bytes:
    """A package's bytes: same decks, media and timestamp give the same bytes. ``suspended``:
    every card suspended (kept only when "Import any learning progress" is ticked)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "collection.anki2")
        connection = sqlite3.connect(path)
        # A scratch file read back at once: no fsync per statement, no journal on disk (the
        # schema alone was 70 ms of syncs per package; the file's bytes are the same).
        connection.execute("PRAGMA synchronous = OFF")
        connection.execute("PRAGMA journal_mode = MEMORY")
        cursor = connection.cursor()
        # Note and card ids count up from the timestamp, so they are stable too.
        genanki.Package(decks).write_to_db(cursor, timestamp, itertools.count(timestamp * 1000))
        _ship_options(cursor, decks)
        if suspended:
            cursor.execute("update cards set queue = -1")
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
