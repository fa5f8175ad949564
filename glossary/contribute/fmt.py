"""`glossary fmt`: terms.yaml in canonical key order and layout, comments kept.

ruamel.yaml round-trips comments and block scalars; we reorder keys, set list styles (short
lists inline, citations as blocks) and fill each folded paragraph (``>-``) to the width anew, so
an edit leaves no stub lines ("officer in" / "charge of the hall"). The result is re-read with
our own loader and compared with the original data, so formatting never changes or loses an
entry.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import io
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import FoldedScalarString

from glossary.errors import DataError, GlossaryError
from glossary.files import UnreadableFile, read_bounded, write_file_atomically
from glossary.load import MAX_BYTES, load_bytes
from glossary.schema import fields_of, schema

if TYPE_CHECKING:
    from glossary.cache import IndexCache
    from glossary.report import Report


def flow_lists() -> tuple[str, ...]:
    """The entry fields written inline (``rites: [乡射礼]``): lists of plain values, not of mappings."""
    return tuple(
        name
        for name, spec in schema()["$defs"]["entry"]["properties"].items()
        if spec.get("type") == "array"
        and not spec.get("items", {}).get("$ref", "").endswith("/citation")
        and spec.get("items", {}).get("type") != "object"  # senses: a list of mappings
    )


def _yaml() -> YAML:
    yaml = YAML()
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 100
    yaml.preserve_quotes = True
    return yaml


def _reorder(mapping: CommentedMap, order: tuple[str, ...]) -> CommentedMap:
    keys = [k for k in order if k in mapping] + [k for k in mapping if k not in order]
    if list(mapping) == keys:
        return mapping
    last_before = list(mapping)[-1]
    result = CommentedMap()
    for key in keys:
        result[key] = mapping[key]
        if key in mapping.ca.items:
            result.ca.items[key] = mapping.ca.items[key]
    # A comment after an entry (a section heading before the next one) hangs on its last key.
    if last_before != keys[-1] and last_before in result.ca.items:
        result.ca.items[keys[-1]] = result.ca.items.pop(last_before)
    result.ca.comment = mapping.ca.comment
    return result


#: (entry id, citation index) → the quote to write there.
Quotes = dict[tuple[str, int], str]


#: Where an entry starts: a top-level item. A document marker or directive at the margin makes
#: the file one piece (each entry's text is then not a document of its own).
_ITEM = re.compile(r"^-(?: |$)", re.M)
_WHOLE = re.compile(r"^(?:---|\.\.\.|%)", re.M)
_ID = re.compile(r"- id: *([^\s#]+)")


def pieces(text: str) -> list[str] | None:
    """The text before the first entry, then each entry's text (with the comments after it), or
    None where the file cannot be cut so (a document marker)."""
    if _WHOLE.search(text):
        return None
    starts = [0, *(m.start() for m in _ITEM.finditer(text) if m.start() > 0)]
    return [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]


def format_text(text: str, quotes: Quotes | None = None, cache: IndexCache | None = None) -> str:
    """The canonical form of a terms file's text (with ``quotes`` written in place of those citations').

    Each entry is formatted on its own (ruamel.yaml reads and writes about 50 entries a second:
    the whole file takes seconds), and with a ``cache`` each entry's result is kept under a digest
    of its text, so an unchanged entry is not formatted again.
    """
    cut = pieces(text)
    if cut is None:
        return _format(text, quotes)
    kept: dict[str, object] = {}
    name = None
    if cache is not None and cache.folder is not None:
        from importlib import metadata

        from glossary.cache import code_key

        seed = f"{code_key()}:{metadata.version('ruamel.yaml')}"
        name = f"fmt-{hashlib.sha256(seed.encode()).hexdigest()[:32]}.json"
        found = cache.read(name)
        kept = found if isinstance(found, dict) else {}
    used: dict[str, object] = {}
    out = []
    for piece in cut:
        ident = m.group(1) if (m := _ID.match(piece)) else None
        mine = sorted((j, q) for (i, j), q in (quotes or {}).items() if i == ident)
        if quotes and ident is None:
            out.append(_format(piece, quotes))  # the quotes may be this entry's
            continue
        key = hashlib.sha256(json.dumps([piece, mine], ensure_ascii=False).encode()).hexdigest()
        done = kept.get(key)
        if not isinstance(done, str):
            done = _format(piece, {(ident, j): q for j, q in mine} if ident and mine else None)
        used[key] = done
        out.append(done)
    if name is not None and cache is not None and used != kept:
        cache.write(name, used)
    return "".join(out)


def _format(text: str, quotes: Quotes | None = None) -> str:
    """The canonical form of a terms file's text, or of one entry's."""
    yaml = _yaml()
    data = yaml.load(text)
    if not isinstance(data, CommentedSeq):
        return text
    # Keys in the schema's order: a new field takes its place without an edit here.
    entry_order, citation_order, flow = fields_of("entry"), fields_of("citation"), flow_lists()
    for i, entry in enumerate(data):
        if not isinstance(entry, CommentedMap):
            continue
        entry = _reorder(entry, entry_order)
        for name in flow:
            if isinstance(entry.get(name), CommentedSeq):
                entry[name].fa.set_flow_style()
        citations = entry.get("citations")
        if isinstance(citations, CommentedSeq):
            citations.fa.set_block_style()
            for j, citation in enumerate(citations):
                if isinstance(citation, CommentedMap):
                    citation.fa.set_block_style()
                    if quotes and (entry.get("id"), j) in quotes and "quote" in citation:
                        citation["quote"] = quotes[(entry.get("id"), j)]
                    citations[j] = _reorder(citation, citation_order)
        entry.fa.set_block_style()
        data[i] = _refilled(entry)
    out = io.StringIO()
    yaml.dump(data, out)
    # ruamel indents the top-level list like the nested ones; entries start at the margin.
    dumped = "".join(
        line[2:] if line.startswith("  ") else line for line in out.getvalue().splitlines(True)
    )
    return _close_gaps(dumped, yaml)


def _refilled(node: object) -> object:
    """``node`` with every one-paragraph folded scalar (``>-``) inside it filled to the width
    afresh: ruamel otherwise keeps the line breaks it read, wherever an edit left them. A value
    with paragraphs (a newline in it) keeps its breaks; comments stay on their nodes."""
    if isinstance(node, FoldedScalarString) and "\n" not in node:
        fresh = FoldedScalarString(str(node))
        if (comment := getattr(node, "comment", None)) is not None:  # one ruamel hung on it
            fresh.comment = comment
        return fresh
    if isinstance(node, CommentedMap):
        for key in list(node):
            node[key] = _refilled(node[key])
    elif isinstance(node, CommentedSeq):
        for n, item in enumerate(node):
            node[n] = _refilled(item)
    return node


#: A line that opens a block scalar (``definition: >-``, ``why: |``): the lines indented deeper
#: than its key, blank ones too, are the value's.
_BLOCK = re.compile(r"^( *)(?:- )?[^#\s][^#]*:[ \t]+[|>][-+0-9]*[ \t]*(?:#.*)?$")


def _close_gaps(text: str, yaml: YAML) -> str:
    """``text`` without blank lines inside its entries (between fields or citations), where the
    canonical layout has none; blank lines before the next entry or a heading comment stay.

    A blank line inside a block scalar is part of the value (a paragraph break) and stays; the
    text is read again, and kept as it was if the data would change.
    """
    lines = text.split("\n")
    keep: list[str] = []
    inside = -1  # the indentation of the key whose block scalar we are in, or -1
    for i, line in enumerate(lines):
        depth = len(line) - len(line.lstrip(" "))
        if inside >= 0 and line.strip() and depth <= inside:
            inside = -1
        if not line.strip() and inside < 0:
            after = next((x for x in lines[i + 1 :] if x.strip()), "")
            if after.startswith((" ", "\t")):
                continue  # a gap inside an entry
        keep.append(line)
        if inside < 0 and (m := _BLOCK.match(line)):
            inside = len(m.group(1))
    closed = "\n".join(keep)
    if closed == text:
        return text
    return closed if yaml.load(closed) == yaml.load(text) else text


def format_file(
    terms: Path,
    check_only: bool = False,
    quotes: Quotes | None = None,
    cache: IndexCache | None = None,
) -> str:
    """Put ``terms`` in canonical form, with ``quotes`` rewritten (or, with ``check_only``, only say
    what would change): the unified diff of the change, '' when there is none.

    Nothing is written when the file has YAML problems or when formatting would change its data
    (beyond the quotes asked for).
    """
    try:
        # Not through a link: fmt would replace the link with a copy (and read whatever it names).
        raw = read_bounded(terms, MAX_BYTES, links=False)
    except (OSError, UnreadableFile) as exc:
        raise GlossaryError(
            f"{terms}: cannot read: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    before = load_bytes(raw, str(terms))
    if before.problems:
        raise DataError(
            "fix the file's YAML problems first:\n" + "\n".join(str(p) for p in before.problems)
        )
    # Read as text files are (any line end becomes \n): fmt writes the usual line ends.
    text = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    formatted = format_text(text, quotes, cache)
    if formatted == text:
        return ""
    diff = "".join(
        difflib.unified_diff(
            text.splitlines(True),
            formatted.splitlines(True),
            f"{terms} (now)",
            f"{terms} (formatted)",
        )
    )
    if check_only:
        return diff
    expected = copy.deepcopy(before.data)
    for _index, entry in enumerate(expected if isinstance(expected, list) else []):
        for j, citation in enumerate(
            entry.get("citations") or [] if isinstance(entry, dict) else []
        ):
            if quotes and isinstance(citation, dict) and (entry.get("id"), j) in quotes:
                citation["quote"] = quotes[(entry.get("id"), j)]
    if load_bytes(formatted.encode("utf-8"), str(terms)).data != expected:
        raise GlossaryError(
            "formatting would change the data: nothing written (please report this)"
        )
    # Refused if the file changed since it was read: an edit saved meanwhile is never lost.
    write_file_atomically(terms, formatted.encode("utf-8"), expect=raw)
    return diff


def source_quotes(report: Report) -> Quotes:
    """The verified quotes of a checked terms file that are not written as their source prints them
    (script, punctuation, variant forms), with the source's text. Quotes verified only through an
    edition variant or the 〇 placeholder are left to a person (their warnings say why)."""
    from glossary.folds import EDITION

    entries = {entry.id: entry for entry in report.entries}
    quotes: Quotes = {}
    for result in report.results:
        if result.verified and result.source_text is not None and result.entry_id in entries:
            if any(fold.source == EDITION for fold in result.folds):
                continue
            quotes[(result.entry_id, result.index)] = result.source_text
    return quotes
