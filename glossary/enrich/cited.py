"""Citations resolved once for every renderer: their places, an excerpt's source, the place shown.

The cards, the book, terms.json, the search and the reader view all take a citation with its
places from here (``Glossary.cited``), instead of pairing citations with lists of loci by position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from glossary.corpus.model import Locus
from glossary.model import Citation, Cited
from glossary.normalize import normalize


def shown_place(places: Sequence[Locus]) -> Locus:
    """The place a reader is sent to for a passage found at ``places`` (the first is the one
    quoted): where that is an excerpt without leaves of its own (the simplified transcription's
    page, 卷4 p.7 for every passage), the same passage in the edition it excerpts (卷4 p.21b)."""
    first = places[0]
    if first.page_id is None:
        same = [
            other
            for other in places[1:]
            if other.page_id
            and other.juan == first.juan
            and normalize(other.title) == normalize(first.title)
        ]
        same.sort(key=lambda other: other.section != first.section)  # stable: the first otherwise
        if same:
            return same[0]
    return first


def locus_label(places: Sequence[Locus]) -> str:
    """The place a card names for a passage found at ``places`` (see :func:`shown_place`)."""
    return shown_place(places).label(with_file=False)


def resolve(
    citations: Sequence[Citation],
    loci: Sequence[tuple[Locus, ...]],
    excerpted: Mapping[tuple[str, int], Locus],
) -> tuple[Cited, ...]:
    """Each citation with its places (``loci``: one tuple per citation, in order; empty when the
    quote was not found) and, for an excerpt's passage, the same passage in the text excerpted."""
    if len(citations) != len(loci):
        raise ValueError(f"{len(citations)} citations but {len(loci)} results")
    out = []
    for citation, found in zip(citations, loci):
        if not found:
            out.append(Cited(citation))
            continue
        source = excerpted.get((found[0].file, found[0].start))
        places = found + ((source,) if source is not None else ())
        out.append(Cited(citation, found, source, shown_place(places)))
    return tuple(out)
