"""Reader for the seed texts: plain paragraphs with ``【…】`` commentary.

Handles the page header (``礼经本义 - 第 7 页/共 40 页``), volume headings
(``礼经本义卷十四``), ``【句】`` sentence marks inside the classic, ``译`` paragraphs
(a rendered commentary passage, which may also continue or close a bracket left
open above it), section markers (``右取矢``, ``右，主人酳尸``, ``右边是…``, ``以上是…``)
whose appended notes run to the end of the line, and unbalanced brackets, which
give a corpus warning with their position.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from glossary.corpus.builder import DocumentBuilder
from glossary.corpus.model import Document, TextInfo
from glossary.corpus.numerals import parse_number

PAGE_HEADER = re.compile(r"第\s*(\d+)\s*页")
JUAN_HEADING = re.compile(r"^(?:礼经本义|禮經本義)卷([一二三四五六七八九十]+)$")
BOILERPLATE = re.compile(r"^(?:钦定四库全书|欽定四庫全書|.{2,10}撰)$")
MARKER = re.compile(r"^(?:右边是|右边|以上是|右，|右)\s*([^\s。，、【】：]{1,16})")
SENTENCE_MARK = "【句】"
YI = "译"


def paragraphs(text: str) -> Iterator[tuple[int, str]]:
    """(offset, text) of each paragraph: a block of lines between blank lines, stripped."""
    start: int | None = None
    end = offset = 0
    for raw in text.splitlines(keepends=True):
        if raw.strip():
            start = offset if start is None else start
            end = offset + len(raw)
        elif start is not None:
            yield _stripped(text, start, end)
            start = None
        offset += len(raw)
    if start is not None:
        yield _stripped(text, start, end)


def _stripped(text: str, start: int, end: int) -> tuple[int, str]:
    block = text[start:end]
    return start + len(block) - len(block.lstrip()), block.strip()


def read_seed(info: TextInfo, path: str, text: str) -> Document:
    """Read one seed file into a :class:`Document`."""
    doc = DocumentBuilder(info, path, text)
    for offset, paragraph in paragraphs(text):
        doc.paragraph(offset, paragraph)
    open_at: int | None = None  # offset of an unclosed 【
    in_yi = False
    offset = 0
    for raw in text.splitlines(keepends=True):
        line_start = offset
        offset += len(raw)
        line = raw.rstrip("\r\n")
        if not line.strip():
            continue
        start = 0
        is_yi = line.startswith(YI)
        if is_yi:
            start = 1
        body = line[start:].strip()
        if open_at is not None and not is_yi:
            doc.warn(open_at, "'【' not closed before the next paragraph")
            doc.end_commentary()
            open_at = None
        if page := PAGE_HEADER.search(body) if body.startswith(("礼经本义", "禮經本義")) else None:
            doc.page(line_start, page.group(1), None)
            continue
        if heading := JUAN_HEADING.match(body):
            doc.end_commentary()
            number = parse_number(heading.group(1))
            if number is not None:
                doc.juan(line_start, number)
                if rite := info.rite_of_juan(number):
                    doc.rite(line_start, rite)
            continue
        if BOILERPLATE.match(body):
            doc.end_commentary()
            continue
        section_line = False
        if info.section_markers and open_at is None and not is_yi:
            marker = MARKER.match(line)
            if marker:
                doc.close_section(line_start)
                doc.end_commentary()
                doc.open_section(
                    marker.group(1), line_start + marker.start(), marker.group().strip()
                )
                start = marker.end()
                section_line = True
        in_yi = is_yi and open_at is None
        i = start
        while i < len(line):
            ch = line[i]
            if line.startswith(SENTENCE_MARK, i):
                i += len(SENTENCE_MARK)
                continue
            if ch == "【":
                if open_at is not None:
                    doc.warn(line_start + i, "'【' inside an open '【'")
                open_at = line_start + i
                in_yi = False
            elif ch == "】":
                if open_at is None and not in_yi:
                    doc.warn(line_start + i, "'】' without '【'")
                else:
                    if open_at is None:
                        doc.warn(line_start + i, "'】' closes a 译 paragraph whose '【' is missing")
                    doc.end_commentary()
                open_at = None
                in_yi = False
            else:
                layer = "commentary" if (open_at is not None or in_yi) else info.main_layer
                # Spaces in commentary are kept: they separate one speaker's words from the next.
                if not ch.isspace() or layer == "commentary":
                    doc.char(ch, line_start + i, layer)
            i += 1
        if in_yi:
            doc.end_commentary()
            in_yi = False
        if section_line:
            # A marker's appended notes (記) run to the end of its line.
            doc.close_section(offset)
    if open_at is not None:
        doc.warn(open_at, "'【' not closed at the end of the file")
    return doc.build()
