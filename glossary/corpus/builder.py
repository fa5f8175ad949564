"""Accumulates what a reader sees into a :class:`Document`."""
from __future__ import annotations

import re
from array import array
from bisect import bisect_right

from glossary.corpus.commentators import find_commentators
from glossary.corpus.model import CorpusWarning, Document, Stream, TextInfo
from glossary.normalize import normalize


class DocumentBuilder:
    """Collects visible characters by layer plus page, 卷, rite and section marks."""

    def __init__(self, text_info: TextInfo, path: str, text: str):
        self.info = text_info
        self.path = path
        self.text = text
        self._main: tuple[list[str], array] = ([], array("I"))
        self._comment: tuple[list[str], array] | None = None
        self._closed: list[tuple[list[str], array]] = []
        self.pages: list[tuple[int, tuple[str, str | None]]] = []
        self.juans: list[tuple[int, int]] = []
        self.rites: list[tuple[int, str]] = []
        self.sections: list[tuple[int, str]] = []
        self.warnings: list[CorpusWarning] = []
        self._pending_section: str | None = None
        self.line_starts = array("I", [0])
        for match in re.finditer("\n", text):
            self.line_starts.append(match.end())

    def char(self, ch: str, offset: int, layer: str) -> None:
        """A visible character of ``layer`` at ``offset`` in the file."""
        if layer == "commentary":
            if self._comment is None:
                self._comment = ([], array("I"))
            target = self._comment
        else:
            self.end_commentary()
            target = self._main
        target[0].append(ch)
        target[1].append(offset)

    def end_commentary(self) -> None:
        """Close the current commentary passage: the next commentary starts a new one."""
        if self._comment is not None and self._comment[0]:
            self._closed.append(self._comment)
        self._comment = None

    def page(self, offset: int, label: str, page_id: str | None) -> None:
        self.pages.append((offset, (label, page_id)))

    def juan(self, offset: int, number: int) -> None:
        self.juans.append((offset, number))

    def rite(self, offset: int, name: str) -> None:
        self.close_section(offset)
        self.rites.append((offset, name))

    def open_section(self, name: str) -> None:
        """A ``右…`` marker: the section it names closes once its appended notes end."""
        self._pending_section = name

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
        main_chars, main_offsets = self._main
        if main_chars:
            streams.append(Stream(self.info.main_layer, "".join(main_chars), main_offsets))
        for chars, offsets in self._closed:
            text = "".join(chars)
            if normalize(text):
                streams.append(Stream("commentary", text, offsets, find_commentators(text)))
        return Document(
            text_info=self.info,
            path=self.path,
            text=self.text,
            streams=tuple(streams),
            pages=tuple(self.pages),
            juans=tuple(self.juans),
            rites=tuple(self.rites),
            sections=tuple(self.sections),
            warnings=tuple(self.warnings),
            line_starts=self.line_starts,
        )
