"""The glossary's data model: frozen, and free of I/O."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from glossary.corpus.model import Locus

if TYPE_CHECKING:
    from glossary.enrich.concordance import Occurrences
    from glossary.enrich.sequence import Step
    from glossary.ledger import Ledger
    from glossary.plan import Plan

CATEGORIES = ("object", "position", "action", "role")


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
    rites: tuple[str, ...] = ()
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

    @cached_property
    def loci(self) -> tuple[Locus, ...]:
        return self.pending() if self.pending is not None else self.resolved

    @property
    def verified(self) -> bool:
        return self.status == "verified"


@dataclass(frozen=True, eq=False)
class Glossary:
    """Everything the renderers need, gathered once by the build."""

    entries: tuple[Entry, ...]
    #: entry id → for each citation, its resolved loci (empty when not verified).
    loci: dict[str, tuple[tuple[Locus, ...], ...]]
    #: entry id → occurrences of the headword by rite and layer.
    concordance: dict[str, "Occurrences"]
    #: Seconds since the epoch for anything new in this build (SOURCE_DATE_EPOCH or commit time).
    epoch: int
    #: The modification-time ledger as committed (renderers work on a copy).
    ledger: "Ledger"
    #: The hall plan, if the project has one, and its places' resolved loci.
    plan: "Plan | None" = None
    plan_loci: dict[str, tuple[tuple[Locus, ...], ...]] = field(default_factory=dict)
    #: Rite (simplified) → its sections in order.
    sequences: dict[str, tuple["Step", ...]] = field(default_factory=dict)
    #: The entries' media files by bare name (validation keeps the names unique).
    media: dict[str, bytes] = field(default_factory=dict)

    def entry(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id), None)
