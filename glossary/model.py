"""The glossary's data model: frozen, and free of I/O."""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from glossary.corpus.model import Locus
from glossary.vocab import Rite

if TYPE_CHECKING:
    from glossary.folds import Fold


@dataclass(frozen=True)
class Citation:
    """A quoted passage and, optionally, the place it is said to stand."""

    quote: str
    line: int
    work: str | None = None
    juan: int | None = None
    page: str | None = None
    section: str | None = None
    layer: str | None = None
    note: str | None = None
    #: (field, line) for each field given, so problems point at the right line.
    lines: tuple[tuple[str, int], ...] = ()

    def line_of(self, name: str) -> int:
        """The line of one of the citation's fields (the quote's line if absent)."""
        return dict(self.lines).get(name, self.line)

    def locus_fields(self) -> dict[str, object]:
        """The locus fields the citation gives."""
        fields = {
            "work": self.work,
            "juan": self.juan,
            "page": self.page,
            "section": self.section,
            "layer": self.layer,
        }
        return {k: v for k, v in fields.items() if v is not None}


@dataclass(frozen=True)
class Entry:
    """One glossary entry, as written in terms.yaml."""

    id: str
    term: str
    pinyin: str
    category: str
    gloss: str
    definition: str
    line: int
    traditional: str | None = None
    #: Other headwords of the same concept (挼祭 beside 綏祭).
    variants: tuple[str, ...] = ()
    #: Resolved through the vocabulary when the file is validated.
    rites: tuple[Rite, ...] = ()
    definition_zh: str | None = None
    citations: tuple[Citation, ...] = ()
    related: tuple[str, ...] = ()
    media: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    #: (field, line) for each field given.
    lines: tuple[tuple[str, int], ...] = ()

    def line_of(self, name: str) -> int:
        """The line of one of the entry's fields (the entry's line if absent)."""
        return dict(self.lines).get(name, self.line)


@dataclass(frozen=True, eq=False)
class CitationResult:
    """What the checker found for one citation.

    A citation that names no place agrees with every occurrence; its loci are resolved
    (``pending``) only when an output asks for them, so a plain check stays fast.
    """

    entry_id: str
    index: int
    status: str  # verified | not-found | locus-mismatch | invalid
    resolved: tuple[Locus, ...] = ()
    pending: Callable[[], tuple[Locus, ...]] | None = None
    #: Where the pending occurrences start in the corpus index, and their length: enough to ask
    #: whose words and which rite they are without resolving whole loci.
    starts: Sequence[int] = ()
    size: int = 0
    #: The variant folds and edition variants the match needed (script differences are not folds),
    #: over its agreeing occurrences, in the quote's order: see :mod:`glossary.folds`.
    folds: tuple["Fold", ...] = ()

    @property
    def spans(self) -> list[tuple[int, int]]:
        """(start, end) in the corpus index of each pending occurrence."""
        return [(start, start + self.size) for start in self.starts]

    @cached_property
    def loci(self) -> tuple[Locus, ...]:
        return self.pending() if self.pending is not None else self.resolved

    @property
    def verified(self) -> bool:
        return self.status == "verified"


@dataclass(frozen=True)
class Retired:
    """An entry merged into another: its id is kept so its Anki notes can say where it went."""

    id: str
    term: str
    merged_into: str
    note: str
    line: int


@dataclass(frozen=True)
class Place:
    """A place on the hall plan: an area, wall, pillar, steps, door, window, object or mark."""

    id: str
    label: str
    kind: str
    x: float
    y: float
    line: int
    w: float = 0
    h: float = 0
    term: str | None = None
    rites: tuple[Rite, ...] = ()
    citations: tuple[Citation, ...] = ()
    note: str | None = None


@dataclass(frozen=True)
class Plan:
    """The hall plan: its size in plan units and its places."""

    width: float
    height: float
    places: tuple[Place, ...]

    def for_term(self, term_id: str) -> Place | None:
        return next((p for p in self.places if p.term == term_id), None)


@dataclass(frozen=True)
class Occurrences:
    """Counts of a headword's occurrences: ((rite or work, layer), count), most first."""

    total: int
    by_place: tuple[tuple[tuple[str, str], int], ...]

    def for_rite(self, rite: Rite) -> int:
        """Occurrences within one rite, all layers."""
        return sum(n for (place, _), n in self.by_place if place == rite.simplified)


@dataclass(frozen=True)
class Step:
    """One section of a rite: its place in the order and where its marker stands."""

    rite: Rite
    number: int
    name: str
    file: str
    page_id: str | None
    #: 1 for the first section of this name in the rite, 2 for a second (取矢視算 comes twice).
    repeat: int = 1

    @property
    def key(self) -> str:
        """Stable across releases: rite and name, plus the repeat count of that name."""
        return f"{self.rite.simplified}/{self.name}/{self.repeat}"


@dataclass(frozen=True, eq=False)
class Glossary:
    """Everything the renderers need, gathered once by the build."""

    entries: tuple[Entry, ...]
    #: entry id → for each citation, its resolved loci (empty when not verified).
    loci: dict[str, tuple[tuple[Locus, ...], ...]]
    #: entry id → occurrences of the headword by rite and layer.
    concordance: dict[str, Occurrences]
    #: Seconds since the epoch for anything new in this build (SOURCE_DATE_EPOCH or commit time).
    epoch: int
    #: Files a renderer keeps in the project between builds, as committed (name → bytes; the
    #: Anki ledger): the renderer reads them from here and returns their new contents.
    state: Mapping[str, bytes] = field(default_factory=dict)
    #: The hall plan, if the project has one, and its places' resolved loci.
    plan: Plan | None = None
    plan_loci: dict[str, tuple[tuple[Locus, ...], ...]] = field(default_factory=dict)
    #: Rite id → its sections in order.
    sequences: dict[str, tuple[Step, ...]] = field(default_factory=dict)
    #: The entries' media files by bare name (validation keeps the names unique).
    media: dict[str, bytes] = field(default_factory=dict)
    #: Ids of entries merged into others (retired.yaml).
    retired: tuple[Retired, ...] = ()

    def entry(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id), None)
