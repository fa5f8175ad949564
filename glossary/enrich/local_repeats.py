"""Notes of the primary text's author that repeat, at the very passage they explain, words of
鄭玄's note on it (issue 23: the final sample's commonest fault).

:func:`glossary.enrich.witness.repeated_note` looks for a run of 8 characters anywhere in 鄭玄's
notes; a short gloss repeated where both explain the same words (息勞也, 主人壻也, 告亦召也 beside
告請也 aside) escapes it. Here the classic a cited note follows is carried into the received text
(the two classics' alignment, :class:`~glossary.enrich.witness.Witnessing`), 鄭玄's notes inside the
stretch of the classic the note explains and after it are read, and the longest run of at least :data:`LOCAL_REPEAT` characters the two share that
is not words of the classic there (both quote it) is the repeat.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from array import array

    from glossary.index import CorpusIndex


class Alignment(Protocol):
    """The two classics aligned (:class:`glossary.enrich.witness.Witnessing`, which builds this
    module's :class:`Places`: named here by its shape, so the import runs one way)."""

    @property
    def primary(self) -> str: ...
    @property
    def witness(self) -> str: ...
    @property
    def positions(self) -> array: ...
    @property
    def mapped(self) -> array: ...


#: The shortest run of characters counted as a repeat at the same place.
LOCAL_REPEAT = 4
#: How far back (characters of the classic) the passage a note explains is looked for in the
#: alignment: a classic run the received text lacks (蔡's moved 記) is skipped over.
LOOK_BACK = 40
#: At most this much of the classic before the place is "the classic there" (both quote it).
CLASSIC_AROUND = 120

_END = 1 << 62


@dataclass(frozen=True)
class Repeat:
    """A run of 鄭玄's note that the author's note repeats: as printed, and where it stands."""

    common: str
    juan: int | None
    page: str | None
    file: str
    line: int

    def label(self) -> str:
        juan = f" 卷{self.juan}" if self.juan is not None else ""
        page = f" p.{self.page}" if self.page else ""
        return f"儀禮{juan}{page} [{self.file}:{self.line}]"


@dataclass(frozen=True, eq=False)
class Places:
    """The primary text's and the witness's characters by file, classic and commentary apart:
    (file offset, index position), in file order."""

    index: CorpusIndex
    witnessing: Alignment

    @cached_property
    def by_file(self) -> dict[str, dict[str, list[tuple[int, int]]]]:
        found: dict[str, dict[str, list[tuple[int, int]]]] = {}
        works = (self.witnessing.primary, self.witnessing.witness)
        for base, doc, stream, imap in self.index.streams():
            if doc.text_info.id not in works or stream.layer not in ("classic", "commentary"):
                continue
            layers = found.setdefault(doc.path, {"classic": [], "commentary": []})
            # Each map walked once (its runs), not looked up character by character.
            offsets = list(stream.offsets)
            layers[stream.layer].extend((offsets[j], base + i) for i, j in enumerate(imap))
        for layers in found.values():
            for places in layers.values():
                places.sort()
        return found

    def file_place(self, pos: int) -> tuple[str, int, int]:
        """The file, file offset and line of an index position."""
        base, doc, stream, imap = self.index._stream_at(pos)
        offset = stream.offsets[imap[pos - base]]
        return doc.path, offset, doc.line_at(offset)

    def note_at(self, pos: int) -> tuple[str, list[int], str] | None:
        """鄭玄's notes on the classic that the primary text's note at ``pos`` explains: their text
        (notes apart joined by NUL, so no run crosses from one to the next), their index
        positions (-1 at a NUL), and the classic there (primary and received: both quote it).

        The classic a note explains is the stretch since the author's note before it (at most
        :data:`CLASSIC_AROUND` characters): 鄭玄 may cut that stretch where 蔡德晉 does not (士虞禮's
        無尸則不餞…拾踊三 with 鄭玄's note, 哭止告事畢賔出 with 蔡's), so each of his notes inside it
        counts, as well as the one after it.
        """
        path, offset, _ = self.file_place(pos)
        layers = self.by_file.get(path, {})
        classic = layers.get("classic", [])
        k = bisect_left(classic, (offset, -1)) - 1
        if k < 0:
            return None
        mapped = self._mapped(classic, range(k, max(-1, k - LOOK_BACK), -1))
        if mapped < 0:
            return None
        # Where the stretch this note explains begins: after the author's note before it.
        own_notes = layers.get("commentary", [])
        c = bisect_left(own_notes, (classic[k][0], -1))
        before = own_notes[c - 1][0] if c > 0 else -1
        first = max(bisect_right(classic, (before, _END)), k - CLASSIC_AROUND, 0)
        begun = self._mapped(classic, range(first, k + 1))
        ours = "".join(self.index.text[p] for _, p in classic[max(0, k - CLASSIC_AROUND) : k + 1])
        their_path, their_offset, _ = self.file_place(mapped)
        their_start = their_offset
        if begun >= 0:
            begun_path, begun_offset, _ = self.file_place(begun)
            if begun_path == their_path:  # (a stretch begun in another file: its last part only)
                their_start = min(begun_offset, their_offset)
        their = self.by_file[their_path]
        theirs = their["classic"]
        j = bisect_right(theirs, (their_offset, _END))
        following = theirs[j][0] if j < len(theirs) else _END
        notes = their["commentary"]
        a = bisect_right(notes, (their_start, _END))
        b = bisect_left(notes, (following, -1))
        if a >= b:
            return None
        positions: list[int] = []
        for n, (at, p) in enumerate(notes[a:b]):
            if n and _classic_between(theirs, notes[a + n - 1][0], at):
                positions.append(-1)  # another note of his: runs do not cross into it
            positions.append(p)
        text = "".join("\0" if p < 0 else self.index.text[p] for p in positions)
        received = "".join(self.index.text[p] for _, p in theirs[max(0, j - CLASSIC_AROUND) : j])
        return text, positions, ours + "\0" + received

    def _mapped(self, classic: list[tuple[int, int]], steps: range) -> int:
        """The received position of the first of ``classic[step]`` (in the order of ``steps``)
        that the alignment maps, -1 if none does."""
        w = self.witnessing
        for step in steps:
            p = classic[step][1]
            i = bisect_left(w.positions, p)
            if i < len(w.positions) and w.positions[i] == p and w.mapped[i] >= 0:
                return int(w.mapped[i])
        return -1


def _classic_between(classic: list[tuple[int, int]], low: int, high: int) -> bool:
    """Whether a character of the classic stands between file offsets ``low`` and ``high``."""
    return bisect_right(classic, (low, _END)) < bisect_left(classic, (high, -1))


def shared_run(mine: str, theirs: str, classic: str, least: int = LOCAL_REPEAT) -> str:
    """The longest run of ``mine`` of at least ``least`` characters that ``theirs`` holds and
    ``classic`` does not ('' if none); the earliest of the longest."""
    best = ""
    for i in range(len(mine)):
        j = i + max(least, len(best) + 1)
        while j <= len(mine) and mine[i:j] in theirs:
            if mine[i:j] not in classic:
                best = mine[i:j]
            j += 1
    return best


def local_repeat(
    index: CorpusIndex, places: Places, start: int, end: int, author: str
) -> Repeat | None:
    """The run of 鄭玄's note on the same passage that ``author``'s words at ``start``–``end``
    repeat, if any."""
    mine = "".join(index.text[p] for p in range(start, end) if index.speaker_at(p) == author)
    if len(mine) < LOCAL_REPEAT:
        return None
    found = places.note_at(start)
    if found is None:
        return None
    note, positions, classic = found
    common = shared_run(mine, note, classic)
    if not common:
        return None
    at = note.find(common)
    from glossary.index import Hit

    locus = index.locus(Hit(positions[at], positions[at + len(common) - 1] + 1), annotate=False)
    return Repeat(locus.text, locus.juan, locus.page, locus.file, locus.line)
