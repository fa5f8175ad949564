"""`glossary fmt`: terms.yaml in canonical key order and layout, comments kept.

ruamel.yaml round-trips comments and block scalars; we only reorder keys and set
list styles (short lists inline, citations as blocks). The result is re-read with
our own loader and compared with the original data, so formatting never changes
or loses an entry.
"""
from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from glossary.errors import DataError, GlossaryError
from glossary.files import write_file_atomically
from glossary.load import load_bytes, load_yaml
from glossary.schema import fields_of, schema



def flow_lists() -> tuple[str, ...]:
    """The entry fields written inline (``rites: [乡射礼]``): lists of plain values, not of mappings."""
    return tuple(
        name for name, spec in schema()["$defs"]["entry"]["properties"].items()
        if spec.get("type") == "array" and not spec.get("items", {}).get("$ref", "").endswith("/citation")
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


def format_text(text: str) -> str:
    """The canonical form of a terms file's text."""
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
                    citations[j] = _reorder(citation, citation_order)
        entry.fa.set_block_style()
        data[i] = entry
    out = io.StringIO()
    yaml.dump(data, out)
    # ruamel indents the top-level list like the nested ones; entries start at the margin.
    return "".join(line[2:] if line.startswith("  ") else line for line in out.getvalue().splitlines(True))


def format_file(terms: Path, check_only: bool = False) -> bool:
    """Put ``terms`` in canonical form (or, with ``check_only``, only say whether it is); True if it was not.

    Nothing is written when the file has YAML problems or when formatting would change its data.
    """
    before = load_yaml(terms)
    if before.problems:
        raise DataError("fix the file's YAML problems first:\n" + "\n".join(str(p) for p in before.problems))
    text = terms.read_text(encoding="utf-8-sig")
    formatted = format_text(text)
    if formatted == text:
        return False
    if check_only:
        return True
    if load_bytes(formatted.encode("utf-8"), str(terms)).data != before.data:
        raise GlossaryError("formatting would change the data: nothing written (please report this)")
    write_file_atomically(terms, formatted.encode("utf-8"))
    return True
