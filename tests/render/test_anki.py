"""Anki decks, imported by the real `anki` package: updates in place, history kept, same bytes.

Built from the fixture project (terms-mini.yaml, plan-mini.yaml, corpus-mini); the tests that
open a real Anki collection are marked slow.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import sqlite3
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition
from anki.scheduler.v3 import CardAnswer
from anki_collection import db, note_type, scheduler, select_deck
from click.testing import CliRunner
from conftest import FIXTURES, MINI_PLAN, make_project, mini_entries, raw, set_field

from glossary.cli import cli
from glossary.plan import load_plan
from glossary.render.anki.models import TERM_FIELDS

IF_NEWER = ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER
DECK = "yili-glossary.apkg"
RELEASE_0_1 = FIXTURES / "anki-release-0.1" / DECK
#: The entry whose definition the second release changes.
CHANGED = "bi"

NEW_ENTRY = """
- id: zz-test-new
  term: 楅
  pinyin: bī
  category: object
  rites: [乡射礼]
  gloss: test entry added in v2
  definition: Added in the second release.
  citations:
    - quote: 乃設楅于中庭南當洗
"""


def build(root: Path, out: Path, epoch: int) -> None:
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


@contextmanager
def collection(folder: Path) -> Iterator[Collection]:
    """A fresh, empty Anki collection, closed afterwards."""
    col = Collection(str(folder / "collection.anki2"))
    try:
        yield col
    finally:
        col.close()


def import_package(col: Collection, path: Path):
    options = ImportAnkiPackageOptions(
        update_notes=IF_NEWER, update_notetypes=IF_NEWER, with_scheduling=False
    )
    return col.import_anki_package(
        ImportAnkiPackageRequest(package_path=str(path), options=options)
    ).log


def schedule(col: Collection) -> dict[int, tuple]:
    rows = db(col).all(
        "select id, nid, did, type, queue, due, ivl, factor, reps, lapses from cards"
    )
    return {row[0]: tuple(row[1:]) for row in rows}


def entry_ids(col: Collection, notes) -> set[str]:
    return {col.get_note(n.id.nid)["Id"] for n in notes}


def package_notes(package: Path, folder: Path) -> dict[str, int]:
    """guid → mod of every note in a package, read with sqlite (no Anki)."""
    with zipfile.ZipFile(package) as archive:
        (folder / f"{package.parent.name}.anki2").write_bytes(archive.read("collection.anki2"))
    with sqlite3.connect(folder / f"{package.parent.name}.anki2") as connection:
        return dict(connection.execute("select guid, mod from notes"))


def changed_definition() -> str:
    return "CHANGED. " + mini_entries()[CHANGED].definition


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("anki")
    root = make_project(base / "repo")
    text = (root / "terms.yaml").read_text(encoding="utf-8")
    build(root, base / "v1", epoch=1_700_000_000)
    changed = set_field(text, CHANGED, "definition", changed_definition())
    (root / "terms.yaml").write_text(changed + NEW_ENTRY, encoding="utf-8")
    build(root, base / "v2", epoch=1_700_086_400)
    build(root, base / "v2-again", epoch=1_700_086_400)
    return {
        "v1": base / "v1" / DECK,
        "v2": base / "v2" / DECK,
        "v2-again": base / "v2-again" / DECK,
        "dir": base,
    }


@pytest.mark.slow
def test_update_in_place_keeps_history(releases, tmp_path: Path) -> None:
    with collection(tmp_path) as col:
        first = import_package(col, releases["v1"])
        in_package = package_notes(releases["v1"], tmp_path)
        assert len(first.new) == len(in_package) and not first.updated and not first.duplicate
        assert {col.get_note(n)["Id"] for n in col.find_notes('"note:Yili glossary term"')} == set(
            mini_entries()
        )
        notetypes = sorted(m["id"] for m in col.models.all())
        select_deck(col, "Yili 仪礼 Glossary")
        for queued in scheduler(col).get_queued_cards(fetch_limit=5).cards:
            card = col.get_card(queued.card.id)
            card.start_timer()
            states = col._backend.get_scheduling_states(card.id)
            scheduler(col).answer_card(
                scheduler(col).build_answer(card=card, states=states, rating=CardAnswer.GOOD)
            )
        before = schedule(col)
        notes_before = col.note_count()
        revlog = db(col).all("select * from revlog order by id")
        assert len(revlog) == 5

        second = import_package(col, releases["v2"])
        # Exactly one entry is new and one changed; an entry may have a term note and a cloze note.
        assert entry_ids(col, second.new) == {"zz-test-new"}
        assert entry_ids(col, second.updated) == {CHANGED}
        assert len(second.updated) == 1  # only the term note shows the definition
        # Anki logs unchanged notes it found by GUID as "duplicate" (skipped): none is added twice.
        assert len(second.duplicate) == notes_before - 1
        assert (
            not second.conflicting and not second.missing_notetype and not second.first_field_match
        )
        assert col.note_count() == notes_before + len(second.new)
        assert (
            db(col).scalar(
                "select count() from (select guid from notes group by guid having count() > 1)"
            )
            == 0
        )
        assert sorted(m["id"] for m in col.models.all()) == notetypes
        after = schedule(col)
        assert {cid: after[cid] for cid in before} == before
        assert db(col).all("select * from revlog order by id") == revlog
        note = col.get_note(col.find_notes(f'"Id:{CHANGED}" "note:Yili glossary term"')[0])
        assert note["Definition"] == html.escape(changed_definition())
        assert len(col.find_notes(f'"Id:{CHANGED}"')) == 2  # term and cloze, no duplicate


@pytest.mark.slow
def test_reimporting_the_same_release_changes_nothing(releases, tmp_path: Path) -> None:
    with collection(tmp_path) as col:
        import_package(col, releases["v2"])
        again = import_package(col, releases["v2"])
        assert not again.new and not again.updated and not again.conflicting
        assert len(again.duplicate) == col.note_count()


def test_same_commit_same_bytes(releases) -> None:
    digest = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()  # noqa: E731
    assert digest(releases["v2"]) == digest(releases["v2-again"])
    for name in ("yili-xiangshe.apkg", "yili-glossary.csv", "terms.json"):
        assert digest(releases["dir"] / "v2" / name) == digest(releases["dir"] / "v2-again" / name)


def test_package_is_deterministic_zip(releases) -> None:
    with zipfile.ZipFile(releases["v1"]) as archive:
        names = [info.filename for info in archive.infolist()]
        assert names == sorted(names)
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_note_mods_rise_only_for_changed_notes(releases, tmp_path: Path) -> None:
    v1, v2 = package_notes(releases["v1"], tmp_path), package_notes(releases["v2"], tmp_path)
    changed = {guid for guid in v1 if v1[guid] != v2[guid]}
    added = set(v2) - set(v1)
    assert len(changed) == 1 and added and not set(v1) - set(v2)
    assert all(v2[g] == 1_700_086_400 for g in changed | added)
    assert all(v1[g] == 1_700_000_000 for g in v1)


@pytest.mark.slow
def test_fields_are_escaped_and_tagged(tmp_path: Path) -> None:
    text = NEW_ENTRY.replace("test entry added in v2", "<script>alert(1)</script>")
    root = make_project(tmp_path / "repo", text.lstrip("\n"), plan=False)
    build(root, tmp_path / "out", epoch=1_700_000_000)
    with collection(tmp_path) as col:
        import_package(col, tmp_path / "out" / DECK)
        note = col.get_note(col.find_notes('"note:Yili glossary term"')[0])
        assert note["Gloss"] == "&lt;script&gt;alert(1)&lt;/script&gt;"
        assert "<script>" not in note.cards()[0].answer()
        assert {"yili::category::object", "yili::rite::乡射礼", "yili::layer::classic"} <= set(
            note.tags
        )
        assert (
            note["Ruby"] == '<span class="tone1">楅[bī]</span>'
        )  # Anki's bracket form, tone class
        assert (
            "<ruby><rb>楅</rb><rt>bī</rt></ruby>" in note.cards()[0].answer()
        )  # {{furigana:Ruby}}
        assert (
            "音福" in note["Readings"] and "音福" in note.cards()[0].answer()
        )  # 經典釋文's, on the back
        cloze = col.get_note(col.find_notes('"note:Yili glossary passage cloze"')[0])
        assert "{{c1::" in cloze["Passage"] and "<ruby>楅<rt>bī</rt></ruby>" in cloze["Passage"]
        assert (
            "〈" in cloze["Locus"] and "〈" not in cloze.cards()[0].question()
        )  # the section on the back only
        deck_names = {d.name for d in col.decks.all_names_and_ids()}
        assert "Yili 仪礼 Glossary::04 乡射礼::Objects 器物" in deck_names


@pytest.mark.slow
def test_note_types_keep_their_ids(releases, tmp_path: Path) -> None:
    with collection(tmp_path) as col:
        import_package(col, releases["v1"])
        model = note_type(col, "Yili glossary term")
        assert model["id"] == 1740512001  # published decks depend on it: it never changes
        assert [f["name"] for f in model["flds"]][:3] == ["Term", "Traditional", "Pinyin"]
        # The note type's fields are TERM_FIELDS, in order; a new one goes at the end, with a new
        # id (ARCHITECTURE.md, "add an entry field"): ids only grow, none is used twice.
        assert [f["name"] for f in model["flds"]] == [name for name, _ in TERM_FIELDS]
        ids = [field_id for _, field_id in TERM_FIELDS]
        assert ids == sorted(set(ids))
        assert [t["name"] for t in model["tmpls"]] == ["Recognition", "Recall", "Hall plan"]
        assert "{{tts zh_CN:TTS}}" in model["tmpls"][0]["afmt"]
        assert ".nightMode" in model["css"] or ".night_mode" in model["css"]


def test_csv_has_guid_column(releases) -> None:
    text = (releases["dir"] / "v1" / "yili-glossary.csv").read_text(encoding="utf-8")
    assert text.startswith(
        "#separator:Comma\n#html:true\n#guid column:1\n#notetype column:2\n#deck column:3\n"
    )
    assert "Yili glossary term" in text and "Yili 仪礼 Glossary::04 乡射礼::Objects 器物" in text


def package_decks(path: Path) -> dict[str, int]:
    """Deck name → id in a package's collection."""
    with zipfile.ZipFile(path) as archive, tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "c.anki2"
        db.write_bytes(archive.read("collection.anki2"))
        with sqlite3.connect(db) as connection:
            (decks,) = connection.execute("select decks from col").fetchone()
    return {deck["name"]: deck["id"] for deck in json.loads(decks).values()}


def test_renamed_decks_keep_their_ids(releases) -> None:
    """The rite decks are numbered in 禮經本義's order now; each keeps the id it was published
    with (the id of its first name), in the release before and in every package."""
    old = package_decks(RELEASE_0_1)
    new = package_decks(releases["v1"])
    assert "Yili 仪礼 Glossary::04 乡射礼::Objects 器物" in new
    same = {
        name: old[first]
        for name in new
        if (first := re.sub(r"::\d\d ", "::", name)) in old and first != name
    }
    assert len(same) >= 3
    assert {name: new[name] for name in same} == same


def rite_markers(path: str) -> list[str]:
    """The section names of a 四庫 file of the fixture, read off its 右… lines."""
    return re.findall(r"^\u3000{3}右([^\u3000(¶]+)", raw(path), re.MULTILINE)


@pytest.mark.slow
def test_plan_cards_and_sequence_cards(releases, tmp_path: Path) -> None:
    plan, _ = load_plan(MINI_PLAN)
    assert plan is not None
    entries = mini_entries()
    placed = {place.term: place for place in plan.places if place.term in entries}
    assert placed and set(entries) - set(placed)
    with collection(tmp_path) as col:
        import_package(col, releases["v1"])
        for ident in entries:
            note = col.get_note(col.find_notes(f'"Id:{ident}" "note:Yili glossary term"')[0])
            if ident in placed:
                assert note["Plan"] == f'<img src="yili-plan-{placed[ident].id}.svg">'
                assert len(note.cards()) == 3  # recognition, recall, hall plan
                assert "Which place is marked" in note.cards()[2].question()
            else:
                assert len(note.cards()) == 2, ident  # no place on the plan, no plan card
        media = Path(col.media.dir())
        assert sorted(p.name for p in media.iterdir()) == sorted(
            name
            for place in placed.values()
            for name in (f"yili-plan-{place.id}.svg", f"yili-plan-{place.id}-q.svg")
        )
        assert all(
            (media / f"yili-plan-{p.id}.svg").read_text(encoding="utf-8").startswith("<svg")
            for p in placed.values()
        )
        order = rite_markers("kanripo/KR1d0044/KR1d0044_004.txt")
        steps = {
            col.get_note(n)["Section"]: col.get_note(n)
            for n in col.find_notes('"note:Yili glossary rite sequence" "Rite:乡射礼"')
        }
        assert sorted(steps) == sorted(order)
        for earlier, later in zip(order, order[1:]):
            assert steps[earlier]["Next"] == later and steps[later]["Previous"].endswith(
                f"〈{earlier}〉"
            )
        assert (
            steps[order[-1]]["Next"] == ""
            and "the rite ends" in steps[order[-1]].cards()[0].answer()
        )
        assert "Order of the rite 仪节次第" in {
            d.name.split("::")[-1] for d in col.decks.all_names_and_ids()
        }
