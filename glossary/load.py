"""Safe YAML loading that keeps the line of every node.

PyYAML's safe loader accepts duplicate keys silently and builds aliases into
shared objects; we compose the node graph instead and build plain values
ourselves, so every value keeps its line, duplicate keys and aliases are
reported, and only YAML's standard scalar tags are accepted.
"""
from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from glossary import nogc
from glossary.problems import ERROR, Problem

PathKey = tuple[object, ...]
#: libyaml's parser when PyYAML has it (ten times faster); the same safe node graph either way.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
STANDARD_TAGS = {
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")
}


@dataclass
class Loaded:
    """A YAML file's data, the line of every node by data path, and load problems."""

    file: str
    data: object = None
    lines: dict[PathKey, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    #: Data paths the loader already reported, so validation does not repeat them.
    reported: set[PathKey] = field(default_factory=set)
    pending: list[tuple[int, PathKey]] = field(default_factory=list)
    #: Data paths whose value was refused (a tag, a bad date): they hold None.
    voided: set[PathKey] = field(default_factory=set)

    def line_of(self, path: PathKey) -> int:
        """The line of the node at ``path``, or of its nearest ancestor."""
        path = tuple(path)
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path, 1)


def _error(loaded: Loaded, line: int, message: str, path: PathKey | None = None, suppress: bool = True) -> None:
    # Paths are rendered once the data is built, so entries can be named by id.
    loaded.problems.append(Problem(loaded.file, line, "", ERROR, message))
    if path is not None:
        if suppress:
            # Validation would only repeat this problem at this path in other words.
            loaded.reported.add(path)
        loaded.pending.append((len(loaded.problems) - 1, path))


OTHER_BREAKS = ("\r", "\u2028", "\u2029", "\x85")


class Lines:
    """Line numbers as editors, grep and GitHub count them: only ``\n`` ends a line.

    YAML also breaks lines at U+2028, U+2029, U+0085 and a lone CR; its marks' character
    index, not their line, is therefore turned into a line here.
    """

    def __init__(self, text: str):
        self._breaks = array("L", (m.start() for m in re.finditer("\n", text)))
        self._last = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        #: Without those other breaks, YAML's own line count is ours (and costs no search).
        self.plain = not any(ch in text for ch in OTHER_BREAKS)

    def at(self, index: int) -> int:
        return max(1, min(bisect_left(self._breaks, index) + 1, self._last))

    def of(self, mark: yaml.Mark) -> int:
        """The line of a node's start mark."""
        return max(1, min(mark.line + 1, self._last)) if self.plain else self.at(mark.index)


def _decode(loaded: Loaded, data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        _error(loaded, line, f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded; save the file as UTF-8")
        return None
    # A BOM is harmless to YAML once removed; CRLF line ends are read as LF by the parser.
    return text.removeprefix("\ufeff")


STR_TAG = "tag:yaml.org,2002:str"


class _Alias(Exception):
    """A node reached twice: the file uses an alias."""


class _Builder:
    def __init__(self, loaded: Loaded, lines: Lines):
        self.loaded = loaded
        self.lines = lines
        self.constructor = yaml.constructor.SafeConstructor()
        # Composing turns an alias into a second reference to its anchor's node.
        self.seen: set[int] = set()

    def build(self, node: yaml.Node, path: PathKey) -> object:
        if id(node) in self.seen:
            raise _Alias
        self.seen.add(id(node))
        line = self.lines.of(node.start_mark)
        self.loaded.lines[path] = line
        tag = node.tag
        if tag == STR_TAG and type(node) is yaml.ScalarNode:
            return node.value  # most of a terms file: text needs no constructor
        if tag not in STANDARD_TAGS:
            _error(self.loaded, line, f"unsupported YAML tag {tag.replace('tag:yaml.org,2002:', '!!')}", path)
            self.loaded.voided.add(path)
            return None
        if isinstance(node, yaml.MappingNode):
            result: dict[object, object] = {}
            first_line: dict[object, int] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    _error(self.loaded, self.lines.of(key_node.start_mark), "mapping keys must be plain text",
                           path, suppress=False)
                    continue
                key = self.build(key_node, path + ("<key>",))
                key_line = self.lines.of(key_node.start_mark)
                if key in first_line:
                    _error(
                        self.loaded,
                        key_line,
                        f"duplicate key {key!r} (first given on line {first_line[key]})",
                        path + (key,),
                    )
                    continue
                first_line[key] = key_line
                result[key] = self.build(value_node, path + (key,))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        try:
            return self.constructor.construct_object(node, deep=True)
        except Exception as exc:  # noqa: BLE001 - PyYAML's constructors raise ValueError, KeyError,
            # AttributeError … for values such as 2001-02-30 or `!!bool maybe`: all are bad data here.
            _error(self.loaded, line, f"bad value {node.value!r}: {getattr(exc, 'problem', None) or exc}", path)
            self.loaded.voided.add(path)
            return None


def render_path(data: object, path: PathKey) -> str:
    """``bi.citations[0].quote``: entries are named by id where they have one."""
    out = ""
    for depth, part in enumerate(p for p in path if p != "<key>"):
        if depth == 0 and isinstance(part, int):
            entry = data[part] if isinstance(data, list) and part < len(data) else None
            ident = entry.get("id") if isinstance(entry, dict) else None
            out = ident if isinstance(ident, str) and ident else f"[{part}]"
        elif isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def load_yaml(path: Path | str, display: str | None = None) -> Loaded:
    """Load a YAML file safely; problems are collected, never raised."""
    path = Path(path)
    loaded = Loaded(file=display or str(path))
    try:
        raw = path.read_bytes()
    except OSError as exc:
        _error(loaded, 0, f"cannot read: {exc.strerror}")
        return loaded
    text = _decode(loaded, raw)
    if text is None:
        return loaded
    lines_of = Lines(text)
    try:
        with nogc.paused():
            node = yaml.compose(text, Loader=LOADER)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = lines_of.at(mark.index) if mark else 1
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        if exc.context_mark and exc.problem_mark and lines_of.at(exc.context_mark.index) != line:
            message += f" (opened on line {lines_of.at(exc.context_mark.index)})"
        lines = text.splitlines()
        if 0 < line <= len(lines) and "\t" in lines[line - 1]:
            message += " (tabs cannot indent YAML: use spaces)"
        _error(loaded, line, f"YAML syntax error: {message}")
        return loaded
    except yaml.reader.ReaderError as exc:
        # Control characters: the reader knows the character's position, not its line
        # (libyaml counts UTF-8 bytes, PyYAML's own reader characters).
        position = exc.position
        if LOADER is not yaml.SafeLoader:
            position = len(text.encode("utf-8")[:position].decode("utf-8", "ignore"))
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        _error(loaded, lines_of.at(position), f"character U+{code:04X} is not allowed in YAML ({exc.reason})")
        return loaded
    except yaml.YAMLError as exc:
        _error(loaded, 1, f"YAML error: {exc}")
        return loaded
    except RecursionError:
        _error(loaded, 1, "YAML nested too deeply to be a terms file")
        return loaded
    if node is None:
        _error(loaded, 1, "the file holds no entries (it is empty or only comments)")
        return loaded
    built = Loaded(file=loaded.file, problems=list(loaded.problems))
    try:
        with nogc.paused():
            built.data = _Builder(built, lines_of).build(node, ())
    except _Alias:
        # Refuse the file outright: an alias bomb must not be expanded by anything downstream.
        aliases = [lines_of.at(e.start_mark.index) for e in yaml.parse(text, Loader=LOADER) if isinstance(e, yaml.AliasEvent)]
        more = f" (and {len(aliases) - 1} more)" if len(aliases) > 1 else ""
        _error(loaded, aliases[0], f"YAML aliases (*name) are not allowed in a terms file{more}")
        return loaded
    except RecursionError:
        _error(built, 1, "YAML nested too deeply to be a terms file")
    loaded = built
    for i, path in loaded.pending:
        problem = loaded.problems[i]
        loaded.problems[i] = Problem(problem.file, problem.line, render_path(loaded.data, path), ERROR, problem.message)
    return loaded
