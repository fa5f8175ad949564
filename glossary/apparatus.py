"""The scholarly apparatus: what an entry claims must rest on what it cites.

Two rules over an entry's verified citations (each passage as an :class:`~glossary.index.Origin`,
or a :class:`~glossary.corpus.model.Locus`, which has the same fields):

- **Who said it.** A definition or gloss that names a commentator (鄭康成, 郝仲輿 …) must cite a
  passage in which he speaks (the corpus model attributes every commentary passage, an
  unattributed note of 禮經本義 to 蔡德晉); one that names the author or title of a
  reference work (李如圭, 儀禮釋宮 …) must cite that work.
- **Which rite.** Every rite an entry lists must be backed by a citation located in that rite.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from glossary.corpus import Corpus, Locus
from glossary.corpus.commentators import every_name, person
from glossary.index import Origin
from glossary.model import Entry
from glossary.normalize import normalize
from glossary.problems import ERROR, Problem
from glossary.vocab import Rite, vocabulary

#: The fields whose claims are checked.
CLAIM_FIELDS = ("gloss", "definition", "definition_zh")


def _bare(name: str) -> str:
    """A manifest's author without dates: ``李如圭 (宋)`` → ``李如圭``."""
    return re.sub(r"\s*\(.*?\)\s*$", "", name)


@dataclass(frozen=True, eq=False)
class Authorities:
    """The names a definition may invoke: commentators (who speak in notes) and the corpus'
    authors and titles (whose works are cited)."""

    corpus: Corpus

    @cached_property
    def works_by(self) -> dict[str, frozenset[str]]:
        """Normalised author or title of a reference work → the ids of the texts that are his, or bear it.

        The primary text (禮經本義) and its excerpts are not reference works: its author is a
        commentator like the others, backed only by notes that are his own; nor is another witness
        of its classic (the received 儀禮, whose title every definition may name): its annotator
        鄭玄 is the commentator 鄭康成, backed by his notes.
        """
        found: dict[str, set[str]] = {}
        for info in self.corpus.texts:
            if info.primary or info.excerpt_of or info.witness_of:
                continue
            for name in (_bare(info.author), info.title, info.work):
                if name:
                    found.setdefault(normalize(name), set()).add(info.id)
        return {name: frozenset(ids) for name, ids in found.items()}

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """Over normalised text: any commentator's name (the primary text's author among them),
        a reference work's author or title; longest first."""
        primary = self.corpus.primary
        names = set(every_name()) | set(self.works_by)
        if primary is not None and primary.author:
            names.add(normalize(_bare(primary.author)))
        return re.compile("|".join(map(re.escape, sorted(names, key=len, reverse=True))))

    @cached_property
    def shown(self) -> dict[str, str]:
        """Normalised author or title → as the manifest writes it (for messages)."""
        names: dict[str, str] = {}
        for info in self.corpus.texts:
            for name in (_bare(info.author), info.title, info.work):
                names.setdefault(normalize(name), name)
        return names

    def named(self, text: str) -> list[str]:
        """The authorities ``text`` names, in their own script (a commentator's other names → his own)."""
        found = (m.group() for m in self.pattern.finditer(normalize(text)))
        return list(dict.fromkeys(self.shown.get(key) or person(key) for key in found))

    def backs(self, name: str, loci: Sequence[Origin | Locus]) -> bool:
        """Whether a cited passage is ``name``'s words, or in a work he wrote or that bears his title."""
        key = normalize(name)
        works = self.works_by.get(key, frozenset())
        # A commentator under another of his names (鄭玄, the received text's author: 鄭康成).
        names = {key, normalize(person(name))}
        return any(
            locus.work in works or not names.isdisjoint(normalize(s) for s in locus.speakers)
            for locus in loci
        )


def claim_problems(
    file: str, entry: Entry, loci: Sequence[Origin | Locus], authorities: Authorities
) -> list[Problem]:
    """An error for each authority a claim field names that no cited passage backs."""
    problems = []
    for field in CLAIM_FIELDS:
        text = getattr(entry, field)
        if not text:
            continue
        for name in authorities.named(text):
            if not authorities.backs(name, loci):
                problems.append(
                    Problem(
                        file,
                        entry.line_of(field),
                        f"{entry.id}.{field}",
                        ERROR,
                        f"names {name}, but none of the entry's cited passages is his or in his work: "
                        "cite the passage (glossary locate shows who says each one)",
                        code="Y301",
                    )
                )
    return problems


def rite_problems(
    file: str, owner: str, rites: Sequence[Rite], line: int, loci: Sequence[Origin | Locus]
) -> list[Problem]:
    """An error for each rite listed (by an entry, or a place of the plan drawn for some rites only)
    that no cited passage stands in; ``owner`` and ``line``: whose ``rites`` list it is, and where."""
    vocab = vocabulary()
    backed = {rite.id for locus in loci if locus.rite and (rite := vocab.rite(locus.rite))}
    return [
        Problem(
            file,
            line,
            f"{owner}.rites[{i}]",
            ERROR,
            f"lists {rite.simplified}, but none of its citations is located in {rite.simplified}: "
            "cite a passage of that rite, or leave the rite out",
            code="Y302",
        )
        for i, rite in enumerate(rites)
        if rite.id not in backed
    ]
