"""The order of each rite's sections, read from the corpus' own ``右…`` markers."""

from __future__ import annotations

from glossary.corpus import Corpus
from glossary.model import Step
from glossary.vocab import vocabulary


def sequences(corpus: Corpus, text_id: str | None = None) -> dict[str, tuple[Step, ...]]:
    """Rite id → its sections in corpus order, from the text ``text_id`` (default: the primary text,
    the whole 禮經本義, whose pages have ids; the seed texts are excerpts of it).

    Sections of passages whose rite is not in the vocabulary (the 提要, the 逸禮) are left out.
    """
    if text_id is None:
        text_id = corpus.primary.id if corpus.primary else None
    vocab = vocabulary()
    result: dict[str, list[Step]] = {}
    for doc in corpus.documents:
        if doc.text_info.id != text_id:
            continue
        for end, name in doc.sections:
            at = max(0, end - 1)
            name_of_rite = doc.rite_at(at)
            rite = vocab.rite(name_of_rite) if name_of_rite else None
            if rite is None:
                continue
            steps = result.setdefault(rite.id, [])
            _, page_id = doc.page_at(at)
            repeat = 1 + sum(1 for step in steps if step.name == name)
            steps.append(Step(rite, len(steps) + 1, name, doc.path, page_id, repeat))
    return {rite: tuple(steps) for rite, steps in result.items()}
