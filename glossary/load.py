"""Safe YAML loading that keeps the line of every node.

PyYAML's safe loader accepts duplicate keys silently and builds aliases into
shared objects; we compose the node graph instead and build plain values
ourselves, so every value keeps its line, duplicate keys and aliases are
reported, and only YAML's standard scalar tags are accepted.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from glossary.problems import ERROR, Problem

PathKey = tuple[object, ...]
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

    def line_of(self, path: PathKey) -> int:
        """The line of the node at ``path``, or of its nearest ancestor."""
        path = tuple(path)
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path, 1)


def _error(loaded: Loaded, line: int, message: str, path: str = "") -> None:
    loaded.problems.append(Problem(loaded.file, line, path, ERROR, message))


def _decode(loaded: Loaded, data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        _error(loaded, line, f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded; save the file as UTF-8")
        return None
    # A BOM is harmless to YAML once removed; CRLF line ends are read as LF by the parser.
    return text.removeprefix("\ufeff")


class _Builder:
    def __init__(self, loaded: Loaded):
        self.loaded = loaded
        self.seen: set[int] = set()
        self.constructor = yaml.constructor.SafeConstructor()

    def build(self, node: yaml.Node, path: PathKey) -> object:
        line = node.start_mark.line + 1
        self.loaded.lines[path] = line
        if id(node) in self.seen:
            _error(self.loaded, line, "YAML aliases (*name) are not allowed in a terms file", _render(path))
            return None
        self.seen.add(id(node))
        if node.tag not in STANDARD_TAGS:
            _error(self.loaded, line, f"unsupported YAML tag {node.tag.replace('tag:yaml.org,2002:', '!!')}", _render(path))
            return None
        if isinstance(node, yaml.MappingNode):
            result: dict[object, object] = {}
            first_line: dict[object, int] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    _error(self.loaded, key_node.start_mark.line + 1, "mapping keys must be plain text", _render(path))
                    continue
                key = self.build(key_node, path + ("<key>",))
                key_line = key_node.start_mark.line + 1
                if key in first_line:
                    _error(
                        self.loaded,
                        key_line,
                        f"duplicate key {key!r} (first given on line {first_line[key]})",
                        _render(path + (key,)),
                    )
                    continue
                first_line[key] = key_line
                result[key] = self.build(value_node, path + (key,))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        try:
            return self.constructor.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            _error(self.loaded, line, f"bad value: {getattr(exc, 'problem', exc)}", _render(path))
            return None


def _render(path: PathKey) -> str:
    out = ""
    for part in path:
        if part == "<key>":
            continue
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
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
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        message = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        lines = text.splitlines()
        if 0 < line <= len(lines) and "\t" in lines[line - 1]:
            message += " (tabs cannot indent YAML: use spaces)"
        _error(loaded, line, f"YAML syntax error: {message}")
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
    try:
        loaded.data = _Builder(loaded).build(node, ())
    except RecursionError:
        _error(loaded, 1, "YAML nested too deeply to be a terms file")
    return loaded
