"""YAML syntax errors in plain words: where the mistake is, and how a terms file lines up.

libyaml reports what its parser expected (``while parsing a block collection did not find
expected '-' indicator``), often at the line after the mistake. A contributor needs the line
that is wrong and the indentation it should have: the fields of an entry line up under ``id:``
(2 spaces), those of a citation under ``quote:`` (6 spaces), and the lines of a ``>-`` text
under its first line. This module only reads the text around the parser's marks.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml

#: ``  key: value`` or ``- key: value`` (a key of plain text: field names are).
KEY_LINE = re.compile(r"^(?P<indent> *)(?P<dash>- +)?(?P<key>[A-Za-z_][\w-]*) *:(?: |$)")
#: A key whose value is a block of text on the following lines (``definition: >-``).
BLOCK_SCALAR = re.compile(r":\s*[>|][+-]?\d*\s*(#.*)?$")
#: ``key:value``: a key and its value without the space YAML needs after the colon.
NO_SPACE = re.compile(r"^(?P<indent> *)(?P<dash>- +)?(?P<key>[A-Za-z_][\w-]*):(?P<value>[^\s:].*)$")
#: ``- id: x``: where an entry starts (its id, if plain).
ENTRY_START = re.compile(r"^- +(?:id *: *(?P<id>[A-Za-z0-9][A-Za-z0-9_-]*)(?=\s*(?:#|$)))?")
#: How far above the error the enclosing keys are looked for (an entry is a few dozen lines; a
#: hostile file of a million lines must not be read back line by line).
LOOKBACK = 400


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _meaningful(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


class Column:
    """A column keys line up at, with the key that opened it: ``quote`` at 6 (a citation's fields)."""

    def __init__(self, column: int, key: str, parent: str | None):
        self.column, self.key, self.parent = column, key, parent

    def owner(self) -> str:
        """Whose fields line up here, in words."""
        if self.parent == "citations":
            return "a citation's fields"
        if self.parent is None and self.column <= 2:
            return "an entry's fields"
        if self.parent:
            return f"the fields under `{self.parent}:`"
        return "the fields"

    def describe(self) -> str:
        return f"{self.owner()} line up under `{self.key}:` ({self.column} spaces)"


def columns_above(lines: list[str], row: int) -> list[Column]:
    """The columns that keys line up at in the mappings that enclose line ``row`` (0-based),
    innermost first, read from the lines above it."""
    found: list[Column] = []
    limit = None  # only columns left of every one found so far enclose the line
    top = max(-1, row - 1 - LOOKBACK)
    for i in range(row - 1, top, -1):
        line = lines[i]
        if not _meaningful(line):
            continue
        match = KEY_LINE.match(line)
        if not match:
            continue
        column = len(match.group("indent")) + len(match.group("dash") or "")
        if limit is not None and column >= limit:
            continue
        parent = None
        # The key that holds this mapping: the nearest key line above, left of it.
        for j in range(i - 1, top, -1):
            above = KEY_LINE.match(lines[j]) if _meaningful(lines[j]) else None
            if above and len(above.group("indent")) + len(above.group("dash") or "") < column - (
                2 if match.group("dash") else 0
            ):
                parent = above.group("key")
                break
            if (
                above is None
                and _meaningful(lines[j])
                and _indent(lines[j]) == 0
                and not lines[j].startswith("-")
            ):
                break
        if match.group("dash"):
            # ``- quote:`` opens an item: its fields line up under ``quote``, the item's dash one level out.
            found.append(Column(column, match.group("key"), parent))
            limit = len(match.group("indent"))
            if limit == 0:
                break
        else:
            # Keep the first key of the block (the one the others line up under), not the last.
            first = match.group("key")
            for j in range(i - 1, top, -1):
                above = KEY_LINE.match(lines[j]) if _meaningful(lines[j]) else None
                if above is None:
                    if _meaningful(lines[j]) and _indent(lines[j]) <= column:
                        break
                    continue
                at = len(above.group("indent")) + len(above.group("dash") or "")
                if at == column:
                    first = above.group("key")
                    if above.group("dash"):
                        break
                elif at < column:
                    break
            found.append(Column(column, first, parent))
            limit = column
    return found


def _block_above(lines: list[str], row: int) -> tuple[str, int] | None:
    """The key of a ``>-`` text that line ``row`` may continue, and the indentation of its lines."""
    for i in range(row - 1, max(-1, row - 1 - LOOKBACK), -1):
        if not lines[i].strip():
            continue
        match = KEY_LINE.match(lines[i])
        if match and BLOCK_SCALAR.search(lines[i]):
            body = [lines[j] for j in range(i + 1, row) if lines[j].strip()]
            column = min((_indent(b) for b in body), default=_indent(lines[i]) + 2)
            return match.group("key"), column
        if match:
            return None
    return None


def path_at(lines: list[str], row: int) -> str:
    """The data path line ``row`` (0-based) stands at, read from the lines above it as a terms
    file lays them out (``zu-ku.citations[1].work``); '' outside any entry."""
    top = max(-1, row - 1 - LOOKBACK)
    start = next((i for i in range(row, top, -1) if ENTRY_START.match(lines[i])), None)
    if start is None:
        return ""
    match = ENTRY_START.match(lines[start])
    entry = (match.group("id") if match else None) or f"[entry at line {start + 1}]"
    own = KEY_LINE.match(lines[row]) or NO_SPACE.match(lines[row])
    if row == start:
        return f"{entry}.{own.group('key')}" if own else entry
    field, at = None, start
    for i in range(row - 1, start - 1, -1):
        key = KEY_LINE.match(lines[i])
        if key and len(key.group("indent")) + len(key.group("dash") or "") == 2:
            field, at = key.group("key"), i
            break
    if own and len(own.group("indent")) < 4 and not own.group("dash"):
        return f"{entry}.{own.group('key')}"
    if field is None:
        return entry
    items = [i for i in range(at + 1, row + 1) if lines[i].lstrip().startswith("- ")]
    if not items:
        return f"{entry}.{field}"
    path = f"{entry}.{field}[{len(items) - 1}]"
    if own and items[-1] != row:
        path += f".{own.group('key')}"
    return path


def _no_space(line: str) -> str | None:
    """The fix for ``category:object`` (a key without the space after its colon), or None."""
    match = NO_SPACE.match(line)
    if match is None:
        return None
    key, value = match.group("key"), match.group("value")
    return (
        f"YAML syntax error: `{key}:{value}` needs a space after the colon, or YAML reads it as "
        f"text, not a field: write `{key}: {value}`"
    )


def _colon_in_value(line: str) -> str | None:
    """The fix for an unquoted ``: `` inside a value (``gloss: a: b``), or None."""
    match = KEY_LINE.match(line)
    if match is None:
        return None
    value = line[match.end() :].strip()
    if ": " not in value or value[:1] in "\"'[{":
        return None
    quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    key = match.group("key")
    return (
        f"YAML syntax error: the value of `{key}:` holds `: `, which YAML reads as the start of "
        f"another field: put the value in quotes, `{key}: {quoted}`"
    )


def _dash_out_of_line(lines: list[str], row: int) -> str | None:
    """The fix for a list item (``- quote:``) indented otherwise than the items above it, or None."""
    match = KEY_LINE.match(lines[row]) if 0 <= row < len(lines) else None
    if match is None or not match.group("dash"):
        return None
    indent = len(match.group("indent"))
    for i in range(row - 1, max(-1, row - 1 - LOOKBACK), -1):
        above = KEY_LINE.match(lines[i]) if _meaningful(lines[i]) else None
        if above is None:
            continue
        at = len(above.group("indent"))
        if above.group("dash") and at > indent:
            fields = at + len(above.group("dash"))
            owner = "a citation's" if above.group("key") == "quote" else "an item's"
            return (
                f"YAML syntax error: `- {match.group('key')}:` is indented {indent} spaces: "
                f"{owner} `- ` lines up under the one above it ({at} spaces), and its fields "
                f"under `{above.group('key')}:` ({fields} spaces)"
            )
        if at <= indent and not above.group("dash"):
            return None
    return None


def explain(
    exc: yaml.MarkedYAMLError, text: str, line_of: Callable[[int], int]
) -> tuple[int, str, str]:
    """The line a syntax error is at, as a contributor should look for it, the data path it
    stands at (:func:`path_at`), and what to do.

    ``line_of`` turns a mark's character index into a line number (1-based), as editors count.
    """
    lines = text.splitlines()
    line, message = _explain(exc, lines, line_of)
    return line, path_at(lines, line - 1) if 0 < line <= len(lines) else "", message


def _explain(
    exc: yaml.MarkedYAMLError, lines: list[str], line_of: Callable[[int], int]
) -> tuple[int, str]:
    problem = exc.problem_mark or exc.context_mark
    context = exc.context_mark
    line = line_of(problem.index) if problem else 1
    parser = " ".join(str(part) for part in (exc.context, exc.problem) if part)
    row = line - 1
    if 0 <= row < len(lines) and "\t" in lines[row][: _indent(lines[row]) + 1]:
        return (
            line,
            f"YAML syntax error: a tab indents line {line} (tabs cannot indent YAML: use spaces)",
        )
    # A line of text without `key:` where the parser wanted a key: the continuation of a `>-`
    # text that lost its indentation. The parser points past it; the line itself is the mistake.
    if exc.problem and "could not find expected ':'" in exc.problem and context is not None:
        start = line_of(context.index) - 1
        if 0 <= start < len(lines) and (fix := _no_space(lines[start])) is not None:
            return start + 1, fix
        if 0 <= start < len(lines):
            block = _block_above(lines, start)
            if block is not None:
                key, column = block
                return start + 1, (
                    f"YAML syntax error: this line is text without `key:`; if it continues `{key}` "
                    f"above, indent it like the lines before it ({column} spaces)"
                )
            return start + 1, (
                "YAML syntax error: this line is text without `key:` "
                "(a field is written `name: value`; quote a value that spans lines)"
            )
    if exc.problem and "mapping values are not allowed" in exc.problem and 0 <= row < len(lines):
        if (fix := _colon_in_value(lines[row])) is not None:
            return line, fix
    if (fix := _dash_out_of_line(lines, row)) is not None:
        return line, fix
    for kind, opening, closing in (("flow sequence", "[", "]"), ("flow mapping", "{", "}")):
        if exc.context and kind in exc.context and context is not None:
            opened = line_of(context.index)
            return opened, (
                f"YAML syntax error: the `{opening}` opened on this line is not closed with "
                f"`{closing}` on that line (a list is written `[a, b]`; quote a value that holds "
                f"`{opening}`)"
            )
    if 0 <= row < len(lines) and (match := KEY_LINE.match(lines[row])) and not match.group("dash"):
        column = len(match.group("indent"))
        columns = columns_above(lines, row)
        key = match.group("key")
        if columns and not any(c.column == column for c in columns):
            inner = columns[0]
            if column > inner.column:
                return line, (
                    f"YAML syntax error: `{key}:` is indented {column} spaces, deeper than the "
                    f"fields above it: {inner.describe()}"
                )
            return (
                line,
                f"YAML syntax error: `{key}:` is indented {column} spaces: {inner.describe()}",
            )
    if context is not None and line_of(context.index) != line:
        parser += f" (opened on line {line_of(context.index)})"
    return line, f"YAML syntax error: {parser}"
