"""Merged entries: retired.yaml keeps their ids, and their Anki notes say where they went."""

from __future__ import annotations

import os
import sqlite3
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import make_project, mini_entries, set_field

from glossary.check import check_project
from glossary.cli import cli
from glossary.render.anki.ids import note_guid
from glossary.retired import load_retired

RETIRED = "zu-ku"
INTO = "ku"
NOTE = "卒哭 is the last of the wailings: kept with 哭 (a test merge)."


def retired_yaml(id_: str = RETIRED, into: str = INTO, note: str = NOTE) -> str:
    return f'- id: {id_}\n  term: 卒哭\n  merged_into: {into}\n  note: "{note}"\n'


def without_entry(text: str, entry_id: str) -> str:
    """A terms text with one entry (its lines up to the next entry) taken out."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line == f"- id: {entry_id}\n")
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].startswith("- id: ")), len(lines)
    )
    return "".join(lines[:start] + lines[end:])


def merged_project(folder: Path) -> Path:
    return merge(make_project(folder))


def merge(root: Path) -> Path:
    """The project with zu-ku merged into ku (its links updated, its id retired)."""
    terms = root / "terms.yaml"
    text = without_entry(terms.read_text(encoding="utf-8"), RETIRED)
    for entry in mini_entries().values():  # a merge updates the links to the merged id too
        if RETIRED in entry.related and entry.id != RETIRED:
            text = set_field(text, entry.id, "related", [r for r in entry.related if r != RETIRED])
    terms.write_text(text, encoding="utf-8")
    (root / "retired.yaml").write_text(retired_yaml(), encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "text, path, message",
    [
        (
            retired_yaml(id_=INTO),
            "ku.id",
            # Said at the entry that took it, with free ids (ku-action: the entry's category).
            f"ku is a retired id ({{retired}}:1: 卒哭, merged into {INTO}), and a retired id is "
            "never used again (users' Anki notes still carry it): choose another id for this "
            "entry; free: ku-action, ku-shiyu",
        ),
        (
            retired_yaml(into="kuu"),
            "zu-ku.merged_into",
            "unknown glossary id 'kuu' (did you mean 'ku'?)",
        ),
        (retired_yaml() + retired_yaml(), "zu-ku.id", "'zu-ku' is listed twice"),
        ("- id: zu-ku\n  term: 卒哭\n  merged_into: ku\n", "zu-ku", "missing field 'note'"),
    ],
)
def test_bad_retired_ids_are_reported_at_their_lines(
    tmp_path: Path, text: str, path: str, message: str
) -> None:
    (tmp_path / "retired.yaml").write_text(text, encoding="utf-8")
    entries = [entry for entry in mini_entries().values() if entry.id != RETIRED]
    retired, problems = load_retired(tmp_path / "retired.yaml", entries)
    message = message.format(retired=tmp_path / "retired.yaml")
    assert [(p.path, p.message) for p in problems] == [(path, message)]
    if path == "ku.id":  # at the entry's own line in the terms file
        assert (problems[0].file, problems[0].line) == ("terms.yaml", mini_entries()[INTO].line)


def test_the_check_reads_retired_yaml_beside_the_terms(tmp_path: Path, index) -> None:
    root = merged_project(tmp_path / "p")
    report = check_project(root / "terms.yaml", root / "corpus", index=index)
    assert not report.failed(), "\n".join(map(str, report.problems))
    assert [(r.id, r.merged_into, r.note) for r in report.retired] == [(RETIRED, INTO, NOTE)]


def test_an_entry_for_a_merged_word_is_refused(tmp_path: Path, index) -> None:
    """Y807: 卒哭 went into ku; a new entry with that headword (or variant) is said at its line."""
    root = merged_project(tmp_path / "p")
    terms = root / "terms.yaml"
    other = next(e for e in mini_entries().values() if e.id not in (RETIRED, INTO))
    terms.write_text(set_field(terms.read_text(encoding="utf-8"), other.id, "term", "卒哭"))
    report = check_project(terms, root / "corpus", index=index)
    merged = [p for p in report.problems if p.code == "Y807"]
    assert [(p.file, p.line, p.path) for p in merged] == [
        (str(terms), other.line, f"{other.id}.term")
    ]
    assert f"卒哭 was merged into {INTO}" in merged[0].message
    assert f"retired.yaml:1, the retired id {RETIRED}" in merged[0].message
    assert f"add what this entry says to {INTO}" in merged[0].message


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


def notes_of(package: Path, folder: Path) -> dict[str, tuple[str, str]]:
    """guid → (tags, fields) of every note in a package."""
    with zipfile.ZipFile(package) as archive:
        (folder / "c.anki2").write_bytes(archive.read("collection.anki2"))
    with sqlite3.connect(folder / "c.anki2") as db:
        return {
            guid: (tags, flds)
            for guid, tags, flds in db.execute("select guid, tags, flds from notes")
        }


def test_the_retired_notes_keep_their_guids_and_say_where_they_went(tmp_path: Path) -> None:
    """They are in yili-retired.apkg only (a fresh install never studies them)."""
    root = merged_project(tmp_path / "p")
    fresh = notes_of(build(root, tmp_path / "dist", 1_700_000_000), tmp_path)
    assert fresh and not [tags for tags, _ in fresh.values() if "yili::retired" in tags]
    notes = notes_of(tmp_path / "dist" / "yili-retired.apkg", tmp_path)
    assert {tags for tags, _ in notes.values()} == {" yili::retired "}
    into = mini_entries()[INTO]
    for kind in ("term", "cloze"):
        tags, fields = notes[note_guid(RETIRED, kind)]
        assert tags.split() == ["yili::retired"]
        assert f"merged into {into.term} {into.pinyin} ({INTO})" in fields
    assert NOTE in notes[note_guid(RETIRED, "term")][1]
    assert "tag:yili::retired" in notes[note_guid(RETIRED, "term")][1]  # how to delete them


@pytest.mark.slow
def test_importing_the_merge_updates_the_old_notes_in_place(tmp_path: Path) -> None:
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
    from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition

    if_newer = ImportAnkiPackageUpdateCondition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER
    options = ImportAnkiPackageOptions(
        update_notes=if_newer, update_notetypes=if_newer, with_scheduling=False
    )
    # One project, two releases: the Anki ledger committed with the first is the second's.
    root = make_project(tmp_path / "project")
    v1 = build(root, tmp_path / "dist1", 1_700_000_000)
    v2 = build(merge(root), tmp_path / "dist2", 1_700_086_400)
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(v1), options=options))
        old = set(col.find_notes(f'"Id:{RETIRED}"'))
        cards = sorted(col.find_cards(f'"Id:{RETIRED}"'))
        assert len(old) == 2 and cards
        log = col.import_anki_package(
            ImportAnkiPackageRequest(package_path=str(v2), options=options)
        ).log
        assert not log.new
        updated = {n.id.nid for n in log.updated}
        # As the README says: then the retired package, which updates the retired ids' notes.
        retired = col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=str(v2.with_name("yili-retired.apkg")), options=options
            )
        ).log
        assert not retired.new
        assert {n.id.nid for n in retired.updated} == old
        updated |= old
        # Besides them, only the entry whose links changed (its Related no longer names zu-ku).
        assert {col.get_note(n)["Id"] for n in updated - old} <= {
            entry.id for entry in mini_entries().values() if RETIRED in entry.related
        }
        # The same notes and cards, now tagged: one search finds them, and they can be deleted.
        assert set(col.find_notes("tag:yili::retired")) == old
        assert sorted(col.find_cards(f'"Id:{RETIRED}"')) == cards
        col.remove_notes(list(old))
        assert not col.find_notes(f'"Id:{RETIRED}"') and col.find_notes(f'"Id:{INTO}"')
    finally:
        col.close()
