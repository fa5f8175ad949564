"""Updating from the last two releases (before the card rework of issue 15, and after it) in a
real Anki collection.

The note types gained fields (CueGloss, CueRites, TTS), so Anki sees a changed schema: it merges
the note types in place only with "Merge note types" ticked, and since merging touches every note,
the notes are updated only with "Update notes: Always" for that one import (README, "Updating
from a release before the card rework"). These tests do what the README tells users to do, and
show what happens when they do not.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from anki.collection import (
    CardId,
    Collection,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)
from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition as Condition
from anki.scheduler.v3 import CardAnswer
from anki_collection import db, scheduler, select_deck, type_of
from click.testing import CliRunner
from conftest import FIXTURES, ROOT, make_project, set_field

from glossary.cli import cli
from glossary.render.anki.models import STAGE_MODEL_ID, TERM_FIELDS

pytestmark = pytest.mark.slow

IF_NEWER = Condition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER
ALWAYS = Condition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_ALWAYS
RELEASE = FIXTURES / "anki-release-0.1"
NOTETYPES = ("Yili glossary term", "Yili glossary passage cloze", "Yili glossary rite sequence")
#: The entry whose gloss the release after this one edits.
EDITED = "bi"


def build(root: Path, out: Path, epoch: int) -> Path:
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(epoch)}
    result = CliRunner(env=env).invoke(
        cli,
        [
            "build",
            "--record-ledger",
            "--terms",
            str(root / "terms.yaml"),
            "--corpus",
            str(root / "corpus"),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    return out / "yili-glossary.apkg"


def import_package(col: Collection, path: Path, *, merge: bool = False, notes=IF_NEWER):
    options = ImportAnkiPackageOptions(
        update_notes=notes, update_notetypes=IF_NEWER, with_scheduling=False, merge_notetypes=merge
    )
    return col.import_anki_package(
        ImportAnkiPackageRequest(package_path=str(path), options=options)
    ).log


def review(col: Collection, count: int) -> None:
    select_deck(col, "Yili 仪礼 Glossary")
    for _ in range(count):
        queued = scheduler(col).get_queued_cards(fetch_limit=1).cards
        card = col.get_card(queued[0].card.id)
        card.start_timer()
        states = col._backend.get_scheduling_states(card.id)
        scheduler(col).answer_card(
            scheduler(col).build_answer(card=card, states=states, rating=CardAnswer.GOOD)
        )


def schedule(col: Collection) -> dict[int, tuple]:
    rows = db(col).all(
        "select id, nid, ord, did, type, queue, due, ivl, factor, reps, lapses from cards"
    )
    return {row[0]: tuple(row[1:]) for row in rows}


def move_cards(col: Collection, package: Path) -> None:
    """Run the README's snippet for Anki's debug console that puts every card in its home deck."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = re.search(r"<!-- move-cards -->\n```python\n(.*?)```", readme, re.S)
    assert code is not None and '"/path/to/yili-glossary.apkg"' in code.group(1)
    source = code.group(1).replace('"/path/to/yili-glossary.apkg"', repr(str(package)))
    exec(source, {"mw": SimpleNamespace(col=col, reset=lambda: None)})


def home_decks(package: Path, folder: Path) -> set[tuple[str, str]]:
    """(note GUID, deck name) of every card of a package imported into a fresh collection."""
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    try:
        import_package(col, package)
        return {
            (col.get_note(col.get_card(c).nid).guid, col.decks.name(col.get_card(c).did))
            for c in col.find_cards("")
        }
    finally:
        col.close()


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> dict[str, Path]:
    """The new release built over the old release's ledger, and the release after it (one gloss edited)."""
    base = tmp_path_factory.mktemp("update")
    root = make_project(base / "repo")
    shutil.copyfile(RELEASE / "anki-ledger.json", root / "anki-ledger.json")
    new = build(root, base / "new", epoch=1_800_000_000)
    text = (root / "terms.yaml").read_text(encoding="utf-8")
    (root / "terms.yaml").write_text(
        set_field(text, EDITED, "gloss", "rack for the arrows (edited)"), encoding="utf-8"
    )
    edited = build(root, base / "edited", epoch=1_800_086_400)
    return {
        "old": RELEASE / "yili-glossary.apkg",
        "new": new,
        "retired": new.with_name("yili-retired.apkg"),
        "edited": edited,
    }


def test_update_from_the_last_release_keeps_every_review(releases, tmp_path: Path) -> None:
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        first = import_package(col, releases["old"])
        assert first.new and not first.conflicting
        review(col, 12)
        before, revlog = schedule(col), db(col).all("select * from revlog order by id")
        assert len(revlog) == 12
        notetypes = {m["name"]: m["id"] for m in col.models.all() if m["name"].startswith("Yili")}
        old_clozes = {
            col.get_note(n).guid: col.get_note(n)["Id"]
            for n in col.find_notes('"note:Yili glossary passage cloze"')
        }
        notes_before = col.note_count()

        log = import_package(col, releases["new"], merge=True, notes=ALWAYS)  # as the README says
        assert not log.conflicting and not log.missing_notetype and not log.duplicate
        # The retired package exists where some note of the old release is retired or moved.
        retired_updated = 0
        if releases["retired"].exists():
            retired = import_package(col, releases["retired"], merge=True, notes=ALWAYS)
            assert not retired.conflicting and not retired.duplicate
            retired_updated = len(retired.updated)
        # Every note took the new release's fields (the retired ones from the retired package).
        assert len(log.updated) + retired_updated == notes_before
        # The note types were changed in place: same ids, no copy, the new fields there.
        assert {
            m["name"]: m["id"] for m in col.models.all() if m["name"].startswith("Yili")
        } == notetypes
        fields = db(col).list(
            "select name from fields where ntid = ? order by ord", notetypes["Yili glossary term"]
        )
        # (read from the database: the Python side caches) The release's fields, in its order,
        # the ones the card rework added among them; a later field goes after them.
        assert fields == [name for name, _ in TERM_FIELDS]
        assert {"CueGloss", "CueRites", "TTS"} <= set(fields)
        # Every card kept its scheduling and the review log is untouched; no note is there twice.
        after = schedule(col)
        assert {cid: after[cid] for cid in before} == before
        assert db(col).all("select * from revlog order by id") == revlog
        assert (
            db(col).scalar(
                "select count() from (select guid from notes group by guid having count() > 1)"
            )
            == 0
        )
        # An old passage note still asks, as its first card, the headword it asked (or says where it went).
        for nid in col.find_notes('"note:Yili glossary passage cloze"'):
            note = col.get_note(nid)
            if note.guid in old_clozes:
                assert note["Id"].split()[0] == old_clozes[note.guid]
        # The README's snippet puts every card of a live note in the deck a fresh install gives
        # it (the release before had no numbered decks and passage cards in the word decks),
        # keeping its scheduling; the retired notes are deleted as the README says.
        old_decks = {cid: col.get_card(CardId(cid)).did for cid in before}
        move_cards(col, releases["new"])
        assert home_decks(releases["new"], tmp_path / "fresh") == {
            (col.get_note(col.get_card(c).nid).guid, col.decks.name(col.get_card(c).did))
            for c in col.find_cards("-tag:yili::retired")
        }
        assert any(col.get_card(CardId(cid)).did != did for cid, did in old_decks.items())
        moved = schedule(col)
        assert {cid: moved[cid][:2] + moved[cid][3:] for cid in before} == {
            cid: row[:2] + row[3:] for cid, row in before.items()
        }
        assert not [d for d in col.decks.all_names_and_ids() if "::乡射礼" in d.name]
        col.remove_notes(list(col.find_notes("tag:yili::retired")))
        # With the settings back to "if newer", importing the same release again changes nothing.
        again = import_package(col, releases["new"])
        assert not again.new and not again.updated and not again.conflicting

        # The next release edits one gloss: exactly that entry's notes are updated.
        edited = import_package(col, releases["edited"])
        updated = {n.id.nid for n in edited.updated}
        notes = [col.get_note(n) for n in col.find_notes("")]
        owning = {
            n.id
            for n in notes
            if "Id" in n and EDITED in n["Id"].split() and "yili::retired" not in n.tags
        }
        assert (
            updated == owning
            and len(edited.updated) == len(owning)
            and not edited.new
            and not edited.conflicting
        )
        kinds = sorted(type_of(col.get_note(n))["name"] for n in updated)
        assert kinds == [
            "Yili glossary passage cloze",
            "Yili glossary term",
        ]  # its term note and its passage note
    finally:
        col.close()


def test_without_merging_note_types_anki_makes_copies_and_updates_nothing(
    releases, tmp_path: Path
) -> None:
    """Why the README asks for "Merge note types": without it Anki adds a copy of each note type
    that gained fields and leaves their old notes as they were (logged as conflicting)."""
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_package(col, releases["old"])
        log = import_package(col, releases["new"])
        assert log.conflicting
        # Every note type gained fields in this release (the sequence notes: Grades), so none is updated.
        assert not log.updated
        for name in ("Yili glossary term", "Yili glossary rite sequence"):
            assert len([m for m in col.models.all() if m["name"].startswith(name)]) == 2, name
    finally:
        col.close()


#: The release after the card rework (tests/fixtures/anki-release-0.2/README.md).
RELEASE_2 = FIXTURES / "anki-release-0.2"


@pytest.fixture(scope="module")
def after_rework(tmp_path_factory) -> Path:
    """The current release built over the ledger of the release after the card rework."""
    base = tmp_path_factory.mktemp("update-0.2")
    root = make_project(base / "repo")
    shutil.copyfile(RELEASE_2 / "anki-ledger.json", root / "anki-ledger.json")
    return build(root, base / "new", epoch=1_800_000_000)


def test_updating_from_the_release_after_the_rework_needs_only_the_defaults(
    after_rework: Path, tmp_path: Path
) -> None:
    """Issue 25: from the last release, Anki's default import options (update notes and note
    types if newer, no merging) update the changed notes in place, keep every review, and add no
    copy of a note type."""
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        first = import_package(col, RELEASE_2 / "yili-glossary.apkg")
        assert first.new and not first.conflicting
        review(col, 12)
        before, revlog = schedule(col), db(col).all("select * from revlog order by id")
        notetypes = {m["name"]: m["id"] for m in col.models.all() if m["name"].startswith("Yili")}
        log = import_package(col, after_rework)
        # (Anki logs a note it leaves alone, being no newer, as a "duplicate".)
        assert not log.conflicting and not log.missing_notetype
        assert log.updated  # the notes whose content changed since that release
        assert (
            db(col).scalar(
                "select count() from (select guid from notes group by guid having count() > 1)"
            )
            == 0
        )
        assert {
            m["name"]: m["id"] for m in col.models.all() if m["name"].startswith("Yili")
        } == notetypes
        after = schedule(col)
        assert {cid: after[cid] for cid in before} == before
        assert db(col).all("select * from revlog order by id") == revlog
        # The new note types' templates are in place (a back's passages past the second fold
        # away; read from the database: the Python side caches note types).
        templates = db(col).list(
            "select config from templates where ntid = ?", notetypes["Yili glossary term"]
        )
        assert any(b"<details" in bytes(config) for config in templates)  # (a memoryview)
        again = import_package(col, after_rework)
        assert not again.new and not again.updated and not again.conflicting
    finally:
        col.close()


def test_the_stage_plan_note_type_comes_new_beside_the_old_ones(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    """Issue 29: the release that adds the stage-plan note type, imported over the last release
    with Anki's default options: the old note types stay as they were under their ids, the new
    one comes under its own with its notes, nothing conflicts, and importing again changes nothing."""
    base = tmp_path_factory.mktemp("update-stages")
    root = make_project(base / "repo")
    shutil.copyfile(RELEASE_2 / "anki-ledger.json", root / "anki-ledger.json")
    shutil.copyfile(FIXTURES / "stages-mini.yaml", root / "stages.yaml")
    package = build(root, base / "new", epoch=1_800_000_000)
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        import_package(col, RELEASE_2 / "yili-glossary.apkg")
        old = {m["name"]: m["id"] for m in col.models.all() if m["name"].startswith("Yili")}
        assert "Yili glossary stage plan" not in old
        log = import_package(col, package)
        assert not log.conflicting and not log.missing_notetype
        now = {m["name"]: m["id"] for m in col.models.all() if m["name"].startswith("Yili")}
        assert now == {**old, "Yili glossary stage plan": STAGE_MODEL_ID}
        stage = set(col.find_notes('"note:Yili glossary stage plan"'))
        assert len(stage) == 3 and stage <= {n.id.nid for n in log.new}
        again = import_package(col, package)
        assert not again.new and not again.updated and not again.conflicting
    finally:
        col.close()
