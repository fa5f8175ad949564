"""The vocabulary: rites and categories, defined once in ``data/vocab.yaml``.

Every other module asks here for a rite's names, slug, 卷 and order, and for a
category's labels; none types them again. Names given by contributors or by the
corpus (either script, an alias) are resolved to a :class:`Rite` once, when the
data is loaded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources

import yaml


class VocabularyError(ValueError):
    """The shipped vocabulary file is broken (a packaging or editing mistake)."""


@dataclass(frozen=True)
class Rite:
    """One rite of the 儀禮."""

    id: str
    simplified: str
    traditional: str
    english: str
    #: The 卷 of 禮經本義 (KR1d0044) that holds the rite.
    juan: int
    #: Place in the received order of the seventeen rites.
    received: int
    #: Place in 禮經本義's order (the order of vocab.yaml).
    order: int
    aliases: tuple[str, ...] = ()
    #: What its 右… sections are: ``steps`` done in order, or (喪服) ``grades`` of mourning, heaviest first.
    sections: str = "steps"

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the rite is known by."""
        return (self.simplified, self.traditional, *self.aliases)


@dataclass(frozen=True)
class Category:
    """One kind of entry: object, position, action, role."""

    id: str
    heading: str
    zh: str

    @property
    def label(self) -> str:
        """``object 器物``: the category as a card names it."""
        return f"{self.id} {self.zh}"


@dataclass(frozen=True)
class Vocabulary:
    """The rites in 禮經本義's order and the categories in the book's order."""

    rites: tuple[Rite, ...]
    categories: tuple[Category, ...]

    @cached_property
    def _exact(self) -> dict[str, Rite]:
        return {name: rite for rite in self.rites for name in (rite.id, *rite.names)}

    @cached_property
    def _folded(self) -> dict[str, Rite]:
        from glossary.normalize import normalize  # only for names written in neither listed form

        return {normalize(name): rite for rite in self.rites for name in rite.names}

    @cached_property
    def _english(self) -> dict[str, Rite]:
        return {_english_key(rite.english): rite for rite in self.rites}

    def rite(self, name: str) -> Rite | None:
        """The rite a name refers to: its id, either script, an alias, a variant spelling of one,
        or its English name (in any case, with or without "The")."""
        found = self._exact.get(name.strip()) or self._english.get(_english_key(name))
        if found is not None:
            return found
        from glossary.normalize import normalize

        return self._folded.get(normalize(name))

    def rite_list(self) -> str:
        """Every rite's names, for a message that refuses one: ``士冠礼 (士冠禮, The Capping of an
        Ordinary Officer)``, …"""
        return "; ".join(f"{r.simplified} ({r.traditional}, {r.english})" for r in self.rites)

    @cached_property
    def _categories(self) -> dict[str, Category]:
        return {category.id: category for category in self.categories}

    def category(self, category_id: str) -> Category:
        """The category with this id (ids come from validated data, so it exists)."""
        return self._categories[category_id]

    @property
    def category_ids(self) -> tuple[str, ...]:
        return tuple(self._categories)

    @property
    def rite_names(self) -> tuple[str, ...]:
        """The rites' simplified names, in 禮經本義's order (for help texts and messages)."""
        return tuple(rite.simplified for rite in self.rites)


def _english_key(name: str) -> str:
    words = name.casefold().replace("’", "'").split()
    return " ".join(words[1:] if words[:1] == ["the"] else words)


def parse(data: object) -> Vocabulary:
    """A vocabulary from the data of ``vocab.yaml`` (validated against its schema)."""
    import jsonschema_rs

    schema = json.loads(
        resources.files("glossary.schema").joinpath("vocab.schema.json").read_text(encoding="utf-8")
    )
    errors = [
        f"{'/'.join(map(str, e.instance_path)) or '(top)'}: {e.message}"
        for e in jsonschema_rs.validator_for(schema).iter_errors(data)
    ]
    if errors:
        raise VocabularyError("vocab.yaml: " + "; ".join(errors))
    assert isinstance(data, dict)
    rites = tuple(
        Rite(
            id=r["id"],
            simplified=r["simplified"],
            traditional=r["traditional"],
            english=r["english"],
            juan=r["juan"],
            received=r["received"],
            order=order,
            aliases=tuple(r.get("aliases", ())),
            sections=r.get("sections", "steps"),
        )
        for order, r in enumerate(data["rites"], 1)
    )
    categories = tuple(Category(c["id"], c["heading"], c["zh"]) for c in data["categories"])
    seen: dict[str, str] = {}
    for rite in rites:
        for name in (rite.id, *rite.names):
            if seen.setdefault(name, rite.id) != rite.id:
                raise VocabularyError(f"vocab.yaml: {name!r} names both {seen[name]} and {rite.id}")
    if len({c.id for c in categories}) != len(categories):
        raise VocabularyError("vocab.yaml: a category id is listed twice")
    return Vocabulary(rites, categories)


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The shipped vocabulary (read once)."""
    text = resources.files("glossary.data").joinpath("vocab.yaml").read_text(encoding="utf-8")
    return parse(yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
