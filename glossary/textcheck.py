"""What no text value of a user's file may hold: the placeholders of ``glossary new``'s scaffold,
and invisible characters (control, bidirectional and other format characters)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

from glossary.load import Loaded, PathKey, render_path
from glossary.problems import ERROR, Problem, printable

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


def placeholder_paths(data: list) -> list[PathKey]:
    """Where an entry still holds a placeholder of the scaffold, in file order."""
    found: list[PathKey] = []
    for index, raw in enumerate(data):
        if _any_text(raw, is_placeholder):  # nearly every entry has none: no paths built
            found.extend(path for path, text in _texts_at(raw, (index,)) if is_placeholder(text))
    return found


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


#: Characters that show nothing though Unicode calls them letters or symbols: the Hangul
#: fillers, the braille blank. (Combining marks alone show nothing either: see :func:`_blank`.)
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _blank(text: str) -> bool:
    """Whether ``text`` has characters but would print as nothing: only spaces, fillers, braille
    blanks and combining marks with nothing to combine with. (Spaces alone are the schema's to
    refuse, where a field needs text.)"""
    first = text[:1]
    if first.isalnum() and first not in BLANK_LOOKING:
        return False  # nearly every value: a letter or digit is never a mark or format character
    seen = False
    for ch in text:
        if ch in BLANK_LOOKING or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            seen = True
        elif not ch.isspace():
            return False
    return seen


def _any_invisible(data: object) -> bool:
    """Whether any text value or key in ``data`` holds an invisible character or prints blank
    (no paths built)."""
    return _any_text(
        data,
        lambda value: (not value.isprintable() and _invisible(value) is not None) or _blank(value),
    )


def _any_text(data: object, test: Callable[[str], bool]) -> bool:
    """Whether ``test`` holds for any text value or key in ``data`` (a scan that builds no paths)."""
    # Plain values of any shape; `type(…) is` rather than isinstance, as fast as the scan needs.
    stack: list[Any] = [data]
    while stack:
        value = stack.pop()
        kind = type(value)
        if kind is str:
            if test(value):
                return True
        elif kind is dict:
            stack.extend(value)
            stack.extend(value.values())
        elif kind is list:
            stack.extend(value)
    return False


def text_problems(loaded: Loaded) -> list[tuple[PathKey, Problem]]:
    """A problem for every text value (or key) holding a control, bidi or other invisible
    character, or printing as nothing (:func:`_blank`)."""
    found: list[tuple[PathKey, Problem]] = []
    if not _any_invisible(loaded.data):
        return found  # nearly every file: no path needs building
    for path, text in _texts_at(loaded.data, (), keys=True):
        if (ch := _invisible(text)) is not None:
            name = unicodedata.name(ch, "a control character")
            code, message = (
                "Y114",
                f"holds U+{ord(ch):04X} ({name}), an invisible character: remove it",
            )
        elif _blank(text):
            shown = ", ".join(
                f"U+{ord(c):04X} ({unicodedata.name(c, '?')})"
                for c in dict.fromkeys(c for c in text if not c.isspace())
            )
            code, message = (
                "Y115",
                f"prints as nothing (only {printable(shown, 200)}): write the text",
            )
        else:
            continue
        found.append(
            (
                path,
                Problem(
                    loaded.file,
                    loaded.line_of(path),
                    render_path(loaded.data, path),
                    ERROR,
                    message,
                    code=code,
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
