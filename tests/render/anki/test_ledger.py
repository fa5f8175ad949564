"""The modification-time ledger (glossary/render/anki/ledger.py): a note's mod changes only when its content does."""

from __future__ import annotations

import hashlib
import json

import pytest

from glossary.render.anki.ledger import FILENAME, MAX_MOD, Ledger, Stamp, parse_ledger

EPOCH = 1_700_000_000
DAY = 86_400


def digest(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def test_a_new_key_gets_the_epoch_and_its_content_hash() -> None:
    ledger = Ledger()
    assert ledger.stamp("note:bi", "楅 arrow rack", EPOCH) == EPOCH
    assert ledger.stamps == {"note:bi": Stamp(digest("楅 arrow rack"), EPOCH)}


def test_unchanged_content_keeps_its_mod_whatever_the_epoch() -> None:
    ledger = Ledger()
    ledger.stamp("note:bi", "楅 arrow rack", EPOCH)
    for later in (EPOCH + DAY, EPOCH + 10 * DAY, EPOCH - DAY):
        assert ledger.stamp("note:bi", "楅 arrow rack", later) == EPOCH
    assert ledger.stamps["note:bi"] == Stamp(digest("楅 arrow rack"), EPOCH)


def test_changed_content_gets_the_new_epoch() -> None:
    ledger = Ledger()
    ledger.stamp("note:bi", "楅 arrow rack", EPOCH)
    ledger.stamp("note:si-ma", "司马 marshal", EPOCH)
    assert ledger.stamp("note:bi", "楅 the rack for arrows", EPOCH + DAY) == EPOCH + DAY
    assert ledger.stamps["note:bi"] == Stamp(digest("楅 the rack for arrows"), EPOCH + DAY)
    assert ledger.stamps["note:si-ma"] == Stamp(
        digest("司马 marshal"), EPOCH
    )  # the other note is untouched


@pytest.mark.parametrize("epoch", [EPOCH, EPOCH - DAY, 0])
def test_a_change_never_goes_back_in_time(epoch: int) -> None:
    # Anki applies only updates that are newer: a build from an older commit must still move forward.
    ledger = Ledger()
    ledger.stamp("note:bi", "old", EPOCH)
    mod = ledger.stamp("note:bi", "new", epoch)
    assert mod == EPOCH + 1 and mod > EPOCH
    assert ledger.stamp("note:bi", "newer", epoch) == EPOCH + 2


def test_changing_back_is_a_change_too() -> None:
    ledger = Ledger()
    ledger.stamp("note:bi", "a", EPOCH)
    ledger.stamp("note:bi", "b", EPOCH + DAY)
    assert ledger.stamp("note:bi", "a", EPOCH + 2 * DAY) == EPOCH + 2 * DAY


def test_each_parse_is_an_independent_ledger() -> None:
    # A build stamps the ledger it parsed from the committed bytes; the bytes stay as they were.
    ledger = Ledger()
    ledger.stamp("note:bi", "a", EPOCH)
    committed = ledger.to_bytes()
    first = parse_ledger(committed)
    first.stamp("note:bi", "b", EPOCH + DAY)
    first.stamp("note:new", "c", EPOCH + DAY)
    assert parse_ledger(committed).stamps == {"note:bi": Stamp(digest("a"), EPOCH)}
    assert set(first.stamps) == {"note:bi", "note:new"}


def test_round_trip_through_bytes() -> None:
    ledger = Ledger()
    ledger.stamp("note:bi", "楅", EPOCH)
    ledger.stamp("cloze:bi", "乃設{{c1::楅}}于中庭", EPOCH + DAY)
    ledger.stamp("notetype:Yili term", "template", EPOCH - DAY)
    again = parse_ledger(ledger.to_bytes())
    assert again.stamps == ledger.stamps
    assert again.to_bytes() == ledger.to_bytes()
    # Read back, the unchanged notes keep their mods.
    assert again.stamp("cloze:bi", "乃設{{c1::楅}}于中庭", EPOCH + 5 * DAY) == EPOCH + DAY


def test_the_file_is_sorted_readable_json() -> None:
    ledger = Ledger()
    for key in ("note:zu-ku", "note:bi", "cloze:bi"):
        ledger.stamp(key, key, EPOCH)
    data = ledger.to_bytes()
    assert data.endswith(b"\n")
    parsed = json.loads(data.decode("utf-8"))
    assert list(parsed) == sorted(parsed) == ["cloze:bi", "note:bi", "note:zu-ku"]
    assert parsed["note:bi"] == {"sha256": digest("note:bi"), "mod": EPOCH}


def test_same_stamps_same_bytes_whatever_the_order() -> None:
    first, second = Ledger(), Ledger()
    notes = [("note:bi", "楅"), ("note:si-ma", "司马"), ("cloze:bi", "乃設楅")]
    for key, content in notes:
        first.stamp(key, content, EPOCH)
    for key, content in reversed(notes):
        second.stamp(key, content, EPOCH)
    assert first.to_bytes() == second.to_bytes()
    assert "楅" not in first.to_bytes().decode("utf-8")  # contents are kept only as hashes


def test_no_file_is_an_empty_ledger() -> None:
    ledger = parse_ledger(None)
    assert ledger.stamps == {}
    assert ledger.stamp("note:bi", "楅", EPOCH) == EPOCH
    assert json.loads(Ledger().to_bytes()) == {}


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"{not json", "Expecting property name"),
        (b'{"note:bi": {"mod": 1}}', "sha256"),
        (b'{"note:bi": {"sha256": "x", "mod": "soon"}}', "invalid literal"),
        (b"\xff", "utf-8"),
        (b"[1, 2]", "attribute"),
    ],
)
def test_a_broken_file_is_a_value_error_naming_the_file(data: bytes, reason: str) -> None:
    # glossary.build turns it into a BuildError.
    with pytest.raises(ValueError, match=f"{FILENAME}: cannot read the Anki ledger: .*{reason}"):
        parse_ledger(data)


@pytest.mark.parametrize("mod", [-1, MAX_MOD + 1, 10**30])
def test_a_time_anki_cannot_store_is_refused(mod: int) -> None:
    # A huge number would overflow SQLite when the package is written: refused when read.
    data = json.dumps({"note:bi": {"sha256": digest("楅"), "mod": mod}}).encode()
    with pytest.raises(ValueError, match="not a time Anki can store"):
        parse_ledger(data)
