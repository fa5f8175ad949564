"""The glossary's data model: frozen, and free of I/O."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from glossary.corpus.model import Locus, TextInfo
from glossary.model_alignment import Alignment, Rendering
from glossary.vocab import Rite

if TYPE_CHECKING:
    from glossary.folds import Fold
    from glossary.rite_text import ReaderText


@dataclass(frozen=True)
class Declined:
    """A rite whose classic uses an entry's headword but that the entry does not list, and why."""

    rite: Rite
    why: str
    line: int = 0
    #: The rite's name as the entry writes it (乡射礼, 鄉射禮, or its English).
    name: str = ""


@dataclass(frozen=True)
class Sense:
    """What the word means in some of the entry's rites, where the rites use it differently."""

    rites: tuple[Rite, ...]
    gloss: str
    definition: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Waiver:
    """A rule of the check (its code) that does not hold for an entry, and the scholar's reason."""

    code: str
    why: str
    line: int = 0


@dataclass(frozen=True)
class Follows:
    """Which reading of a quoted classic an entry follows where the received text reads it
    otherwise (``print``: 禮經本義 as quoted; ``received``: the received 儀禮), and why."""

    follows: str
    why: str


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
    reading: Follows | None = None
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
    #: The 廣韻 reading (反切) chosen for each headword character, None where none fits.
    guangyun: tuple[str | None, ...] | None = None
    #: The 儀禮音義 headword whose note reads each headword character, where the entry names it.
    yinyi: tuple[str | None, ...] | None = None
    #: Why the pinyin is not the reading of 經典釋文 (or of the 廣韻 reading chosen).
    reading_note: str | None = None
    #: Characters a text-to-speech voice reads, in their everyday readings, as the ritual reading.
    tts: str | None = None
    #: Resolved through the vocabulary when the file is validated.
    rites: tuple[Rite, ...] = ()
    #: Rites whose classic uses the headword in another sense (glossary.enrich.rite_coverage).
    rites_declined: tuple[Declined, ...] = ()
    definition_zh: str | None = None
    #: Where the sense differs by rite: each sense with its rites (some of ``rites``).
    senses: tuple[Sense, ...] = ()
    citations: tuple[Citation, ...] = ()
    related: tuple[str, ...] = ()
    media: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    #: Rules of the check that do not hold for this entry, each with the reason.
    ignore: tuple[Waiver, ...] = ()
    #: (field, line) for each field given.
    lines: tuple[tuple[str, int], ...] = ()

    def line_of(self, name: str) -> int:
        """The line of one of the entry's fields (the entry's line if absent)."""
        return dict(self.lines).get(name, self.line)


@dataclass(frozen=True)
class GuangyunReading:
    """A 廣韻 reading: its 反切 (None for a 小韻 without one) and 音韻地位 (tshet-uinh's 描述)."""

    fanqie: str | None
    position: str

    def to_json(self) -> dict[str, object]:
        return {"fanqie": self.fanqie, "position": self.position}


@dataclass(frozen=True)
class ShiwenReading:
    """The reading 經典釋文 (儀禮音義) gives a headword character, as printed, at its verified place."""

    #: The reading as printed (``音對``, ``申鴆反``, ``依注音墮許恚反``).
    text: str
    locus: Locus
    #: The 儀禮音義's headword it glosses (``二敦``).
    headword: str
    #: Whose reading it is when 陸德明 reports another's (``劉昌宗``), else None (his own).
    who: str | None = None
    #: The readings given after it: (as printed, whose: None for 陸德明's own second reading).
    others: tuple[tuple[str, str | None], ...] = ()
    #: The 音韻地位 (描述) the reading gives (empty for 如字).
    positions: tuple[str, ...] = ()
    #: The book of readings it is cited from, as the manifest names it (``儀禮音義``).
    source: str = ""
    #: For a 直音, the character it reads it as (福 for 音福).
    sounds_like: str = ""

    def to_json(self) -> dict[str, object]:
        return {"text": self.text, "locus": self.locus.to_json()}


@dataclass(frozen=True)
class CharReading:
    """How one headword character was read: the entry's pinyin, the 廣韻's, the 儀禮音義's; and,
    for a rare character, how it is built (glossary.enrich.characters)."""

    char: str
    pinyin: str
    guangyun: GuangyunReading | None = None
    shiwen: ShiwenReading | None = None
    form: CharForm | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "char": self.char,
            "pinyin": self.pinyin,
            "guangyun": self.guangyun.to_json() if self.guangyun else None,
            "shiwen": self.shiwen.to_json() if self.shiwen else None,
            "form": self.form.to_json() if self.form else None,
        }


@dataclass(frozen=True)
class CharForm:
    """A rare character's breakdown: its Kangxi radical (as an ideograph), the radical's number,
    the strokes beyond it (``residual``, −1 where the character is the radical less a stroke, as
    the taboo form 𤣥 of 玄), the Kangxi total, and the standard form it is a variant of, with the
    table that says so."""

    char: str
    radical: str
    number: int
    residual: int
    strokes: int
    standard: str | None = None
    source: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "radical": self.radical,
            "radical_number": self.number,
            "residual_strokes": self.residual,
            "strokes": self.strokes,
            "variant_of": self.standard,
            "variant_source": self.source or None,
        }


@dataclass(frozen=True)
class Cited:
    """A citation resolved once, for every renderer: the places its quote stands (the quoted one
    first, with its sense units) and the place a reader is sent to."""

    citation: Citation
    loci: tuple[Locus, ...] = ()
    #: Where the quoted place is in an excerpt without leaves of its own (the transcription's
    #: 卷4 p.7 for every passage): the same passage in the text it excerpts.
    source: Locus | None = None
    #: The place a card names (the quoted one, or the excerpted text's leaf for an excerpt's).
    shown: Locus | None = None

    @property
    def found(self) -> bool:
        """Whether the quote was found (an unverified citation has no places)."""
        return bool(self.loci)

    @property
    def places(self) -> tuple[Locus, ...]:
        """Every place, the excerpted text's last (so the quote stays the excerpt's)."""
        return self.loci + ((self.source,) if self.source is not None else ())

    @property
    def label(self) -> str:
        """The place as a card names it: ``禮經本義 卷4 p.22a 〈取矢〉 classic``."""
        return self.shown.label(with_file=False) if self.shown is not None else ""


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
    #: The pending occurrences' starts in the index and their length (whose words, which rite).
    starts: Sequence[int] = ()
    size: int = 0
    #: The variant folds and edition variants the match needed (script differences are not folds),
    #: over its agreeing occurrences, in the quote's order: see :mod:`glossary.folds`.
    folds: tuple[Fold, ...] = ()
    #: The source's exact text where the quote is written otherwise (script, punctuation, variant
    #: forms): what ``glossary fmt --quotes`` writes in its place. None when it is as printed.
    source_text: str | None = None

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
    #: Other names the classic gives the place (門 for 廟門), which a stage plan's quote may use.
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Plan:
    """The hall plan: its size in plan units and its places."""

    width: float
    height: float
    places: tuple[Place, ...]

    def for_term(self, term_id: str) -> Place | None:
        return next((p for p in self.places if p.term == term_id), None)


@dataclass(frozen=True)
class Placement:
    """An actor (a role entry's id) at a place of the hall plan, optionally facing a way."""

    actor: str
    place: str
    #: The data path in stages.yaml (``rites[0].sections[4].steps[0].placements[1]``).
    path: str
    line: int
    qualifier: str | None = None
    facing: str | None = None
    #: None for a carried placement: its passage is the earlier placement's.
    citation: Citation | None = None
    carried: bool = False
    note: str | None = None
    #: (field, line) for each field given, so problems point at the right line.
    lines: tuple[tuple[str, int], ...] = ()

    def line_of(self, name: str) -> int:
        return dict(self.lines).get(name, self.line)


@dataclass(frozen=True)
class Movement:
    """An actor going from one place to another, and the passage that moves him."""

    actor: str
    origin: str  # the file's ``from``
    to: str
    path: str
    line: int
    citation: Citation
    note: str | None = None
    lines: tuple[tuple[str, int], ...] = ()

    def line_of(self, name: str) -> int:
        return dict(self.lines).get(name, self.line)


@dataclass(frozen=True)
class StageStep:
    """One moment of a section (``number`` counts from 1 within it)."""

    number: int
    path: str
    line: int
    placements: tuple[Placement, ...] = ()
    movements: tuple[Movement, ...] = ()
    note: str | None = None

    @property
    def items(self) -> tuple[Placement | Movement, ...]:
        """The step's placements, then its movements."""
        return (*self.placements, *self.movements)


@dataclass(frozen=True)
class StageSection:
    """A section of a rite as the primary text's ``右…`` marker names it, and its steps."""

    rite: Rite
    name: str
    path: str
    line: int
    steps: tuple[StageStep, ...]
    #: 2 for the second section of this name in the rite (取矢視算 comes twice).
    repeat: int = 1
    note: str | None = None


@dataclass(frozen=True)
class Stages:
    """Every stage plan of the file, rite by rite in the file's order."""

    sections: tuple[StageSection, ...]

    def of_rite(self, rite_id: str) -> tuple[StageSection, ...]:
        return tuple(section for section in self.sections if section.rite.id == rite_id)


@dataclass(frozen=True)
class Occurrences:
    """Counts of a headword's occurrences: ((rite or work, layer), count), most first."""

    total: int
    by_place: tuple[tuple[tuple[str, str], int], ...]


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


@dataclass(frozen=True)
class Release:
    """A published release: what the decks and the book say of themselves and of the next one."""

    version: str
    url: str  # the page that lists the releases (…/releases); the newest: …/releases/latest


@dataclass(frozen=True, eq=False)
class Glossary:
    """Everything the renderers need, gathered once by the build."""

    entries: tuple[Entry, ...]
    #: entry id → each citation resolved, in the entry's order (no places when not verified).
    cited: dict[str, tuple[Cited, ...]]
    #: entry id → occurrences of the headword by rite and layer.
    concordance: dict[str, Occurrences]
    #: Seconds since the epoch for anything new in this build (SOURCE_DATE_EPOCH or commit time).
    epoch: int
    #: Files a renderer keeps in the project between builds, as committed (name → bytes; the
    #: Anki ledger): the renderer reads them from here and returns their new contents.
    state: Mapping[str, bytes] = field(default_factory=dict)
    #: The hall plan, if the project has one, and its places' citations resolved.
    plan: Plan | None = None
    plan_cited: dict[str, tuple[Cited, ...]] = field(default_factory=dict)
    #: The stage plans (stages.yaml), if the project has them, and the locus each verified
    #: placement and movement shows (by its path in the file; carried placements have none).
    stages: Stages | None = None
    stage_loci: dict[str, Locus] = field(default_factory=dict)
    #: Rite id → its sections in order.
    sequences: dict[str, tuple[Step, ...]] = field(default_factory=dict)
    #: The entries' media files by bare name (validation keeps the names unique).
    media: dict[str, bytes] = field(default_factory=dict)
    #: Ids of entries merged into others (retired.yaml).
    retired: tuple[Retired, ...] = ()
    #: Entry id → how each headword character was read (廣韻, 經典釋文).
    readings: dict[str, tuple[CharReading, ...]] = field(default_factory=dict)
    #: The corpus' modern renderings aligned with their originals (glossary.enrich.align).
    alignments: tuple[Alignment, ...] = ()
    #: The corpus' texts as the manifest describes them (the printed book's edition statement).
    texts: tuple[TextInfo, ...] = ()
    #: The commit the build was made from (git HEAD), None outside a repository (the colophon).
    commit: str | None = None
    #: (file, start) of a cited locus in an excerpt → the same passage in the text it excerpts
    #: (glossary.enrich.excerpt_loci): the place a card names.
    excerpted: dict[tuple[str, int], Locus] = field(default_factory=dict)
    #: Set by ``glossary release`` only: the deck descriptions and the colophon name it.
    release: Release | None = None
    reader: ReaderText | None = None  # each rite's text as read/ shows it (glossary.enrich.reader)

    def renderings(self, locus: Locus, *, certain: bool = True) -> tuple[Rendering, ...]:
        """The modern renderings of the passage at ``locus`` (only those at or above the threshold
        unless ``certain=False``)."""
        found = tuple(
            r
            for alignment in self.alignments
            for r in alignment.renderings(locus.file, locus.start, locus.end, locus.layer)
        )
        return tuple(r for r in found if r.certain) if certain else found

    def entry(self, entry_id: str) -> Entry | None:
        return next((e for e in self.entries if e.id == entry_id), None)
