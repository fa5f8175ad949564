"""The sense units around a passage of a classic: the phrases its commentary cuts it into.

A card's passage window is whole units (from the unit before the passage to the one after it), so
it never opens or closes mid-phrase. The cuts of a file are worked out once (:func:`cuts_of`) and
each locus then looks its units up by bisection (:func:`sense_units`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right

from glossary.corpus import Document, Stream

#: How far a sense unit is followed (characters): a unit is a phrase or a sentence; one longer than
#: this is cut, where the commentary is silent for a long run.
MAX_UNIT = 48


def cuts_of(doc: Document, stream: Stream) -> array:
    """The positions of ``stream`` (a classic) before which its text is cut, in order: where another
    stream of its file (the notes) starts a run between two of its characters, and where a section
    ends. Empty when no other stream cuts it (a layer no notes cut has no units)."""
    others = [s.offsets for s in doc.streams if s is not stream and len(s.offsets)]
    if stream.layer != "classic" or not others or not len(stream.offsets):
        return array("Q")
    offsets = stream.offsets
    everywhere = offsets[len(offsets) - 1] + 2  # past the last position of the file
    found = {offsets.count_below(p) for o in others for p in o.run_starts(-1, everywhere)}
    found |= {offsets.count_below(end) for end, _ in doc.sections}
    return array("Q", sorted(found))


def sense_units(stream: Stream, cuts: array, first: int, last: int) -> tuple[tuple[str, ...], int]:
    """The ``units`` and ``units_at`` of a locus of ``stream.text[first:last + 1]``.

    The classic is cut where another stream of its file (the notes) starts between two of its
    characters, and where a section ends (``cuts``, :func:`cuts_of`); the units run from the one
    before the passage's to the one after it, each followed at most MAX_UNIT characters (none for a
    layer no other cuts).
    """
    if not cuts:
        return (), 0
    size = len(stream.text)
    lo, hi = max(0, first - 3 * MAX_UNIT), min(size, last + 1 + 3 * MAX_UNIT)
    cuts = cuts[bisect_right(cuts, lo) : bisect_left(cuts, hi)]  # lo < c < hi
    before = [c for c in cuts if c <= first and first - c <= MAX_UNIT] or (
        [0] if first < MAX_UNIT else []
    )
    after = [c for c in cuts if c > last and c - last <= MAX_UNIT] or (
        [size] if size - last <= MAX_UNIT else []
    )
    if not before or not after:
        return (), 0  # a long run the commentary leaves whole: no unit to show
    edges = [before[-1], *(c for c in cuts if before[-1] < c <= last), after[0]]
    earlier = [c for c in cuts if edges[0] - MAX_UNIT <= c < edges[0]]
    later = [c for c in cuts if edges[-1] < c <= edges[-1] + MAX_UNIT]
    edges = [*earlier[-1:], *edges, *later[:1]]
    units = tuple(stream.text[a:b] for a, b in zip(edges, edges[1:]) if b > a)
    return units, first - edges[0]
