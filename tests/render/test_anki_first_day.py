"""The first day and every day after (issue 25): a fresh install of the whole shipped package in a
real Anki collection, studied as Anki's scheduler hands out new cards.

The shipped glossary is built once (in a copy of the project, so the repository's ledger is left
alone); each test imports it into a fresh collection, with or without the package's deck preset.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from anki.collection import (
    CardId,
    Collection,
    DeckId,
    ImportAnkiPackageOptions,
    ImportAnkiPackageRequest,
)
from anki_collection import IF_NEWER, installed, scheduler, type_of

from glossary.render.anki.package import OPTIONS_NAME, ROOT_DECK
from glossary.vocab import vocabulary

pytestmark = pytest.mark.slow

#: Anki's default new cards per day, and the distance the issue asks between a word's two cards.
DAY = 20
FIRST_RITE = vocabulary().rites[0]


@pytest.fixture(scope="module")
def dist(shipped_dist: Path) -> Path:
    return shipped_dist


def new_cards(col: Collection, days: int) -> list[int]:
    """The new cards the scheduler shows, day after day: each day's queue is taken whole (as many
    new cards as the deck options give), then those cards are moved out of the way (due in a
    year), as studying them would; siblings are buried as the options say."""
    seen: list[int] = []
    for _ in range(days):
        queued = scheduler(col).get_queued_cards(fetch_limit=200).cards
        today = [q.card.id for q in queued if q.queue == 0]
        if not today:
            break
        seen.extend(today)
        col.sched.set_due_date(today, "365")
    return seen


def rite_number(col: Collection, cid: int) -> int:
    """The number of the rite deck a card is in (``Yili 仪礼 Glossary::04 乡射礼::…`` → 4)."""
    parts = col.decks.name(col.get_card(CardId(cid)).did).split("::")
    return int(parts[1].split()[0])


@pytest.mark.parametrize("presets", [False, True], ids=["default-options", "shipped-preset"])
def test_the_first_day_is_the_first_rite(dist: Path, tmp_path: Path, presets: bool) -> None:
    with installed(tmp_path, dist / "yili-glossary.apkg", presets=presets) as col:
        first = new_cards(col, 1)
        assert len(first) == DAY
        for cid in first:
            card = col.get_card(CardId(cid))
            note = card.note()
            assert type_of(note)["name"] == "Yili glossary term", card.template()["name"]
            assert "yili::retired" not in note.tags
            assert f"yili::rite::{FIRST_RITE.simplified}" in note.tags
            assert col.decks.name(card.did).startswith(f"{ROOT_DECK}::01 {FIRST_RITE.simplified}::")


def test_no_retired_card_in_a_fresh_install(dist: Path, tmp_path: Path) -> None:
    """Retired notes are only in yili-retired.apkg: no fresh package, whole or per rite, has them."""
    packages = sorted(p for p in dist.glob("yili-*.apkg") if p.name != "yili-retired.apkg")
    assert len(packages) > 2
    with installed(tmp_path / "all", packages[0], presets=False) as col:
        for package in packages[1:]:
            col.import_anki_package(
                ImportAnkiPackageRequest(
                    package_path=str(package),
                    options=ImportAnkiPackageOptions(
                        update_notes=IF_NEWER, update_notetypes=IF_NEWER
                    ),
                )
            )
        assert col.find_cards("") and not col.find_cards("tag:yili::retired")
        assert not [n for n in col.decks.all_names_and_ids() if "Retired" in n.name]
    # The retired package holds them, in a deck of its own that sorts after every other.
    with installed(tmp_path / "retired", dist / "yili-retired.apkg", presets=False) as col:
        cards = col.find_cards("")
        assert cards and set(cards) == set(col.find_cards("tag:yili::retired"))
        names = sorted(n.name for n in col.decks.all_names_and_ids() if "::" in n.name)
        assert {col.decks.name(col.get_card(c).did) for c in cards} == {names[-1]}
        assert names[-1] == f"{ROOT_DECK}::99 Retired 已并入"
    # Suspended, where Anki keeps that (with "Import any learning progress").
    folder = tmp_path / "retired-scheduled"
    folder.mkdir()
    col = Collection(str(folder / "collection.anki2"))
    try:
        col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=str(dist / "yili-retired.apkg"),
                options=ImportAnkiPackageOptions(
                    update_notes=IF_NEWER, update_notetypes=IF_NEWER, with_scheduling=True
                ),
            )
        )
        assert col.find_cards("") and not col.find_cards("-is:suspended")
    finally:
        col.close()


def test_siblings_apart_under_the_shipped_preset(dist: Path, tmp_path: Path) -> None:
    """Under the preset the package ships, no word's Recall card comes within 20 new cards of its
    Recognition card (nor its Hall plan card within 20 of its Recall card), over every word."""
    with installed(tmp_path, dist / "yili-glossary.apkg", presets=True) as col:
        root = col.decks.id_for_name(ROOT_DECK)
        assert root is not None
        config = col.decks.config_dict_for_deck_id(root)
        assert config["name"] == OPTIONS_NAME
        assert config["new"]["bury"] and config["rev"]["bury"] and config["buryInterdayLearning"]
        assert config["newGatherPriority"] == 1 and config["newSortOrder"] == 1
        # Every deck of the package uses it.
        for deck in col.decks.all_names_and_ids():
            if deck.name.startswith(f"{ROOT_DECK}::"):
                assert col.decks.config_dict_for_deck_id(DeckId(deck.id))["name"] == OPTIONS_NAME
        total = len(col.find_cards(""))
        seen = new_cards(col, 1000)
        assert len(seen) == total  # every card came, in days of 20
        place: dict[int, dict[str, int]] = {}
        for k, cid in enumerate(seen):
            card = col.get_card(CardId(cid))
            place.setdefault(card.nid, {})[str(card.template()["name"])] = k
        words = [p for p in place.values() if "Recognition" in p]
        assert len(words) > 600
        for cards in words:
            assert cards["Recall"] - cards["Recognition"] > DAY, cards
            if "Hall plan" in cards:
                assert cards["Hall plan"] - cards["Recall"] > DAY, cards
        # And the order is the book's: rite decks never go back to an earlier rite.
        numbers = [
            rite_number(col, c)
            for c in seen
            if type_of(col.get_card(CardId(c)).note())["name"] == "Yili glossary term"
            and col.get_card(CardId(c)).ord == 0
        ]
        assert numbers == sorted(numbers)


def test_words_sit_in_the_deck_of_their_earliest_rite(dist: Path, tmp_path: Path) -> None:
    order = {rite.simplified: rite.order for rite in vocabulary().rites}
    with installed(tmp_path, dist / "yili-glossary.apkg", presets=False) as col:
        notes = col.find_notes('"note:Yili glossary term"')
        assert notes
        for nid in notes:
            note = col.get_note(nid)
            rites = [order[t.split("::")[-1]] for t in note.tags if t.startswith("yili::rite::")]
            assert rite_number(col, note.card_ids()[0]) == min(rites), note["Term"]
        # Decks sort in the book's order: the rites by number, then the texts.
        top = [
            n.name.split("::")[1] for n in col.decks.all_names_and_ids() if n.name.count("::") == 1
        ]
        assert top == sorted(top) and top[-1] == "18 读经 Texts"
        assert [int(t.split()[0]) for t in top[:-1]] == sorted(int(t.split()[0]) for t in top[:-1])
