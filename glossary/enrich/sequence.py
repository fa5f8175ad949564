"""The order of each rite's sections, read from the corpus' own ``右…`` markers."""
from __future__ import annotations

from dataclasses import dataclass

from glossary.corpus import Corpus
from glossary.normalize import normalize


@dataclass(frozen=True)
class Step:
    """One section of a rite: its place in the order and where its marker stands."""

    rite: str
    number: int
    name: str
    file: str
    page_id: str | None
    #: 1 for the first section of this name in the rite, 2 for a second (取矢視算 comes twice).
    repeat: int = 1

    @property
    def key(self) -> str:
        """Stable across releases: rite and name, plus the repeat count of that name."""
        return f"{normalize(self.rite)}/{self.name}/{self.repeat}"


def sequences(corpus: Corpus, text_id: str = "KR1d0044") -> dict[str, tuple[Step, ...]]:
    """Rite (simplified) → its sections in corpus order, from the full text ``text_id``."""
    result: dict[str, list[Step]] = {}
    for doc in corpus.documents:
        if doc.text_info.id != text_id:
            continue
        for end, name in doc.sections:
            at = max(0, end - 1)
            rite = doc.rite_at(at)
            if not rite:
                continue
            steps = result.setdefault(normalize(rite), [])
            _, page_id = doc.page_at(at)
            repeat = 1 + sum(1 for step in steps if step.name == name)
            steps.append(Step(rite, len(steps) + 1, name, doc.path, page_id, repeat))
    return {rite: tuple(steps) for rite, steps in result.items()}
