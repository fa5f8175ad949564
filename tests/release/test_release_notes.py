"""What a release's import instructions say, by what changed in the note types since each earlier
release (the Anki ledgers committed at their tags)."""

from __future__ import annotations

import pytest
from conftest import FIXTURES, make_project

from glossary.build import build
from glossary.release.git import Tags
from glossary.release.notes import import_text, note_changes, notetypes_changed
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE
from glossary.render.anki.ledger import parse_ledger

#: The ledger of the decks before the card rework (tests/fixtures/anki-release-0.1): its note
#: types had fewer fields, so updating from it needs Anki to merge them.
BEFORE_REWORK = (FIXTURES / "anki-release-0.1" / "anki-ledger.json").read_bytes()


@pytest.fixture(scope="module")
def mini_ledger(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The ledger the current code writes for the fixture glossary."""
    root = make_project(tmp_path_factory.mktemp("notes") / "project")
    report = build(root / "terms.yaml", root / "corpus", root.parent / "dist", record=True)
    assert not report.failed()
    return (root / LEDGER_FILE).read_bytes()


def test_note_types_changed_since_the_release_before_the_rework(mini_ledger: bytes) -> None:
    assert notetypes_changed(parse_ledger(BEFORE_REWORK), parse_ledger(mini_ledger))
    assert not notetypes_changed(parse_ledger(mini_ledger), parse_ledger(mini_ledger))
    # a tag without a ledger is not known to share the note types: merging is the safe advice
    assert notetypes_changed(parse_ledger(None), parse_ledger(mini_ledger))


def test_each_earlier_release_is_listed_under_the_boxes_it_needs(mini_ledger: bytes) -> None:
    tags = Tags("v0.3.0", ("v0.2.0", "v0.1.0"))
    files = {"yili-glossary.apkg": b"", "yili-retired.apkg": b"", "yili-xiangshe.apkg": b""}
    text = import_text(tags, mini_ledger, {"v0.2.0": mini_ledger, "v0.1.0": BEFORE_REWORK}, files)
    plain = text.split("# Updating from v0.2.0\n", 1)[1].split("\n## ", 1)[0]
    assert "Leave **Merge note types** unticked" in plain
    assert "then `yili-retired.apkg` with the same options" in plain
    merge = text.split("# Updating from v0.1.0, or from decks built before v0.1.0\n", 1)[1]
    assert "Tick **Merge note types**" in merge and "**Always**" in merge
    assert "- `yili-xiangshe.apkg`: 乡射礼 · The District Archery Rite" in text
    assert "yili-glossary.csv" not in text  # no CSV in this release: nothing said of one


def test_the_first_release_speaks_to_those_who_built_the_decks_themselves(
    mini_ledger: bytes,
) -> None:
    text = import_text(Tags("v0.1.0"), mini_ledger, {}, {"yili-glossary.apkg": b""})
    assert "# Updating from decks built before v0.1.0\n" in text
    assert "Updating from v" not in text


def test_the_notes_an_update_changes_are_counted_from_the_ledgers(mini_ledger: bytes) -> None:
    old, new = parse_ledger(mini_ledger), parse_ledger(mini_ledger)
    key = next(k for k in new.stamps if k.startswith("note:"))
    del old.stamps[key]
    other = next(k for k in new.stamps if k.startswith("cloze:"))
    old.stamps[other] = type(old.stamps[other])("0" * 64, 1)
    rows = {row["name"]: row for row in note_changes(old, new)}
    assert rows["word notes"]["added"] == 1 and rows["word notes"]["changed"] == 0
    assert rows["passage notes"]["changed"] == 1 and rows["passage notes"]["added"] == 0
    assert rows["section notes"]["added"] == rows["section notes"]["changed"] == 0
