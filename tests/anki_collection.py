"""Typed access to a real Anki collection, for the tests that import the decks into one.

Anki's API leaves a collection's database, scheduler and note types Optional (a closed
collection has no database, a collection of an old format a dummy scheduler): these helpers say
what an open, current collection gives, and fail the test by name where it does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from anki.dbproxy import DBProxy
from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition
from anki.models import NotetypeDict
from anki.notes import Note
from anki.scheduler.v3 import Scheduler

from glossary.render.anki.package import ROOT_DECK


def db(col: Collection) -> DBProxy:
    """The database of an open collection."""
    assert col.db is not None, "the collection is closed"
    return col.db


def scheduler(col: Collection) -> Scheduler:
    """The v3 scheduler every new collection uses."""
    assert isinstance(col.sched, Scheduler), col.sched
    return col.sched


def select_deck(col: Collection, name: str) -> None:
    """Make the deck of that name the current one (the scheduler's queue comes from it)."""
    deck = col.decks.id_for_name(name)
    assert deck is not None, name
    col.decks.select(deck)


def note_type(col: Collection, name: str) -> NotetypeDict:
    """The note type of that name."""
    found = col.models.by_name(name)
    assert found is not None, name
    return found


def type_of(note: Note) -> NotetypeDict:
    """A note's note type."""
    found = note.note_type()
    assert found is not None, note.id
    return found


IF_NEWER = ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER


@contextmanager
def installed(folder: Path, package: Path, *, presets: bool) -> Iterator[Collection]:
    """A fresh collection with ``package`` imported as Anki's import dialog does by default
    (no learning progress), with or without "Import any deck presets"."""
    folder.mkdir(parents=True, exist_ok=True)
    col = Collection(str(folder / "collection.anki2"))
    try:
        options = ImportAnkiPackageOptions(
            update_notes=IF_NEWER,
            update_notetypes=IF_NEWER,
            with_scheduling=False,
            with_deck_configs=presets,
        )
        col.import_anki_package(
            ImportAnkiPackageRequest(package_path=str(package), options=options)
        )
        select_deck(col, ROOT_DECK)
        yield col
    finally:
        col.close()
