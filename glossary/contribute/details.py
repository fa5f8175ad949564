"""`glossary changelog --details`: each field an entry gained, lost or changed, as a word-level diff,
and each changed citation's quote with its place, so a reviewer reads the claims beside the passages.

Chinese is compared character by character, English word by word (difflib). Entries are a pull
request's text: every value is cut to :data:`MAX_FIELD` characters, the whole report to
:data:`MAX_OUTPUT` bytes, and each form escapes what its reader would obey (HTML and markdown in
the job summary, terminal controls and workflow commands in text).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from glossary.problems import UNSAFE, printable

#: Characters of one field's text that are compared and shown (a longer value is cut, and says so).
MAX_FIELD = 4000
#: Bytes (UTF-8) of a whole report: GitHub takes at most 1 MiB of job summary from one step.
MAX_OUTPUT = 900_000
_LATIN = "0-9A-Za-z\u00c0-\u02af\u0300-\u036f\u1e00-\u1eff"
#: A word of Latin script (pinyin's tone marks too, an apostrophe inside), a run of spaces, or any
#: other one character: each Chinese character is a token of its own.
TOKEN = re.compile(rf"\s+|[{_LATIN}]+(?:['’][{_LATIN}]+)*|.", re.DOTALL)
#: The fields that say where a quote stands, in the order ``glossary locate`` prints them.
PLACE = ("work", "juan", "page", "section", "layer")

Segment = tuple[str, str]  # ("=" kept | "-" removed | "+" added, text)
#: An entry as YAML gives it: its keys are whatever the file holds (a pull request's text).
Entryish = Mapping[Any, object]


@dataclass(frozen=True)
class FieldDiff:
    name: str
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class CitationDiff:
    label: str  # citations[2]: its place in the new entry (in the old one when removed)
    status: str  # added | removed | changed
    quote: tuple[Segment, ...]
    place: tuple[Segment, ...]
    others: tuple[FieldDiff, ...]  # note, reading …: only those that changed


@dataclass(frozen=True)
class EntryDiff:
    ident: str
    term: str
    status: str  # added | removed | changed
    fields: tuple[FieldDiff, ...]
    citations: tuple[CitationDiff, ...]


def bounded(text: str) -> str:
    """``text`` cut to :data:`MAX_FIELD` characters, saying how long it was."""
    return text if len(text) <= MAX_FIELD else f"{text[:MAX_FIELD]}…({len(text):,} characters)"


def field_text(value: object) -> str:
    """A field's value as one text: lists joined by commas (a null as —), mappings as ``key: value``."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ", ".join("—" if v is None else field_text(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {field_text(v)}" for k, v in value.items())
    return json.dumps(value, ensure_ascii=False, default=str)


def word_diff(old: str, new: str) -> tuple[Segment, ...]:
    """The segments that turn ``old`` into ``new``: Chinese by character, English by word.

    A run of spaces kept between two changes joins them, so that a rewritten phrase reads as one
    deletion and one insertion rather than word against word.
    """
    a, b = TOKEN.findall(bounded(old)), TOKEN.findall(bounded(new))
    pieces: list[Segment] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            pieces.append(("=", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            pieces.append(("-", "".join(a[i1:i2])))
        if j2 > j1:
            pieces.append(("+", "".join(b[j1:j2])))
    merged: list[Segment] = []
    removed, added = "", ""
    for index, (op, text) in enumerate(pieces):
        joins = (
            op == "="
            and text.isspace()
            and 0 < index < len(pieces) - 1
            and pieces[index + 1][0] != "="
            and (removed or added)
        )
        if op == "=" and not joins:
            merged.extend(s for s in (("-", removed), ("+", added)) if s[1])
            removed, added = "", ""
            merged.append((op, text))
            continue
        removed += text if op in "-=" else ""
        added += text if op in "+=" else ""
    merged.extend(s for s in (("-", removed), ("+", added)) if s[1])
    return tuple(merged)


def _place(citation: Mapping[str, object]) -> str:
    parts = {
        "juan": "卷{}",
        "page": "p.{}",
        "section": "〈{}〉",
    }
    return " ".join(
        parts.get(name, "{}").format(field_text(citation[name]))
        for name in PLACE
        if citation.get(name) is not None
    )


def _as_citation(value: object) -> Mapping[str, object]:
    return value if isinstance(value, dict) else {"quote": field_text(value)}


def _citation(label: str, status: str, old: object, new: object) -> CitationDiff:
    before, after = _as_citation(old or {}), _as_citation(new or {})
    others = tuple(
        FieldDiff(
            bounded(str(name)), word_diff(field_text(before.get(name)), field_text(after.get(name)))
        )
        for name in dict.fromkeys([*before, *after])
        if name != "quote" and name not in PLACE and before.get(name) != after.get(name)
    )
    return CitationDiff(
        label,
        status,
        word_diff(field_text(before.get("quote")), field_text(after.get("quote"))),
        word_diff(_place(before), _place(after)),
        others,
    )


def citation_diffs(old: object, new: object) -> tuple[CitationDiff, ...]:
    """The citations added, removed or changed: matched in order, a citation edited in place is
    one changed citation (its quote or its place), one put in or taken out is added or removed."""
    before = old if isinstance(old, list) else []
    after = new if isinstance(new, list) else []

    def key(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)

    matcher = SequenceMatcher(None, [key(c) for c in before], [key(c) for c in after], False)
    found: list[CitationDiff] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        pairs = min(i2 - i1, j2 - j1) if tag == "replace" else 0
        for k in range(pairs):
            found.append(
                _citation(f"citations[{j1 + k}]", "changed", before[i1 + k], after[j1 + k])
            )
        for j in range(j1 + pairs, j2):
            found.append(_citation(f"citations[{j}]", "added", None, after[j]))
        for i in range(i1 + pairs, i2):
            found.append(_citation(f"citations[{i}]", "removed", before[i], None))
    return tuple(found)


def entry_diff(old: Entryish | None, new: Entryish | None) -> EntryDiff:
    """One entry's changes; ``old`` None: an added entry (every field is new), ``new`` None: removed."""
    before, after = old or {}, new or {}
    status = "added" if old is None else "removed" if new is None else "changed"
    fields = tuple(
        FieldDiff(
            bounded(str(name)), word_diff(field_text(before.get(name)), field_text(after.get(name)))
        )
        for name in dict.fromkeys([*after, *before])
        if name not in ("id", "citations") and before.get(name) != after.get(name)
    )
    shown = after if new is not None else before
    return EntryDiff(
        str(shown.get("id", "")),
        field_text(shown.get("term")),
        status,
        fields,
        citation_diffs(before.get("citations"), after.get("citations")),
    )


def details(
    pairs: Sequence[tuple[Entryish | None, Entryish | None]],
) -> tuple[EntryDiff, ...]:
    """The changes of each (old, new) pair of entries (``changelog.matched`` pairs them by id)."""
    return tuple(entry_diff(old, new) for old, new in pairs)


# -- the forms -----------------------------------------------------------------------------------


def _counts(diffs: Sequence[EntryDiff]) -> str:
    return ", ".join(
        f"{sum(d.status == status for d in diffs)} {status}"
        for status in ("added", "changed", "removed")
    )


def _render(
    diffs: Sequence[EntryDiff],
    head: list[str],
    entry: Callable[[EntryDiff], str],
    left_out: Callable[[int], str],
) -> str:
    parts, size = list(head), sum(len(p.encode()) + 1 for p in head)
    for index, diff in enumerate(diffs):
        rendered = entry(diff)
        size += len(rendered.encode()) + 1
        if size > MAX_OUTPUT:
            parts.append(left_out(len(diffs) - index))
            break
        parts.append(rendered)
    return "\n".join(parts) + "\n"


def _text_segments(segments: Sequence[Segment]) -> str:
    marks = {"=": "{}", "-": "[-{}-]", "+": "{{+{}+}}"}
    return "".join(marks[op].format(printable(text, None)) for op, text in segments)


def _text_entry(diff: EntryDiff) -> str:
    lines = [f"{printable(diff.ident)} {printable(diff.term)} ({diff.status})"]
    lines.extend(f"  {printable(f.name)}: {_text_segments(f.segments)}" for f in diff.fields)
    for c in diff.citations:
        lines.append(f"  {c.label} ({c.status})")
        lines.append(f"    quote: {_text_segments(c.quote)}")
        lines.append(f"    place: {_text_segments(c.place)}")
        lines.extend(f"    {printable(f.name)}: {_text_segments(f.segments)}" for f in c.others)
    return "\n".join(lines) + "\n"


def text(diffs: Sequence[EntryDiff], old: str, new: str) -> str:
    """The report for a terminal: ``[-removed-]`` and ``{+added+}`` inside each field's text."""
    head = [f"Glossary changes: {printable(old)} → {printable(new)}: {_counts(diffs)}", ""]
    return _render(
        diffs, head, _text_entry, lambda n: f"… {n} more entries left out (the report's size limit)"
    )


def _html(text: str) -> str:
    """Text that an HTML block shows and nothing reads: markup escaped, a line break as <br>, the
    characters of a workflow command (``::``, ``##[``) as references, controls as ``\\u…``."""
    escaped = html.escape(UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text), quote=True)
    return escaped.replace(":", "&#58;").replace("[", "&#91;").replace("\n", "<br>")


def _html_segments(segments: Sequence[Segment]) -> str:
    tags = {"=": "{}", "-": "<del>{}</del>", "+": "<ins>{}</ins>"}
    return "".join(tags[op].format(_html(text)) for op, text in segments)


def _html_entry(diff: EntryDiff) -> str:
    rows = [
        f"<tr><th>{_html(f.name)}</th><td>{_html_segments(f.segments)}</td></tr>"
        for f in diff.fields
    ]
    for c in diff.citations:
        cells = [f"{c.status}", f"quote: {_html_segments(c.quote)}"]
        cells.append(f"place: {_html_segments(c.place)}")
        cells.extend(f"{_html(f.name)}: {_html_segments(f.segments)}" for f in c.others)
        rows.append(f"<tr><th>{c.label}</th><td>{'<br>'.join(cells)}</td></tr>")
    # One HTML block (no blank line inside): GitHub's markdown passes it through as it is.
    return "\n".join(
        [
            f"<h3><code>{_html(diff.ident)}</code> {_html(diff.term)} ({diff.status})</h3>",
            "<table>",
            *rows,
            "</table>",
            "",
        ]
    )


def markdown(diffs: Sequence[EntryDiff], old: str, new: str) -> str:
    """The report for a GitHub job summary: an HTML block per entry, ``<del>``/``<ins>`` in each
    field's text; no value is read as markdown or HTML."""
    head = [
        f"<h2>Glossary changes: {_html(old)} → {_html(new)}</h2>",
        "",
        f"<p>{_counts(diffs)}</p>",
        "",
    ]
    return _render(
        diffs,
        head,
        _html_entry,
        lambda n: (
            f"<p>… {n} more entries left out (the summary's size limit): run "
            "<code>glossary changelog --details</code> locally</p>"
        ),
    )
