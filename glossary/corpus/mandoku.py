"""Reader for the Kanseki Repository's "mandoku" text format.

``#`` headers, ``<pb:KR1d0044_WYG_004-7a>`` page marks, ``¶`` line ends, double-line
notes ``(right/left)`` (commentary; dropping the ``/`` gives the reading order),
headings indented with one or two full-width spaces, and section markers ``右…``
indented with three, whose appended notes (記) run on until the next line of the
classic that starts at the margin.
"""
from __future__ import annotations

import re

from glossary.corpus.builder import DocumentBuilder
from glossary.corpus.model import Document, TextInfo
from glossary.corpus.numerals import parse_number

PAGE_MARK = re.compile(r"<pb:([^>]+)>")
PAGE_ID = re.compile(r"_(\d+)-(\d+[a-z])$")
JUAN_PROPERTY = re.compile(r"^#\+PROPERTY:\s*JUAN\s+(\S+)")
INDENT = "\u3000"
MARKER_NAME = re.compile(r"右([^\u3000(\s]+)")


def _headline(body: str, indent: int, info: TextInfo) -> bool:
    """Title, volume, rite and author lines: structure, not text to cite."""
    plain = re.sub(r"\(.*?\)|[\u3000 ]", "", body)
    if plain.startswith("欽定四庫全書") or (plain.endswith("撰") and len(plain) <= 16 and indent):
        return True
    # Short lines indented one or two characters are headings (卷 titles, 嘉禮, 鄉射禮);
    # full lines at that indent are text in some works (儀禮釋宮's discussion).
    return indent in info.heading_indents and not body.startswith("(") and len(plain) <= 12 and "○" not in plain


def read_mandoku(info: TextInfo, path: str, text: str) -> Document:
    """Read one mandoku file into a :class:`Document`."""
    doc = DocumentBuilder(info, path, text)
    depth = 0
    in_notes_block = False
    offset = 0
    for raw in text.splitlines(keepends=True):
        line_start = offset
        offset += len(raw)
        if raw.startswith("#"):
            match = JUAN_PROPERTY.match(raw)
            if match and (number := parse_number(match.group(1))) is not None:
                doc.juan(line_start, number)
            continue
        # Positions of visible content: page marks, ¶ and the line end are markup.
        chars: list[tuple[int, str]] = []
        pos = 0
        content = raw.rstrip("\r\n")
        while pos < len(content):
            mark = PAGE_MARK.match(content, pos)
            if mark:
                page_id = mark.group(1)
                leaf = PAGE_ID.search(page_id)
                doc.page(line_start + pos, leaf.group(2) if leaf else page_id, page_id)
                pos = mark.end()
                continue
            if content[pos] != "¶":
                chars.append((line_start + pos, content[pos]))
            pos += 1
        indent = 0
        while indent < len(chars) and chars[indent][1] in (INDENT, " "):
            indent += 1
        body_chars = chars[indent:]
        body = "".join(ch for _, ch in body_chars)
        if not body:
            continue
        if _headline(body, indent, info):
            doc.end_commentary()
            if indent == 2 and info.section_markers:
                doc.rite(line_start, re.sub(r"\(.*?\)", "", body).strip(INDENT))
            continue
        if indent >= 3 and info.section_markers and (marker := MARKER_NAME.match(body)):
            doc.close_section(line_start)
            doc.end_commentary()
            doc.open_section(marker.group(1))
            body_chars = body_chars[marker.end():]
            in_notes_block = True
        elif indent == 0 and not body.startswith("(") and in_notes_block:
            # The classic resumes at the margin: the marker's section ends here.
            doc.close_section(line_start)
            in_notes_block = False
        for char_offset, ch in body_chars:
            if ch == "(":
                depth += 1
            elif ch == ")":
                if depth == 0:
                    doc.warn(char_offset, "')' without '('")
                else:
                    depth -= 1
                    if depth == 0:
                        continue
            elif ch == "/" and depth:
                continue
            elif ch in (INDENT, " ") and not depth:
                continue
            else:
                doc.char(ch, char_offset, "commentary" if depth else info.main_layer)
        if depth:
            doc.warn(line_start, "'(' not closed on its line")
            depth = 0
    return doc.build()
