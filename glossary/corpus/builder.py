"""Accumulates what a reader sees into a :class:`Document`."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left, bisect_right

from glossary.corpus.commentators import canonical, find_commentators
from glossary.corpus.model import CorpusWarning, Document, Stream, TextInfo
from glossary.normalize import KEPT
from glossary.offsets import OffsetMap


class DocumentBuilder:
    """Collects visible characters by layer plus page, 卷, rite and section marks."""

    def __init__(self, text_info: TextInfo, path: str, text: str):
        self.info = text_info
        #: Whose the unattributed notes are: the text's author, as the manifest names him (no dates).
        #: (鄭玄, the received text's annotator, is 鄭康成 as the commentator table names him.)
        self.author = canonical(re.sub(r"\s*\(.*?\)\s*$", "", text_info.author)) or None
        self.path = path
        self.text = text
        # Streams are kept as runs [start, end) of the file's text, not as characters:
        # a corpus of millions of characters must not become millions of objects.
        self._main: list[list[int]] = []
        self._comment: list[list[int]] | None = None
        self._closed: list[list[list[int]]] = []
        self.pages: list[tuple[int, tuple[str, str | None]]] = []
        self.juans: list[tuple[int, int]] = []
        self.rites: list[tuple[int, str]] = []
        self.sections: list[tuple[int, str]] = []
        self.warnings: list[CorpusWarning] = []
        self._pending_section: str | None = None
        self.markers: list[tuple[int, str]] = []
        self.paragraphs: list[tuple[int, str]] = []
        #: Offsets where a reference work's author speaks again: each paragraph of its text.
        self.breaks: list[int] = []
        self.line_starts = array("I", [0])
        for match in re.finditer("\n", text):
            self.line_starts.append(match.end())

    def char(self, ch: str, offset: int, layer: str) -> None:
        """The visible character ``ch`` (the file's text at ``offset``) belongs to ``layer``."""
        self.run(offset, offset + 1, layer)

    def run(self, start: int, end: int, layer: str) -> None:
        """The file's text from ``start`` to ``end`` is visible text of ``layer``."""
        if layer == "commentary":
            if self._comment is None:
                self._comment = []
            runs = self._comment
        else:
            self.end_commentary()
            runs = self._main
        if runs and runs[-1][1] == start:
            runs[-1][1] = end
        else:
            runs.append([start, end])

    def end_commentary(self) -> None:
        """Close the current commentary passage: the next commentary starts a new one."""
        if self._comment:
            self._closed.append(self._comment)
        self._comment = None

    def _stream_parts(self, runs: list[list[int]]) -> tuple[str, OffsetMap]:
        return "".join(self.text[start:end] for start, end in runs), OffsetMap(
            (start, end) for start, end in runs
        )

    def page(self, offset: int, label: str, page_id: str | None) -> None:
        self.pages.append((offset, (label, page_id)))

    def juan(self, offset: int, number: int) -> None:
        self.juans.append((offset, number))

    def rite(self, offset: int, name: str) -> None:
        self.close_section(offset)
        self.rites.append((offset, name))

    def open_section(self, name: str, offset: int | None = None, marker: str | None = None) -> None:
        """A ``右…`` marker: the section it names closes once its appended notes end.

        ``marker`` is the marker as printed, at ``offset`` in the file's text.
        """
        self._pending_section = name
        if offset is not None and marker:
            self.markers.append((offset, marker))

    def extend_marker(self, text: str) -> None:
        """The ``右…`` marker just opened runs on over another printed line, ``text``: the section
        is named by both lines (the marker, in :attr:`markers`, is its first line as printed)."""
        if self._pending_section is not None:
            self._pending_section += text

    def paragraph(self, offset: int, text: str) -> None:
        """A paragraph of the file (a block of lines between blank lines), stripped, starting at ``offset``."""
        self.paragraphs.append((offset, text))

    def author_speaks(self, offset: int) -> None:
        """A new paragraph of a reference work's text starts at ``offset``: its author speaks again."""
        self.breaks.append(offset)

    def _speakers(
        self, text: str, offsets: OffsetMap, breaks: bool = False
    ) -> tuple[tuple[int, str | None], ...]:
        info = self.info
        if not breaks and info.note_author:
            # Another's notes (the editors' of 儀禮釋宮): theirs throughout, whoever they name.
            return ((0, info.note_author),)
        if not info.reference_work:
            return find_commentators(text, self.author)
        starts: tuple[int, ...] = ()
        if breaks and self.breaks:
            # Stream indices of the paragraph starts (offsets grow along the stream).
            starts = tuple(
                sorted({i for b in self.breaks if (i := bisect_left(offsets, b)) < len(text)} - {0})
            )
        return find_commentators(text, self.author, True, starts, info.note_speakers)

    def close_section(self, offset: int) -> None:
        if self._pending_section is not None:
            self.sections.append((offset, self._pending_section))
            self._pending_section = None

    def warn(self, offset: int, message: str) -> None:
        line = self.line_at(offset)
        column = offset - self.line_starts[line - 1] + 1
        self.warnings.append(CorpusWarning(self.path, line, column, message))

    def line_at(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset)

    def build(self) -> Document:
        self.end_commentary()
        self.close_section(len(self.text))
        streams: list[Stream] = []
        if self._main:
            text, offsets = self._stream_parts(self._main)
            # A reference work's own text is its author's, and names those it quotes (賈氏曰 …);
            # the classic (經, 記) is nobody's words here.
            speakers = (
                self._speakers(text, offsets, breaks=True) if self.info.main_layer == "text" else ()
            )
            streams.append(Stream(self.info.main_layer, text, offsets, speakers))
        for runs in self._closed:
            text, offsets = self._stream_parts(runs)
            if KEPT.search(text):
                streams.append(Stream("commentary", text, offsets, self._speakers(text, offsets)))
        return Document(
            text_info=self.info,
            path=self.path,
            length=len(self.text),
            streams=tuple(streams),
            pages=tuple(self.pages),
            juans=tuple(self.juans),
            rites=tuple(self.rites),
            sections=tuple(self.sections),
            warnings=tuple(self.warnings),
            line_starts=self.line_starts,
            markers=tuple(self.markers),
            paragraphs=tuple(self.paragraphs),
        )
