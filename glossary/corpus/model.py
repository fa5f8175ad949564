"""The corpus model: texts, documents, streams of one layer, and loci."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from glossary.offsets import OffsetMap

LAYERS = ("classic", "commentary", "text")


@dataclass(frozen=True)
class TextInfo:
    """One text of the manifest: a work in one edition, spread over files."""

    id: str
    title: str
    work: str
    author: str
    edition: str
    script: str
    format: str
    files: tuple[str, ...]
    main_layer: str = "classic"
    section_markers: bool = False
    placeholder: str | None = None
    heading_indents: tuple[int, ...] = (1, 2)
    #: The id of the full text this one is an excerpt or rendering of (not counted twice).
    excerpt_of: str | None = None
    #: The text this one renders in another language or register (a modern Chinese translation of
    #: KR1d0044), and who made the rendering: its paragraphs are aligned with that text's passages.
    rendering_of: str | None = None
    rendered_by: str | None = None
    juan: int | None = None
    page: str | None = None
    rites: tuple[tuple[int, str], ...] = ()
    #: The corpus' primary text (the whole 禮經本義): preferred for loci, and the source of the rites' order.
    primary: bool = False
    #: (heading as printed, notes left out → rite): a line starting with the heading opens the rite
    #: (the 儀禮音義 names each rite in a line of its own text, ``士冠禮第一``).
    rite_headings: tuple[tuple[str, str], ...] = ()
    #: For a book of readings (the 儀禮音義 of 經典釋文): the name a reading cites it by. Its main text
    #: is headwords, and the note after each headword gives its reading (glossary.enrich.readings.yinyi).
    readings: str | None = None
    #: For another witness of a text's classic (the received 儀禮 beside 禮經本義): the id of the
    #: text whose classic it witnesses. Its classic is aligned with that text's
    #: (glossary.enrich.witness) and not counted again where the rites' words are counted.
    witness_of: str | None = None
    #: Prefixes of lines (notes and spacing left out) that are headings, not text, wherever they
    #: stand (儀禮卷第一, 士冠禮第一　儀禮　鄭氏注); the count of characters that follows a closing
    #: 卷 title, ``(經…字/注…字)``, is a heading too.
    heading_lines: tuple[str, ...] = ()
    #: For a reference work: whose notes it quotes as 注曰, 疏曰 (word → speaker; 儀禮釋宮's 注 is
    #: 鄭玄's), see glossary.corpus.commentators.
    note_speakers: tuple[tuple[str, str], ...] = ()
    #: Whose the small-print notes are where they are not the author's: 儀禮釋宮's are the 四庫
    #: editors' collation notes (案朱子大全集無此二字), which speak of 李如圭 as 李氏.
    note_author: str | None = None

    @property
    def reference_work(self) -> bool:
        """A work whose text is its author's own (儀禮釋宮 …): everyone it names is quoted."""
        return self.main_layer == "text" and self.readings is None

    def rite_of_juan(self, juan: int | None) -> str | None:
        """The rite the manifest assigns to a 卷, if any."""
        for number, rite in self.rites:
            if number == juan:
                return rite
        return None


@dataclass(frozen=True, eq=False, slots=True)
class Stream:
    """A continuous reading of one layer: the characters as printed, markup removed.

    ``offsets[i]`` is the index in the file's text of ``text[i]``.
    """

    layer: str
    text: str
    offsets: OffsetMap
    #: (index, name or None): where each speaker's words start (see glossary.corpus.commentators).
    commentators: tuple[tuple[int, str | None], ...] = ()

    def commentator_at(self, index: int) -> str | None:
        """Who says ``text[index]``: the named commentator, or the text's author for his own notes."""
        name = None
        for start, who in self.commentators:
            if start > index:
                break
            name = who
        return name

    def speakers(self, first: int, last: int) -> tuple[str, ...]:
        """Everyone whose words ``text[first:last + 1]`` holds, in order of speaking."""
        names = [self.commentator_at(first)]
        names += [who for start, who in self.commentators if first < start <= last]
        return tuple(dict.fromkeys(name for name in names if name))


@dataclass(frozen=True)
class CorpusWarning:
    """A defect of the corpus text itself (unbalanced brackets and the like)."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


def _value_at(marks: tuple[tuple[int, object], ...], keys: array, offset: int) -> object:
    """The value of the last mark at or before ``offset`` (``keys``: the marks' offsets)."""
    i = bisect_right(keys, offset)
    return marks[i - 1][1] if i else None


@dataclass(frozen=True, eq=False)
class Document:
    """One corpus file, read: its streams and where pages, 卷, rites and sections change."""

    text_info: TextInfo
    path: str
    #: Characters in the file (the text itself lives on in the streams, not twice in memory).
    length: int
    streams: tuple[Stream, ...]
    pages: tuple[tuple[int, tuple[str, str | None]], ...]
    juans: tuple[tuple[int, int], ...]
    rites: tuple[tuple[int, str], ...]
    # (end offset, name): the section named by a ``右…`` marker runs up to its end offset.
    sections: tuple[tuple[int, str], ...]
    warnings: tuple[CorpusWarning, ...] = ()
    line_starts: array = field(default_factory=lambda: array("I", [0]))
    #: (offset, marker as printed): where each ``右…`` section marker stands (``右陳饌具``, ``右边是主尸进入``).
    markers: tuple[tuple[int, str], ...] = ()
    #: (offset, text): the file's paragraphs, blocks of lines between blank lines, as printed and
    #: stripped (seed texts only: a modern rendering is aligned with its original paragraph by
    #: paragraph, see glossary.enrich.align).
    paragraphs: tuple[tuple[int, str], ...] = ()

    @cached_property
    def _keys(self) -> dict[str, array]:
        # Offsets of the marks as plain arrays: bisect without a key function is several times faster.
        return {
            name: array("Q", (mark[0] for mark in getattr(self, name)))
            for name in ("pages", "juans", "rites", "sections")
        }

    def page_at(self, offset: int) -> tuple[str | None, str | None]:
        value = _value_at(self.pages, self._keys["pages"], offset)
        return value if value else (self.text_info.page, None)  # type: ignore[return-value]

    def juan_at(self, offset: int) -> int | None:
        value = _value_at(self.juans, self._keys["juans"], offset)
        return value if value is not None else self.text_info.juan  # type: ignore[return-value]

    def rite_at(self, offset: int) -> str | None:
        value = _value_at(self.rites, self._keys["rites"], offset)
        return value if value else self.text_info.rite_of_juan(self.juan_at(offset))  # type: ignore[return-value]

    def section_at(self, offset: int) -> str | None:
        i = bisect_right(self._keys["sections"], offset)
        return self.sections[i][1] if i < len(self.sections) else None

    def line_at(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset)


@dataclass(frozen=True)
class Reading:
    """Where the two witnesses of the classic read a passage differently (beyond the folds of
    script and variants): ``at`` counts characters of the printed passage from 0."""

    at: int
    printed: str
    received: str

    def to_json(self) -> dict[str, object]:
        return {"at": self.at, "print": self.printed, "received": self.received}


@dataclass(frozen=True)
class Witness:
    """Another witness's text of a passage: the received 儀禮 beside 禮經本義's classic (where
    the two are aligned, see glossary.enrich.witness), or the note of 鄭玄's that a note of
    蔡德晉's repeats (``common``: the words they share)."""

    work: str
    title: str
    file: str
    juan: int | None
    page: str | None
    page_id: str | None
    line: int
    text: str
    #: Where the two read the passage otherwise (classic), in the printed passage's order.
    readings: tuple[Reading, ...] = ()
    #: The words both have in common (a repeated note), as the other witness prints them.
    common: str = ""

    def label(self) -> str:
        """``儀禮 卷15 p.23b [kanripo/KR1d0026/KR1d0026_015.txt:420]``."""
        parts = [self.title, *([f"卷{self.juan}"] if self.juan is not None else [])]
        parts += [f"p.{self.page}"] if self.page else []
        return " ".join(parts) + f" [{self.file}:{self.line}]"

    def to_json(self) -> dict[str, object]:
        found: dict[str, object] = {
            "work": self.work,
            "title": self.title,
            "file": self.file,
            "juan": self.juan,
            "page": self.page,
            "page_id": self.page_id,
            "line": self.line,
            "text": self.text,
        }
        if self.readings:
            found["readings"] = [r.to_json() for r in self.readings]
        if self.common:
            found["common"] = self.common
        return found


@dataclass(frozen=True)
class Locus:
    """Where a passage stands: the place a citation names, resolved."""

    work: str
    title: str
    file: str
    juan: int | None
    page: str | None
    page_id: str | None
    rite: str | None
    section: str | None
    layer: str
    #: Who says it (commentary only): at the passage's start, and all who speak in it.
    commentator: str | None
    line: int
    start: int
    end: int
    text: str
    context: str
    placeholders: tuple[int, ...] = ()
    speakers: tuple[str, ...] = ()
    #: For a passage of the primary text's classic: the received text's (its 卷, page, line and
    #: text, and where the two read otherwise); None where unaligned or not the classic.
    received: Witness | None = None
    #: For a note of the primary text's author: the note of 鄭玄's whose words it repeats.
    repeats: Witness | None = None
    #: For a passage of a classic that notes cut (filled in by the build, CorpusIndex.with_units):
    #: the commentary's sense units around it (each a
    #: run of the classic from one note, or section end, to the next), from the unit before the
    #: passage's to the unit after it; the passage starts at character ``units_at`` of their join.
    units: tuple[str, ...] = ()
    units_at: int = 0

    def label(self, with_file: bool = True) -> str:
        """A short human-readable place: ``禮經本義 卷4 p.22a 〈取矢〉 classic [file:line]``."""
        parts = [self.title or self.work]
        if self.juan is not None:
            parts.append(f"卷{self.juan}")
        if self.page:
            parts.append(f"p.{self.page}")
        if self.section:
            parts.append(f"〈{self.section}〉")
        parts.append(self.layer if not self.commentator else f"{self.layer} ({self.commentator})")
        return " ".join(parts) + (f" [{self.file}:{self.line}]" if with_file else "")

    def citation_fields(self) -> dict[str, object]:
        """The locus fields a citation of this place would give (work, juan, page, section, layer)."""
        fields = {
            "work": self.title,
            "juan": self.juan,
            "page": self.page,
            "section": self.section,
            "layer": self.layer,
        }
        return {k: v for k, v in fields.items() if v is not None and v != ""}

    def to_json(self) -> dict[str, object]:
        return {
            "work": self.work,
            "title": self.title,
            "file": self.file,
            "juan": self.juan,
            "page": self.page,
            "page_id": self.page_id,
            "rite": self.rite,
            "section": self.section,
            "layer": self.layer,
            "commentator": self.commentator,
            "line": self.line,
            "text": self.text,
            "context": self.context,
            "placeholders": list(self.placeholders),
            "speakers": list(self.speakers),
            # Only where they apply: a passage of the classic, a note that repeats 鄭玄's.
            **({"received": self.received.to_json()} if self.received else {}),
            **({"repeats": self.repeats.to_json()} if self.repeats else {}),
        }
