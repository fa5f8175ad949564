"""The decks' descriptions: how to study them, what each sub-deck holds, the licence."""

from __future__ import annotations

from functools import cache

from glossary.model import Release
from glossary.render.anki.notes import template_env
from glossary.vocab import Rite


@cache
def description(
    kind: str,
    rite: Rite | None = None,
    label: str = "",
    credit: str = "",
    release: Release | None = None,
) -> str:
    """The description of a deck: ``root``, ``rite``, ``retired``, ``passage``, ``sequence`` or a
    category's (``label``: the sub-deck's name, ``Objects 器物``); ``credit``: whose modern
    renderings the backs show, ``release``: which release this is and where the next one will be
    (both the root deck's, said once there)."""
    return (
        template_env()
        .get_template("deck_description.html")
        .render(
            kind=kind,
            rite=rite,
            category=label,
            hall=label.startswith("Positions"),
            credit=credit,
            release=release,
        )
        .strip()
    )
