"""The text of each rite as the reader view shows it (``read/<rite>.html``): frozen, free of I/O.

Made by :mod:`glossary.enrich.reader` from the corpus index, the concordance's headwords, the
received text's readings and the modern rendering's alignment; printed by
:mod:`glossary.render.reader`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from glossary.corpus.model import Reading


@dataclass(frozen=True)
class Modern:
    """A paragraph of a modern rendering, shown after the last passage it renders."""

    text: str
    #: Whether the aligner is sure of the pairing (else it is shown, marked, where it falls in order).
    certain: bool


@dataclass(frozen=True)
class Block:
    """A passage of the primary text in reading order: a run of the classic between notes, a
    note, a ``右…`` section marker, or (``heading``) the name of the section that starts here.

    Positions count characters of ``text`` from 0.
    """

    kind: str
    text: str
    juan: int | None
    #: The page the block starts on (``14-1a``), and where a new page starts inside it.
    page: str | None
    pages: tuple[tuple[int, str], ...] = ()
    #: (start, end, entry id): each headword standing here, the longest where two overlap.
    links: tuple[tuple[int, int, str], ...] = ()
    #: (position, anchor, entry ids): where a passage an entry cites starts.
    cited: tuple[tuple[int, str, tuple[str, ...]], ...] = ()
    #: Where the received text (the other witness of the classic) reads otherwise.
    readings: tuple[Reading, ...] = ()
    #: (position, name): where each speaker's words start (notes).
    speakers: tuple[tuple[int, str], ...] = ()
    modern: tuple[Modern, ...] = ()


@dataclass(frozen=True)
class RiteText:
    """One rite of the primary text, in reading order."""

    rite: str
    juans: tuple[int, ...]
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class ReaderText:
    """Every rite's text, and where each cited passage stands in it."""

    rites: tuple[RiteText, ...]
    #: (file, start) of a locus as an entry's citation resolved it → (rite id, anchor).
    places: Mapping[tuple[str, int], tuple[str, str]] = field(default_factory=dict)
    #: What the modern renderings are (their labels), and the received text's title.
    renderings: tuple[str, ...] = ()
    witness: str = ""
    title: str = ""

    def place(self, file: str, start: int) -> tuple[str, str] | None:
        """(rite id, anchor) of the cited passage at ``file``/``start``, if the text shows it."""
        return self.places.get((file, start))
