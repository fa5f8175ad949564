"""Safe YAML loading that keeps the line of every node.

PyYAML's safe loader accepts duplicate keys silently and builds aliases into
shared objects; we build plain values ourselves from libyaml's event stream
instead, so every value keeps its line, duplicate keys and aliases are
reported, and only YAML's standard scalar tags are accepted.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

import yaml

from glossary import nogc
from glossary.files import UnreadableFile, read_bounded
from glossary.problems import ERROR, Problem

if TYPE_CHECKING:
    from yaml._yaml import Mark as LibyamlMark

PathKey = tuple[object, ...]
#: Where an event stands: libyaml's parser gives marks of its own class, PyYAML's its Mark.
AnyMark: TypeAlias = "yaml.Mark | LibyamlMark"
#: The events a value starts with (an alias aside, which a terms file refuses).
ValueStart: TypeAlias = "yaml.ScalarEvent | yaml.MappingStartEvent | yaml.SequenceStartEvent"
#: Lists and mappings nested deeper than this are refused (a terms file nests four levels).
MAX_DEPTH = 32
#: A terms or plan file larger than this is refused unread (the shipped terms.yaml of every rite
#: is a few MB): parsing and validating it must stay bounded in time and memory.
MAX_BYTES = 32 * 1024 * 1024
#: libyaml's parser when PyYAML has it (ten times faster); the same safe node graph either way.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
STANDARD_TAGS = {
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")
}
#: The standard tags each kind of value may carry (``!!map`` on a list is as wrong as ``!!python/…``).
KIND_TAGS = {
    yaml.MappingStartEvent: {"tag:yaml.org,2002:map"},
    yaml.SequenceStartEvent: {"tag:yaml.org,2002:seq"},
    yaml.ScalarEvent: STANDARD_TAGS - {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"},
}
KIND_NAMES = {
    yaml.MappingStartEvent: "a mapping",
    yaml.SequenceStartEvent: "a list",
    yaml.ScalarEvent: "a value",
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
        try:
            line = self.lines.get(path)
        except TypeError:  # a list, not a tuple
            line = None
        if line is not None:
            return line  # nearly every call: the node itself has a line
        path = tuple(path)
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path, 1)


def _error(
    loaded: Loaded,
    line: int,
    message: str,
    path: PathKey | None = None,
    suppress: bool = True,
    *,
    code: str,
) -> None:
    # Paths are rendered once the data is built, so entries can be named by id.
    loaded.problems.append(Problem(loaded.file, line, "", ERROR, message, code=code))
    if path is not None:
        if suppress:
            # Validation would only repeat this problem at this path in other words.
            loaded.reported.add(path)
        loaded.pending.append((len(loaded.problems) - 1, path))


OTHER_BREAKS = ("\r", "\u2028", "\u2029", "\x85")
#: Line breaks to YAML that editors do not show as such: refused, so every tool agrees on lines.
UNUSUAL_BREAKS = {"\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR", "\x85": "NEXT LINE"}
_BREAK = re.compile("\r\n|\r|\n")


class Lines:
    """Line numbers as editors count them: a line ends at ``\n``, ``\r\n`` or a lone ``\r``.

    YAML also breaks lines at U+2028, U+2029 and U+0085 (refused in a terms file, see
    :data:`UNUSUAL_BREAKS`); where the text has any break but ``\n``, marks' character
    index, not YAML's line count, is turned into a line here.
    """

    def __init__(self, text: str):
        #: Without other breaks, YAML's own line count is ours (and costs no search).
        self.plain = not any(ch in text for ch in OTHER_BREAKS)
        pattern = "\n" if self.plain else _BREAK
        self._breaks = array("L", (m.end() - 1 for m in re.finditer(pattern, text)))
        self._last = len(self._breaks) + (0 if not text or text[-1] in "\r\n" else 1)

    def at(self, index: int) -> int:
        return max(1, min(bisect_left(self._breaks, index) + 1, self._last))

    def of(self, mark: AnyMark | None) -> int:
        """The line of a node's start mark (the first line for none: libyaml gives every event one)."""
        if mark is None:
            return 1
        if not self.plain:
            return self.at(mark.index)
        line = mark.line + 1
        return line if line <= self._last else max(1, self._last)


def _decode(loaded: Loaded, data: bytes) -> str | None:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        _error(
            loaded,
            line,
            f"not UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded; save the file as UTF-8",
            code="Y002",
        )
        return None
    # A BOM is harmless to YAML once removed; CRLF line ends are read as LF by the parser.
    return text.removeprefix("\ufeff")


STR_TAG = "tag:yaml.org,2002:str"
#: YAML's own rules for plain scalars (``4`` is a number, ``yes`` a boolean): the safe loader's.
RESOLVER = yaml.resolver.Resolver()


#: First characters of plain scalars YAML may read as something other than text.
_TYPED_FIRST = frozenset(k for k in RESOLVER.yaml_implicit_resolvers if k is not None)
_ANY_FIRST = None in RESOLVER.yaml_implicit_resolvers


def _scalar_tag(event: yaml.ScalarEvent) -> str:
    """The tag of a scalar, as composing would resolve it."""
    tag = event.tag
    if tag is not None and tag != "!":
        return tag
    value = event.value
    if not event.implicit[0] or (value and value[0] not in _TYPED_FIRST and not _ANY_FIRST):
        return STR_TAG  # quoted, or plain text that no implicit type starts with (the resolver's own test)
    resolved: str = RESOLVER.resolve(yaml.ScalarNode, value, event.implicit)
    return resolved


def _mark(mark: AnyMark | None) -> yaml.Mark | None:
    """A mark as PyYAML's error classes take it (libyaml's marks are of another class, with the
    same name, index, line and column; neither has the text, so messages are the same)."""
    if mark is None or isinstance(mark, yaml.Mark):
        return mark
    return yaml.Mark(mark.name, mark.index, mark.line, mark.column, None, 0)


class _Alias(Exception):
    """The file uses an alias (``*name``)."""


class _Builder:
    """Plain values from libyaml's event stream, the line of every value noted on the way.

    Events, not a composed node graph: a terms file is built in one pass without a node
    object per value (half the time of composing and then walking the nodes).
    """

    def __init__(self, loaded: Loaded, lines: Lines, events: Iterator[yaml.Event]):
        self.loaded = loaded
        self.lines = lines
        self.events = events
        self.constructor = yaml.constructor.SafeConstructor()
        #: Anchors seen (harmless without an alias, but given twice they are an error, as composing says).
        self.anchors: dict[str, AnyMark | None] = {}

    def document(self) -> object:
        """The stream's single document, built; ``EMPTY`` when the stream has none."""
        next(self.events)  # StreamStartEvent
        start = next(self.events)
        if isinstance(start, yaml.StreamEndEvent):
            return EMPTY
        root = next(self.events)
        data = self.build(root, ())
        next(self.events)  # DocumentEndEvent
        after = next(self.events)
        if not isinstance(after, yaml.StreamEndEvent):
            raise yaml.composer.ComposerError(
                "expected a single document in the stream",
                _mark(root.start_mark),
                "but found another document",
                _mark(after.start_mark),
            )
        return data

    def anchor(self, name: str, event: yaml.NodeEvent) -> None:
        if name in self.anchors:
            raise yaml.composer.ComposerError(
                "found duplicate anchor; first occurrence",
                _mark(self.anchors[name]),
                "second occurrence",
                _mark(event.start_mark),
            )
        self.anchors[name] = event.start_mark

    def build(self, start: yaml.Event, path: PathKey) -> object:
        if isinstance(start, yaml.AliasEvent):
            raise _Alias
        # By YAML's grammar a value starts with a scalar, a mapping or a list (or an alias).
        event: ValueStart = start  # type: ignore[assignment]
        if event.anchor is not None:
            self.anchor(event.anchor, event)
        line = self.lines.of(event.start_mark)
        self.loaded.lines[path] = line
        tag = event.tag
        if type(event) is yaml.ScalarEvent:
            tag = _scalar_tag(event)
            if tag == STR_TAG:
                return event.value  # most of a terms file: text needs no constructor
        elif tag is None or tag == "!":
            kind = (
                yaml.MappingNode if isinstance(event, yaml.MappingStartEvent) else yaml.SequenceNode
            )
            tag = RESOLVER.resolve(kind, None, event.implicit)
        if tag not in KIND_TAGS[type(event)]:
            short = tag.replace("tag:yaml.org,2002:", "!!")
            message = (
                f"YAML tag {short} cannot tag {KIND_NAMES[type(event)]}"
                if tag in STANDARD_TAGS
                else f"unsupported YAML tag {short}"
            )
            _error(self.loaded, line, message, path, code="Y010")
            self.loaded.voided.add(path)
            self.skip(event, anchored=True)
            return None
        if len(path) >= MAX_DEPTH:
            # A terms file nests a few levels; thousands would exhaust every recursive step after this.
            _error(
                self.loaded,
                line,
                f"nested more than {MAX_DEPTH} levels deep: not a terms file's shape",
                path,
                code="Y006",
            )
            self.loaded.voided.add(path)
            self.skip(event, anchored=True)
            return None
        if isinstance(event, yaml.MappingStartEvent):
            return self.mapping(path)
        if isinstance(event, yaml.SequenceStartEvent):
            items: list[object] = []
            while not isinstance(item := next(self.events), yaml.SequenceEndEvent):
                items.append(self.build(item, path + (len(items),)))
            return items
        node = yaml.ScalarNode(
            tag,
            event.value,
            event.start_mark,  # type: ignore[arg-type]  # libyaml's marks serve PyYAML's nodes
            event.end_mark,  # type: ignore[arg-type]  # as its own do; the stubs name yaml.Mark only
            event.style,
        )
        try:
            return self.constructor.construct_object(node, deep=True)
        except Exception as exc:  # noqa: BLE001 - PyYAML's constructors raise ValueError, KeyError,
            # AttributeError … for values such as 2001-02-30 or `!!bool maybe`: all are bad data here.
            shown = (
                repr(event.value)
                if len(event.value) <= 60
                else f"{event.value[:60]!r}…({len(event.value):,} characters)"
            )
            reason = str(getattr(exc, "problem", None) or exc)
            if len(event.value) > 60 and event.value.isdigit():
                reason = "a number too long to read (put it in quotes to make it text)"
            _error(self.loaded, line, f"bad value {shown}: {reason}", path, code="Y010")
            self.loaded.voided.add(path)
            return None

    def mapping(self, path: PathKey) -> dict[object, object]:
        result: dict[object, object] = {}
        first_line: dict[object, int] = {}
        while not isinstance(key_event := next(self.events), yaml.MappingEndEvent):
            if type(key_event) is not yaml.ScalarEvent:
                if isinstance(key_event, yaml.AliasEvent):
                    raise _Alias
                _error(
                    self.loaded,
                    self.lines.of(key_event.start_mark),
                    "mapping keys must be plain text",
                    path,
                    code="Y009",
                    suppress=False,
                )
                self.skip(key_event)
                self.skip(next(self.events))
                continue
            key = self.build(key_event, path + ("<key>",))
            key_line = self.lines.of(key_event.start_mark)
            if key in first_line:
                _error(
                    self.loaded,
                    key_line,
                    f"duplicate key {key!r} (first given on line {first_line[key]})",
                    path + (key,),
                    code="Y008",
                )
                self.skip(next(self.events))
                continue
            first_line[key] = key_line
            result[key] = self.build(next(self.events), path + (key,))
        return result

    def skip(self, event: yaml.Event, anchored: bool = False) -> None:
        """Pass over the value ``event`` opens (an alias inside still refuses the file).

        ``anchored``: the anchor of ``event`` itself is already noted.
        """
        depth = 0
        while True:
            if isinstance(event, yaml.AliasEvent):
                raise _Alias
            if isinstance(event, yaml.NodeEvent) and event.anchor is not None and not anchored:
                self.anchor(event.anchor, event)
            anchored = False
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            if depth == 0:
                return
            event = next(self.events)


#: What :meth:`_Builder.document` returns for a stream without a document.
EMPTY = object()


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


def load_yaml(path: Path | str, display: str | None = None, base: Path | None = None) -> Loaded:
    """Load a YAML file safely; problems are collected, never raised.

    Never through a symbolic link (a pull request could link ``plan.yaml`` to any file): the
    file, and every folder on its way below ``base`` (default: the current folder), must be real.
    """
    path = Path(path)
    try:
        raw = read_bounded(path, MAX_BYTES, links=False, base=base)
    except OSError as exc:
        loaded = Loaded(file=display or str(path))
        _error(loaded, 0, f"cannot read: {exc.strerror}", code="Y001")
        return loaded
    except UnreadableFile as exc:
        loaded = Loaded(file=display or str(path))
        _error(loaded, 0, f"cannot read: {exc}", code="Y001")
        return loaded
    return load_bytes(raw, display or str(path))


def load_bytes(raw: bytes, display: str) -> Loaded:
    """Load YAML text (``display`` names it in problems) as :func:`load_yaml` loads a file."""
    loaded = Loaded(file=display)
    text = _decode(loaded, raw)
    if text is None:
        return loaded
    lines_of = Lines(text)
    for match in re.finditer("[\u2028\u2029\x85]", text):
        _error(
            loaded,
            lines_of.at(match.start()),
            f"U+{ord(match.group()):04X} ({UNUSUAL_BREAKS[match.group()]}) is a line break to YAML but not to "
            "editors: replace it with a newline",
            code="Y004",
        )
    if loaded.problems:
        return loaded
    built = Loaded(file=loaded.file, problems=list(loaded.problems))
    try:
        with nogc.paused():
            try:
                built.data = _Builder(built, lines_of, yaml.parse(text, Loader=LOADER)).document()
            except _Alias:
                # Refuse the file outright: an alias bomb must not be expanded by anything downstream.
                # Composing first (linear: an alias is a second reference, not a copy) raises what is
                # wrong beyond the alias to the handlers below: an undefined alias, a later syntax error.
                yaml.compose(text, Loader=LOADER)
                aliases = [
                    lines_of.at(e.start_mark.index) if e.start_mark else 1
                    for e in yaml.parse(text, Loader=LOADER)
                    if isinstance(e, yaml.AliasEvent)
                ]
                more = f" (and {len(aliases) - 1} more)" if len(aliases) > 1 else ""
                _error(
                    loaded,
                    aliases[0],
                    f"YAML aliases (*name) are not allowed in a terms file{more}",
                    code="Y005",
                )
                return loaded
    except yaml.YAMLError as exc:
        _syntax_error(loaded, exc, text, lines_of)
        return loaded
    except RecursionError:
        _error(loaded, 1, "YAML nested too deeply to be a terms file", code="Y006")
        return loaded
    if built.data is EMPTY:
        _error(loaded, 1, "the file holds no entries (it is empty or only comments)", code="Y007")
        return loaded
    loaded = built
    for i, path in loaded.pending:
        problem = loaded.problems[i]
        loaded.problems[i] = Problem(
            problem.file,
            problem.line,
            render_path(loaded.data, path),
            ERROR,
            problem.message,
            code=problem.code,
        )
    return loaded


def _syntax_error(loaded: Loaded, exc: yaml.YAMLError, text: str, lines_of: Lines) -> None:
    """A YAML error, at its line as editors count lines."""
    if isinstance(exc, yaml.MarkedYAMLError):
        # In plain words, at the line that is wrong (glossary.syntax), not the parser's jargon.
        from glossary.syntax import explain

        line, path, message = explain(exc, text, lines_of.at)
        loaded.problems.append(Problem(loaded.file, line, path, ERROR, message, code="Y003"))
    elif isinstance(exc, yaml.reader.ReaderError):
        # Control characters: the reader knows the character's position, not its line
        # (libyaml counts UTF-8 bytes, PyYAML's own reader characters).
        position = exc.position
        if LOADER is not yaml.SafeLoader:
            position = len(text.encode("utf-8")[:position].decode("utf-8", "ignore"))
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        _error(
            loaded,
            lines_of.at(position),
            f"character U+{code:04X} is not allowed in YAML ({exc.reason})",
            code="Y003",
        )
    else:
        _error(loaded, 1, f"YAML error: {exc}", code="Y003")
