"""Deck names (glossary/render/anki/package.py): every note's one home, in an order that studies well."""

from __future__ import annotations

from glossary.render.anki.package import ROOT_DECK, deck_name
from glossary.vocab import vocabulary


def test_the_texts_come_after_every_rites_words_in_annkis_deck_order() -> None:
    rites = vocabulary().rites
    words = [deck_name(rite, category.id) for rite in rites for category in vocabulary().categories]
    words += [deck_name(rite, "sequence") for rite in rites]
    words += [deck_name(rite, "stage") for rite in rites]
    texts = [deck_name(rite, "passage") for rite in rites]
    assert all(name.startswith(ROOT_DECK + "::") for name in words + texts)
    assert max(words) < min(texts)  # Anki lists (and gathers new cards from) decks by name
    assert len(set(texts)) == len(rites)


def test_a_rites_stage_plans_sort_after_its_words() -> None:
    """Under Anki's default options new cards come deck by deck, in the decks' order: a rite's
    stage-plan deck is its last."""
    for rite in vocabulary().rites:
        words = [deck_name(rite, c.id) for c in vocabulary().categories]
        words.append(deck_name(rite, "sequence"))
        assert max(words) < deck_name(rite, "stage") < deck_name(rite, "passage")
