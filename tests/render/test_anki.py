"""Anki decks, imported by the real `anki` package: updates in place, history kept, same bytes."""
from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
import os
import sqlite3
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, ROOT, TERMS

from glossary.cli import cli

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition
from anki.scheduler.v3 import CardAnswer

IF_NEWER = ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER
DECK = "yili-glossary.apkg"

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


def project(tmp: Path, terms_text: str, plan: bool = True) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "terms.yaml").write_text(terms_text, encoding="utf-8")
    (tmp / "media").mkdir(exist_ok=True)
    if plan:
        (tmp / "plan.yaml").write_bytes((ROOT / "tests" / "cases" / "plan" / "plan.yaml").read_bytes())
    return tmp


def build(root: Path, out: Path, epoch: int) -> None:
    env = {**os.environ, "SOURCE_DATE_EPOCH": str(epoch)}
    result = CliRunner(env=env).invoke(
        cli, ["build", "--terms", str(root / "terms.yaml"), "--corpus", str(CORPUS), "--out", str(out)]
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
    options = ImportAnkiPackageOptions(update_notes=IF_NEWER, update_notetypes=IF_NEWER, with_scheduling=False)
    return col.import_anki_package(ImportAnkiPackageRequest(package_path=str(path), options=options)).log


def schedule(col: Collection) -> dict[int, tuple]:
    rows = col.db.all("select id, nid, did, type, queue, due, ivl, factor, reps, lapses from cards")
    return {row[0]: tuple(row[1:]) for row in rows}


def entry_ids(col: Collection, notes) -> set[str]:
    return {col.get_note(n.id.nid)["Id"] for n in notes}


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("anki")
    text = TERMS.read_text(encoding="utf-8")
    root = project(base / "repo", text)
    build(root, base / "v1", epoch=1_700_000_000)
    changed = text.replace("definition: >-\n    The rack on which the arrows", "definition: >-\n    CHANGED. The rack on which the arrows", 1)
    assert changed != text
    (root / "terms.yaml").write_text(changed + NEW_ENTRY, encoding="utf-8")
    build(root, base / "v2", epoch=1_700_086_400)
    build(root, base / "v2-again", epoch=1_700_086_400)
    return {"v1": base / "v1" / DECK, "v2": base / "v2" / DECK, "v2-again": base / "v2-again" / DECK,
            "dir": base}


def test_update_in_place_keeps_history(releases, tmp_path: Path) -> None:
    with collection(tmp_path) as col:
        first = import_package(col, releases["v1"])
        assert len(first.new) > 300 and not first.updated and not first.duplicate
        notetypes = sorted(m["id"] for m in col.models.all())
        col.decks.select(col.decks.id_for_name("Yili 仪礼 Glossary"))
        for queued in col.sched.get_queued_cards(fetch_limit=5).cards:
            card = col.get_card(queued.card.id)
            card.start_timer()
            states = col._backend.get_scheduling_states(card.id)
            col.sched.answer_card(col.sched.build_answer(card=card, states=states, rating=CardAnswer.GOOD))
        before = schedule(col)
        notes_before = col.note_count()
        revlog = col.db.all("select * from revlog order by id")
        assert len(revlog) == 5

        second = import_package(col, releases["v2"])
        # Exactly one entry is new and one changed; an entry may have a term note and a cloze note.
        assert entry_ids(col, second.new) == {"zz-test-new"}
        assert entry_ids(col, second.updated) == {"bi"}
        assert len(second.updated) == 1  # only the term note shows the definition
        # Anki logs unchanged notes it found by GUID as "duplicate" (skipped): none is added twice.
        assert len(second.duplicate) == notes_before - 1
        assert not second.conflicting and not second.missing_notetype and not second.first_field_match
        assert col.note_count() == notes_before + len(second.new)
        assert col.db.scalar("select count() from (select guid from notes group by guid having count() > 1)") == 0
        assert sorted(m["id"] for m in col.models.all()) == notetypes
        after = schedule(col)
        assert {cid: after[cid] for cid in before} == before
        assert col.db.all("select * from revlog order by id") == revlog
        note = col.get_note(col.find_notes('"Id:bi" "note:Yili glossary term"')[0])
        assert note["Definition"].startswith("CHANGED. The rack")
        assert len(col.find_notes('"Id:bi"')) == 2  # term and cloze, no duplicate


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
    def mods(package: Path) -> dict[str, int]:
        with zipfile.ZipFile(package) as archive:
            (tmp_path / "c.anki2").write_bytes(archive.read("collection.anki2"))
        with sqlite3.connect(tmp_path / "c.anki2") as db:
            return dict(db.execute("select guid, mod from notes"))

    v1, v2 = mods(releases["v1"]), mods(releases["v2"])
    changed = {guid for guid in v1 if v1[guid] != v2[guid]}
    assert len(changed) == 1
    assert len(set(v2) - set(v1)) >= 1
    assert all(v2[g] == 1_700_086_400 for g in changed | (set(v2) - set(v1)))


def test_fields_are_escaped_and_tagged(tmp_path: Path) -> None:
    text = NEW_ENTRY.replace("test entry added in v2", "<script>alert(1)</script>")
    root = project(tmp_path / "repo", text.lstrip("\n"), plan=False)
    build(root, tmp_path / "out", epoch=1_700_000_000)
    with collection(tmp_path) as col:
        import_package(col, tmp_path / "out" / DECK)
        note = col.get_note(col.find_notes('"note:Yili glossary term"')[0])
        assert note["Gloss"] == "&lt;script&gt;alert(1)&lt;/script&gt;"
        assert "<script>" not in note.cards()[0].answer()
        assert {"yili::category::object", "yili::rite::乡射礼", "yili::layer::classic"} <= set(note.tags)
        assert note["Ruby"] == '<ruby>楅<rt class="tone1">bī</rt></ruby>'
        cloze = col.get_note(col.find_notes('"note:Yili glossary passage cloze"')[0])
        assert "{{c1::楅}}" in cloze["Passage"] and "〈" in cloze["Locus"]
        deck_names = {d.name for d in col.decks.all_names_and_ids()}
        assert "Yili 仪礼 Glossary::乡射礼::Objects 器物" in deck_names


def test_note_types_keep_their_ids(releases, tmp_path: Path) -> None:
    with collection(tmp_path) as col:
        import_package(col, releases["v1"])
        model = col.models.by_name("Yili glossary term")
        assert model["id"] == 1740512001
        assert [f["name"] for f in model["flds"]][:3] == ["Term", "Traditional", "Pinyin"]
        assert [t["name"] for t in model["tmpls"]] == ["Recognition", "Recall", "Hall plan"]
        assert "{{tts zh_CN:Term}}" in model["tmpls"][0]["afmt"]
        assert ".nightMode" in model["css"] or ".night_mode" in model["css"]


def test_csv_has_guid_column(releases) -> None:
    text = (releases["dir"] / "v1" / "yili-glossary.csv").read_text(encoding="utf-8")
    assert text.startswith("#separator:Comma\n#html:true\n#guid column:1\n#notetype column:2\n#deck column:3\n")
    assert "Yili glossary term" in text and "Yili 仪礼 Glossary::乡射礼::Objects 器物" in text


def test_plan_cards_and_sequence_cards(releases, tmp_path: Path) -> None:
    with collection(tmp_path) as col:
        import_package(col, releases["v1"])
        bi = col.get_note(col.find_notes('"Id:bi" "note:Yili glossary term"')[0])
        assert bi["Plan"] == '<img src="yili-plan-bi.svg">'
        assert len(bi.cards()) == 3  # recognition, recall, hall plan
        assert "Which place is marked" in bi.cards()[2].question()
        media = Path(col.media.dir())
        assert sorted(p.name for p in media.iterdir()) == ["yili-plan-bi-q.svg", "yili-plan-bi.svg"]
        assert (media / "yili-plan-bi.svg").read_text(encoding="utf-8").startswith("<svg")
        other = col.get_note(col.find_notes('"Id:si-ma" "note:Yili glossary term"')[0])
        assert len(other.cards()) == 2  # no place on the plan, no plan card
        steps = {col.get_note(n)["Section"]: col.get_note(n) for n in col.find_notes('"note:Yili glossary rite sequence" "Rite:乡射礼"')}
        assert steps["請射"]["Next"] == "誘射" and steps["誘射"]["Previous"] == "請射"
        assert steps["息司正"]["Next"] == "(the rite ends)"
        assert "Order of the rite 仪节次第" in {d.name.split("::")[-1] for d in col.decks.all_names_and_ids()}
