"""Notes of the primary text's author that repeat, at the very passage they explain, words of
鄭玄's note on it (issue 23: the final sample's commonest fault).

:func:`glossary.enrich.witness.repeated_note` looks for a run of 8 characters anywhere in 鄭玄's
notes; a short gloss repeated where both explain the same words (息勞也, 主人壻也, 告亦召也 beside
告請也 aside) escapes it. Here the classic a cited note follows is carried into the received text
(the two classics' alignment, :class:`~glossary.enrich.witness.Witnessing`), 鄭玄's note after that
place is read, and the longest run of at least :data:`LOCAL_REPEAT` characters the two share that
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
        """鄭玄's note on the classic that the primary text's note at ``pos`` follows: its text,
        its index positions, and the classic it explains (primary and received: both quote it)."""
        path, offset, _ = self.file_place(pos)
        classic = self.by_file.get(path, {}).get("classic", [])
        k = bisect_left(classic, (offset, -1)) - 1
        w = self.witnessing
        mapped = -1
        for step in range(LOOK_BACK):
            if k - step < 0:
                return None
            p = classic[k - step][1]
            i = bisect_left(w.positions, p)
            if i < len(w.positions) and w.positions[i] == p and w.mapped[i] >= 0:
                mapped = w.mapped[i]
                break
        if mapped < 0:
            return None
        ours = "".join(self.index.text[p] for _, p in classic[max(0, k - CLASSIC_AROUND) : k + 1])
        their_path, their_offset, _ = self.file_place(mapped)
        layers = self.by_file[their_path]
        theirs = layers["classic"]
        j = bisect_right(theirs, (their_offset, _END))
        following = theirs[j][0] if j < len(theirs) else _END
        notes = layers["commentary"]
        a, b = bisect_right(notes, (their_offset, _END)), bisect_left(notes, (following, -1))
        if a >= b:
            return None
        positions = [p for _, p in notes[a:b]]
        text = "".join(self.index.text[p] for p in positions)
        received = "".join(self.index.text[p] for _, p in theirs[max(0, j - CLASSIC_AROUND) : j])
        return text, positions, ours + "\0" + received


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
