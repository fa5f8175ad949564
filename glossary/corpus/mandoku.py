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

PAGE_ID = re.compile(r"_(\d+)-(\d+[a-z])$")
JUAN_PROPERTY = re.compile(r"^#\+PROPERTY:\s*JUAN\s+(\S+)")
INDENT = "\u3000"
MARKER_NAME = re.compile(r"右([^\u3000(\s]+)")
#: A line with these is no wrapped marker name (notes, gaps; the 投壺 drum score's ○ and □).
WRAP_STOPS = re.compile(r"[()\u3000 ○□]")


def _headline(body: str, indent: int, info: TextInfo) -> bool:
    """Title, volume, rite and author lines: structure, not text to cite."""
    plain = re.sub(r"\(.*?\)|[\u3000 ]", "", body)
    if plain.startswith("欽定四庫全書") or (plain.endswith("撰") and len(plain) <= 16 and indent):
        return True
    # Short lines indented one or two characters are headings (卷 titles, 嘉禮, 鄉射禮);
    # full lines at that indent are text in some works (儀禮釋宮's discussion).
    return (
        indent in info.heading_indents
        and not body.startswith("(")
        and len(plain) <= 12
        and "○" not in plain
    )


def _listed_heading(body: str, info: TextInfo, after_heading: bool) -> bool:
    """A line the manifest's ``heading_lines`` name (儀禮卷第一, 士冠禮第一　儀禮　鄭氏注), or the
    count of characters, ``(經…字/注…字)``, on the line after one."""
    if not info.heading_lines:
        return False
    plain = re.sub(r"\(.*?\)|[\u3000 ]", "", body)
    if after_heading and body.lstrip("\u3000 ").startswith("(經"):
        return True
    return any(plain.startswith(prefix) for prefix in info.heading_lines)


def _rite_heading(body: str, info: TextInfo) -> str | None:
    """The rite a line opens, if it starts with one of the manifest's ``rite_headings``."""
    if not info.rite_headings:
        return None
    plain = re.sub(r"\(.*?\)|[\u3000 ]", "", body)
    return next((rite for heading, rite in info.rite_headings if plain.startswith(heading)), None)


#: One line's tokens: page marks, line ends, brackets, the column divider, spacing, text.
TOKEN = re.compile(r"<pb:([^>]+)>|¶|[()/]|[\u3000 ]+|[^()/\u3000 ¶<]+|<")
SPACE = ("\u3000", " ")


def read_mandoku(info: TextInfo, path: str, text: str) -> Document:
    """Read one mandoku file into a :class:`Document`."""
    doc = DocumentBuilder(info, path, text)
    depth = 0
    in_notes_block = False
    #: The indent of the last line that held notes (None once the classic has gone on since).
    note_indent: int | None = None
    #: Whether the last line with text was a heading the manifest lists (a count may follow it).
    after_heading = False
    #: The indent of the last line of a reference work's text (a new indent: a new paragraph).
    text_indent: int | None = None
    #: The indent of a section marker that filled its line (its name may wrap onto the next).
    marker_filled: int | None = None
    offset = 0
    for raw in text.splitlines(keepends=True):
        line_start = offset
        offset += len(raw)
        if raw.startswith("#"):
            match = JUAN_PROPERTY.match(raw)
            if match and (number := parse_number(match.group(1))) is not None:
                doc.juan(line_start, number)
            continue
        # Visible tokens of the line; page marks and ¶ are markup.
        tokens = []
        for token in TOKEN.finditer(raw.rstrip("\r\n")):
            if token.group(1) is not None:
                page_id = token.group(1)
                leaf = PAGE_ID.search(page_id)
                doc.page(line_start + token.start(), leaf.group(2) if leaf else page_id, page_id)
            elif token.group() != "¶":
                tokens.append(token)
        indent = 0
        while tokens and tokens[0].group()[0] in SPACE:
            indent += len(tokens.pop(0).group())
        body = "".join(t.group() for t in tokens)
        if not body:
            continue
        if _listed_heading(body, info, after_heading):
            doc.end_commentary()
            after_heading = True
            continue
        after_heading = False
        if indent == 0 and (rite := _rite_heading(body, info)) is not None:
            # A rite's heading inside the text (the 儀禮音義's 士冠禮第一): the rite opens here, and the
            # line is read on as text (its notes gloss the title's words).
            doc.rite(line_start, rite)
        elif _headline(body, indent, info):
            doc.end_commentary()
            if indent == 2 and info.section_markers:
                # A 卷's rite heading; the manifest may name the rite it opens (禮經本義's 士喪禮下
                # goes on with 士喪禮 until 既夕禮 begins inside the 卷).
                heading = re.sub(r"\(.*?\)", "", body).strip(INDENT)
                doc.rite(line_start, _rite_heading(body, info) or heading)
            continue
        wrapped, marker_filled = marker_filled, None
        if (
            wrapped == indent
            and len(tokens) == 1
            and not MARKER_NAME.match(body)
            and not WRAP_STOPS.search(body)
        ):
            # The marker's name wrapped onto this line (右兄弟之後生者舉觶于其長賓及次賓舉爵 /
            # 于尸遂無算爵): it is the marker's, not the classic's.
            doc.extend_marker(body)
            continue
        if indent >= 3 and info.section_markers and (marker := MARKER_NAME.match(body)):
            doc.close_section(line_start)
            doc.end_commentary()
            # The marker is the first text token (its name runs up to a space or a note).
            doc.open_section(marker.group(1), line_start + tokens[0].start(), tokens[0].group())
            tokens = tokens[1:]
            in_notes_block = True
            if not tokens:
                marker_filled = indent
        elif indent == 0 and not body.startswith("(") and in_notes_block:
            # The classic resumes at the margin: the marker's section ends here.
            doc.close_section(line_start)
            in_notes_block = False
        if info.reference_work and not body.startswith("(") and tokens:
            if indent != text_indent:
                # A reference work's paragraph (an item at the margin, its discussion indented):
                # its author speaks again, whoever he quoted before.
                doc.author_speaks(line_start + tokens[0].start())
            text_indent = indent
        if body.startswith("(") and note_indent is not None and indent > note_indent:
            # A note set apart, indented below a note that ran on after the classic, is another
            # note (蔡德晉's own after a commentator's), not that note's continuation.
            doc.end_commentary()
        note_indent = indent if "(" in body else None
        for token in tokens:
            value = token.group()
            if value == "(":
                depth += 1
            elif value == ")":
                if depth == 0:
                    doc.warn(line_start + token.start(), "')' without '('")
                else:
                    depth -= 1
            elif value == "/" and depth:
                continue
            elif value[0] in SPACE and not depth:
                continue
            else:
                doc.run(
                    line_start + token.start(),
                    line_start + token.end(),
                    "commentary" if depth else info.main_layer,
                )
        if depth:
            doc.warn(line_start, "'(' not closed on its line")
            depth = 0
    return doc.build()
