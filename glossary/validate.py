"""Validation of a loaded terms file: schema, then cross-entry rules.

The JSON Schema shipped in ``schema/terms.schema.json`` is the single source of
truth for fields and types; its errors are placed at the line of the offending
node and phrased for contributors (unknown fields get a did-you-mean).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import jsonschema_rs

from glossary.corpus.numerals import parse_number
from glossary.load import Loaded, PathKey, load_yaml, render_path
from glossary.model import Citation, Entry
from glossary.problems import ERROR, Problem
from glossary.schema import SCHEMAS, fields_of, schema
from glossary.vocab import Rite, vocabulary

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

MEDIA = "media"
#: What ``glossary new`` writes where a person must write: the word, and the scaffold's prompts.
PLACEHOLDER = "TODO"
SCAFFOLD = {
    "gloss": f"{PLACEHOLDER} short English gloss",
    "definition": f"{PLACEHOLDER}: what the cited passages say, naming who says it",
    "definition_zh": PLACEHOLDER,
    "rite": PLACEHOLDER,
    "quote": f"{PLACEHOLDER} a passage that `glossary locate` finds",
}
#: The word, or one of the scaffold's prompts left after the word was deleted: one search per value.
_PLACEHOLDER_TEXT = re.compile(
    "|".join(
        [rf"(?-i:\b{PLACEHOLDER}\b)"]
        + [
            re.escape(text.removeprefix(PLACEHOLDER).lstrip(": "))
            for text in SCAFFOLD.values()
            if text != PLACEHOLDER
        ]
    ),
    re.I,
)


def is_placeholder(value: object) -> bool:
    """Whether a value is (or still holds) what the scaffold of ``glossary new`` put there."""
    return isinstance(value, str) and _PLACEHOLDER_TEXT.search(value) is not None


TYPE_NAMES = {
    dict: "a mapping",
    list: "a list",
    str: "text",
    int: "a number",
    float: "a number",
    bool: "true/false",
}


@cache
def validator(name: str) -> Draft202012Validator:
    """A validator for a shipped schema, resolving references between the shipped schemas."""
    # Imported here: only a file with errors needs jsonschema (a tenth of `check`'s start-up).
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Registry = Registry().with_resources(
        (schema(other)["$id"], Resource.from_contents(schema(other))) for other in SCHEMAS
    )
    return Draft202012Validator(schema(name), registry=registry)


@cache
def fast_validator(name: str) -> jsonschema_rs.Validator:
    """The same schema compiled by jsonschema-rs: answers "is it valid?" a hundred times faster."""
    registry = jsonschema_rs.Registry([(schema(other)["$id"], schema(other)) for other in SCHEMAS])
    return jsonschema_rs.validator_for(schema(name), registry=registry, offline=True)


def _valid(data: object, name: str) -> bool:
    try:
        return fast_validator(name).is_valid(data)
    except Exception:  # noqa: BLE001 - values JSON has no type for (a YAML date), depths it refuses:
        return False  # jsonschema judges those and says where


def did_you_mean(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """`` (did you mean 'gloss'?)`` or ''."""
    from rapidfuzz import fuzz, process  # only a file with a mistake needs it

    best = process.extractOne(word, choices, scorer=fuzz.ratio, score_cutoff=60)
    return f" (did you mean {best[0]!r}?)" if best else ""


def _short(value: object) -> str:
    """A value as a message shows it, bounded however long it is (a 10-million-digit number)."""
    try:
        return json.dumps(value, ensure_ascii=False, default=str)[:60]
    except ValueError:  # an integer past Python's digit limit for str(): it needs no digits shown
        return "a number too long to show" if isinstance(value, int) else _describe(value)


def _describe(value: object) -> str:
    return "nothing" if value is None else TYPE_NAMES.get(type(value), type(value).__name__)


def schema_problems(
    loaded: Loaded, name: str = "terms.schema.json"
) -> list[tuple[PathKey, Problem]]:
    """Schema errors of a loaded file, phrased for contributors, at their lines."""
    problems: dict[Problem, PathKey] = {}
    if _valid(loaded.data, name):
        return []
    # Only a file with errors pays for jsonschema, whose errors carry what the messages need.
    for error in validator(name).iter_errors(loaded.data):
        if tuple(error.absolute_path) in loaded.reported:
            continue
        for path, message in _phrase(error):
            line = loaded.line_of(path)
            # jsonschema reports `required` once per missing field, each listing all of them.
            problems.setdefault(
                Problem(loaded.file, line, render_path(loaded.data, path), ERROR, message), path
            )
    return [(path, problem) for problem, path in sorted(problems.items())]


def _phrase(error: ValidationError) -> list[tuple[PathKey, str]]:
    path = tuple(error.absolute_path)
    value = error.instance
    if error.validator == "additionalProperties":
        known = tuple(error.schema.get("properties", {}))
        extra = [k for k in value if k not in known]
        return [
            (
                path + (k,),
                f"unknown field {k!r}{_misplaced(path, str(k)) or did_you_mean(str(k), known)}",
            )
            for k in extra
        ]
    if error.validator == "required":
        missing = [k for k in error.validator_value if k not in value]
        return [(path, f"missing field {k!r}") for k in missing]
    if error.validator == "type":
        expected = error.validator_value
        expected = expected if isinstance(expected, list) else [expected]
        names = {
            "object": "a mapping",
            "array": "a list",
            "string": "text",
            "integer": "a whole number",
        }
        wanted = " or ".join(names.get(t, t) for t in expected)
        shown = (
            f"{_describe(value)}: {_short(value)}"
            if not isinstance(value, dict)
            else _describe(value)
        )
        hint = ""
        if isinstance(value, bool) and "string" in expected:
            hint = " (YAML reads yes, no, on, off, true and false as true/false: put the text in quotes, e.g. 'no')"
        elif isinstance(value, (int, float)) and "string" in expected:
            hint = " (put it in quotes to make it text)"
        return [(path, f"expected {wanted}, got {shown}{hint}")]
    if error.validator == "enum":
        options = ", ".join(map(str, error.validator_value))
        hint = did_you_mean(str(value), [str(v) for v in error.validator_value])
        return [(path, f"{value!r} is not one of: {options}{hint}")]
    if error.validator == "pattern" and (
        (path and path[-1] == "id") or error.validator_value == schema()["$defs"]["slug"]["pattern"]
    ):
        return [
            (
                path,
                f"id {value!r} must be lowercase letters and digits joined by hyphens (e.g. 'si-she')",
            )
        ]
    if error.validator == "pattern" and len(path) >= 2 and path[-2] == "tags":
        return [
            (
                path,
                f"tag {value!r} may hold only letters, digits, '_', ':', '.' and '-' (no spaces)",
            )
        ]
    if error.validator in ("minLength", "pattern") and isinstance(value, str) and not value.strip():
        return [(path, "must not be empty")]
    if error.validator == "minItems":
        return [(path, f"needs at least {error.validator_value} item(s)")]
    # Bounds: say how long the value is, never echo it (it may be megabytes).
    if error.validator == "maxLength" and isinstance(value, str):
        return [
            (
                path,
                f"{len(value):,} characters, more than the {error.validator_value:,} allowed here",
            )
        ]
    if error.validator == "maxItems" and isinstance(value, list):
        return [
            (path, f"{len(value):,} items, more than the {error.validator_value:,} allowed here")
        ]
    if error.validator in ("minimum", "maximum") and isinstance(value, (int, float)):
        return [(path, f"{value} is outside the plan ({error.validator} {error.validator_value})")]
    if error.validator == "uniqueItems":
        return [(path, "lists the same item twice")]
    return [(path, error.message)]


def _misplaced(path: PathKey, key: str) -> str:
    """Why a field a file knows elsewhere is here: indented into a citation, or out of one."""
    in_citation = len(path) >= 2 and path[-2] == "citations"
    if in_citation and key in fields_of("entry"):
        return (
            f" (`{key}` is indented as if it belonged to the citation above: an entry's fields line up "
            "under `id:`, 2 spaces)"
        )
    if len(path) == 1 and key in fields_of("citation"):
        return (
            f" (`{key}` is a citation's field: indent it under the citation's `quote:`, 6 spaces)"
        )
    return ""


def _as_str(value: object) -> str | None:
    return None if value is None else str(value)


#: How a citation's fields become the model's values (the rest are kept as given).
CITATION_VALUES = {
    "juan": lambda value: parse_number(str(value)),
    "page": _as_str,
}


def citation_from(loaded: Loaded, path: PathKey, raw: dict) -> Citation:
    """A citation as the model holds it, with the line of each field."""
    values = {
        name: CITATION_VALUES[name](raw[name]) if name in CITATION_VALUES else raw[name]
        for name in fields_of("citation")
        if name in raw
    }
    return Citation(
        **values,
        line=loaded.line_of(path + ("quote",)),
        lines=tuple((name, loaded.line_of(path + (name,))) for name in raw),
    )


def resolve_rites(
    loaded: Loaded, path: PathKey, names: object, problems: list[Problem]
) -> tuple[Rite, ...]:
    """The rites a list of names refers to; an unknown name is a problem at its line."""
    vocab = vocabulary()
    rites = []
    for i, name in enumerate(names if isinstance(names, list) else ()):
        rite = vocab.rite(name) if isinstance(name, str) else None
        if rite is None:
            if isinstance(name, str) and not is_placeholder(name):  # a placeholder is said once
                item = path + (i,)
                problems.append(
                    Problem(
                        loaded.file,
                        loaded.line_of(item),
                        render_path(loaded.data, item),
                        ERROR,
                        f"unknown rite {name!r}{did_you_mean(name, vocab.rite_names)}",
                    )
                )
        elif rite not in rites:
            rites.append(rite)
    return tuple(rites)


def _entry(loaded: Loaded, index: int, raw: dict, problems: list[Problem]) -> Entry:
    values: dict[str, object] = {}
    for name in fields_of("entry"):
        if name not in raw:
            continue
        value = raw[name]
        if name == "rites":
            value = resolve_rites(loaded, (index, name), value, problems)
        elif name == "citations":
            value = tuple(citation_from(loaded, (index, name, i), c) for i, c in enumerate(value))
        elif isinstance(value, list):
            value = tuple(value)
        values[name] = value
    return Entry(
        **values,
        line=loaded.line_of((index,)),
        lines=tuple((name, loaded.line_of((index, name))) for name in raw),
    )


def validate(loaded: Loaded, base: Path) -> tuple[list[Entry], list[Problem]]:
    """Entries that passed the schema, and every problem found (schema and cross-entry)."""
    if loaded.data is None:
        return [], []
    problems: list[Problem] = []
    broken: set[int] = set()
    if isinstance(loaded.data, list) and len(loaded.data) > schema()["maxItems"]:
        # One problem, not one per entry: a million copied entries must not take minutes to list.
        count = len(loaded.data)
        return [], [
            Problem(
                loaded.file,
                1,
                "",
                ERROR,
                f"{count:,} entries, more than the {schema()['maxItems']:,} a terms file may hold",
            )
        ]
    if (problem := citation_count_problem(loaded)) is not None:
        return [], [problem]
    #: Values already reported (too long, invisible characters): not looked at again below.
    flagged: set[PathKey] = set()
    for path, problem in [*schema_problems(loaded), *text_problems(loaded)]:
        problems.append(problem)
        flagged.add(path)
        if path and isinstance(path[0], int):
            broken.add(path[0])
    if not isinstance(loaded.data, list):
        return [], problems
    data: list = loaded.data
    # An entry with a value the loader refused (a tag, a bad date) holds None there: not buildable.
    broken.update(path[0] for path in loaded.voided if path and isinstance(path[0], int))

    def add(path: PathKey, message: str) -> None:
        problems.append(
            Problem(loaded.file, loaded.line_of(path), render_path(data, path), ERROR, message)
        )

    first_line: dict[str, int] = {}
    for index, raw in enumerate(data):
        ident = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(ident, str):
            continue
        if ident in first_line:
            add((index, "id"), f"duplicate id {ident!r} (first used on line {first_line[ident]})")
            broken.add(index)
        else:
            first_line[ident] = loaded.line_of((index, "id"))
    media_names: dict[str, str] = {}
    known_ids = list(first_line)
    # One suggestion per unknown id, however often it is named (copied entries repeat them).
    hints: dict[str, str] = {}
    for index, raw in enumerate(data):
        if not isinstance(raw, dict):
            continue
        for i, target in enumerate(_list(raw, "related")):
            if not isinstance(target, str):
                continue
            if target == raw.get("id"):
                add((index, "related", i), "an entry cannot be related to itself")
            elif target not in first_line:
                if target not in hints:
                    hints[target] = did_you_mean(target, known_ids)
                add((index, "related", i), f"unknown id {target!r}{hints[target]}")
        for i, name in enumerate(_list(raw, "media")):
            if (index, "media", i) in flagged:
                continue
            if isinstance(name, str) and (message := check_media_path(name, base)):
                add((index, "media", i), message)
            elif isinstance(name, str):
                # Anki keeps media by bare file name: two paths with one name would overwrite each other.
                bare = PurePosixPath(name).name
                if bare in media_names and media_names[bare] != name:
                    add(
                        (index, "media", i),
                        f"media file name {bare!r} is already used by {media_names[bare]!r}",
                    )
                media_names.setdefault(bare, name)
        for i, citation in enumerate(_list(raw, "citations")):
            juan = citation.get("juan") if isinstance(citation, dict) else None
            if juan is not None and not isinstance(juan, bool) and parse_number(str(juan)) is None:
                add(
                    (index, "citations", i, "juan"),
                    f"{juan!r} is not a 卷 number (write 4 or 卷四)",
                )
                broken.add(index)
    for path in _placeholders(data):
        add(
            path,
            f"still the scaffold's placeholder ({PLACEHOLDER} …): write it, or leave the field out "
            "if it is optional",
        )
    entries = [
        _entry(loaded, index, raw, problems)
        for index, raw in enumerate(data)
        if index not in broken and isinstance(raw, dict)
    ]
    return entries, problems


#: Citations a terms file may hold in all (the shipped one has about 3,000): each may stand at up
#: to 50 places (citations.MAX_PLACES), and every place is carried to every output.
MAX_CITATIONS = 20_000


def citation_count_problem(loaded: Loaded) -> Problem | None:
    """One problem when the file's citations are more than :data:`MAX_CITATIONS` in all."""
    data = loaded.data if isinstance(loaded.data, list) else []
    count = sum(
        len(raw["citations"])
        for raw in data
        if isinstance(raw, dict) and isinstance(raw.get("citations"), list)
    )
    if count <= MAX_CITATIONS:
        return None
    return Problem(
        loaded.file,
        1,
        "",
        ERROR,
        f"{count:,} citations in all, more than the {MAX_CITATIONS:,} a terms file may hold",
    )


def _placeholders(data: list) -> list[PathKey]:
    """Where an entry still holds a placeholder of the scaffold, in file order."""
    found: list[PathKey] = []
    for index, raw in enumerate(data):
        if _any_text(raw, is_placeholder):  # nearly every entry has none: no paths built
            found.extend(path for path, text in _texts_at(raw, (index,)) if is_placeholder(text))
    return found


def load_entries(path: Path) -> tuple[list[Entry], list[Problem]]:
    """The valid entries of a terms file, and every problem its loading and validation found."""
    loaded = load_yaml(path)
    entries, problems = validate(loaded, path.parent)
    return entries, sorted([*loaded.problems, *problems])


def _list(raw: dict, name: str) -> list:
    """A list field's items; anything else the schema has already reported."""
    value = raw.get(name)
    return value if isinstance(value, list) else []


#: Media file names Anki keeps and references safely (no quotes, brackets, ampersands or spaces).
MEDIA_NAME = re.compile(r"[\w][\w.-]*")


def check_media_path(name: str, base: Path) -> str | None:
    """Why a media path is refused, or None: relative, inside media/ (no symbolic links on the
    way), a safe file name, and a regular file."""
    posix = PurePosixPath(name)
    if (
        posix.is_absolute()
        or "\\" in name
        or ".." in posix.parts
        or not posix.parts
        or posix.parts[0] != MEDIA
    ):
        return f"media path {name!r} must be a relative path inside {MEDIA}/"
    if not MEDIA_NAME.fullmatch(posix.name):
        return (
            f"media file name {posix.name!r} may hold only letters, digits, '.', '_' and '-' "
            "(Anki refers to media by bare name)"
        )
    # Every step is looked at: a symbolic link (media/ itself included) could lead anywhere.
    step = base
    for part in posix.parts:
        step = step / part
        try:
            if step.is_symlink():
                return f"media path {name!r}: {step.relative_to(base)} is a symbolic link (not allowed)"
        except OSError as exc:
            return f"media path {name!r}: {exc.strerror}"
    try:
        if not step.is_file():
            return f"media file {name!r} does not exist"
    except OSError as exc:
        return f"media path {name!r}: {exc.strerror}"
    return None


#: Control, bidirectional and other invisible format characters: refused in every text field,
#: since they would reach the printed book, the cards and terminals unseen. (Variation
#: selectors, which pick a CJK glyph, are marks, not format characters, and stay allowed.)
def _invisible(text: str) -> str | None:
    if text.isprintable():
        return None  # nearly every value: no character of those categories (nor any but ' ' of Z*)
    for ch in text:
        if ch in "\n\t":
            continue
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs"):
            return ch
    return None


def _any_invisible(data: object) -> bool:
    """Whether any text value or key in ``data`` holds an invisible character (no paths built)."""
    return _any_text(data, lambda value: not value.isprintable() and _invisible(value) is not None)


def _any_text(data: object, test: Callable[[str], bool]) -> bool:
    """Whether ``test`` holds for any text value or key in ``data`` (a scan that builds no paths)."""
    stack = [data]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is str:
            if test(value):  # type: ignore[arg-type]
                return True
        elif kind is dict:
            stack.extend(value)  # type: ignore[arg-type]
            stack.extend(value.values())  # type: ignore[union-attr]
        elif kind is list:
            stack.extend(value)  # type: ignore[arg-type]
    return False


def text_problems(loaded: Loaded) -> list[tuple[PathKey, Problem]]:
    """A problem for every text value (or key) holding a control, bidi or other invisible character."""
    found: list[tuple[PathKey, Problem]] = []
    if not _any_invisible(loaded.data):
        return found  # nearly every file: no path needs building
    for path, text in _texts_at(loaded.data, (), keys=True):
        if (ch := _invisible(text)) is not None:
            name = unicodedata.name(ch, "a control character")
            found.append(
                (
                    path,
                    Problem(
                        loaded.file,
                        loaded.line_of(path),
                        render_path(loaded.data, path),
                        ERROR,
                        f"holds U+{ord(ch):04X} ({name}), an invisible character: remove it",
                    ),
                )
            )
    return found


def _texts_at(value: object, path: PathKey, keys: bool = False) -> Iterator[tuple[PathKey, str]]:
    """Every text value in ``value`` with its data path, in file order (``keys``: a mapping's keys
    too, at the mapping's own path)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            if keys:
                yield from _texts_at(key, path, keys)
            yield from _texts_at(item, path + (key,), keys)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _texts_at(item, path + (i,), keys)
