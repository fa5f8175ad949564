"""Where each entry's headword occurs in the corpus, counted by rite and layer."""

from __future__ import annotations

from collections import Counter

from glossary.index import CorpusIndex
from glossary.model import Entry, Occurrences
from glossary.normalize import normalize


def concordance(entries: list[Entry], index: CorpusIndex) -> dict[str, Occurrences]:
    """Each entry's occurrences; the place is the rite (simplified) or, outside the rites, the work."""
    result: dict[str, Occurrences] = {}
    for entry in entries:
        counts: Counter[tuple[str, str]] = Counter()
        for hit in index.find(normalize(entry.term)):
            place = index.place(hit.start)
            if place is not None:
                counts[place] += 1
        ordered = tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
        result[entry.id] = Occurrences(sum(counts.values()), ordered)
    return result
