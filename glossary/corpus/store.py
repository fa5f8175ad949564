"""A read corpus as plain JSON data and back: how the cache keeps an index (glossary.cache).

Each object is a list of its fields' values, in the order of the dataclass's fields, and is
made again by its constructor: the data names no class and no code. Arrays are base64 text; the
runs of all offset maps share one array (a map is its start there, its run count and length). A value of a type this module does not know fails the writing (a TypeError, which
the tests meet), never a silent miss; data of another shape fails the reading (a ValueError,
TypeError, KeyError or IndexError: the cache then reads the corpus again).
"""

from __future__ import annotations

from array import array
from binascii import a2b_base64, b2a_base64
from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from glossary.corpus.model import CorpusWarning, Document, Stream, TextInfo
from glossary.offsets import OffsetMap

if TYPE_CHECKING:
    from glossary.corpus import Corpus


class Packer:
    """Turns values into JSON data; the offset maps' runs go to :attr:`runs`."""

    def __init__(self) -> None:
        self.runs = array("Q")

    def plain(self, value: object) -> object:
        """``value`` as JSON data: text, numbers, None and lists."""
        if value is None or isinstance(value, (str, int, float)):
            return value
        if isinstance(value, (tuple, list)):
            return [self.plain(v) for v in value]
        if isinstance(value, OffsetMap):
            runs, count, length = value.packed()
            start = len(self.runs)
            self.runs.frombytes(runs)
            return [start, count, length]
        if isinstance(value, array):
            return [value.typecode, b2a_base64(value.tobytes(), newline=False).decode("ascii")]
        if isinstance(value, (Stream, CorpusWarning)):
            return self.row(value)
        raise TypeError(
            f"a {type(value).__name__} cannot be kept with a corpus index (corpus/store.py)"
        )

    def row(self, value: object, **given: object) -> list[object]:
        """A dataclass instance as the list of its fields' values (``given``: some already made)."""
        return [
            given[name] if name in given else self.plain(getattr(value, name))
            for name in _names(type(value))
        ]


class Unpacker:
    """Makes values again from :class:`Packer`'s data and its runs."""

    def __init__(self, runs: Any) -> None:
        self.runs = packed_array(runs)
        if self.runs.typecode != "Q":
            raise ValueError("not the runs of offset maps")

    def offset_map(self, data: Any) -> OffsetMap:
        """An :class:`OffsetMap` from what :meth:`Packer.plain` made of it."""
        start, count, length = data
        if not isinstance(start, int) or not isinstance(count, int) or start < 0:
            raise ValueError("not an offset map")
        runs = self.runs[start : start + 2 * count]
        return OffsetMap.unpacked(runs, count, length)


def packed_array(data: Any) -> array:
    """An ``array`` from what :meth:`Packer.plain` made of it."""
    typecode, text = data
    values = array(typecode)
    values.frombytes(a2b_base64(text, strict_mode=True))
    return values


def corpus_data(corpus: Corpus, packer: Packer) -> dict[str, object]:
    """A :class:`~glossary.corpus.Corpus` as JSON data (a document names its text by number)."""
    texts = corpus.texts
    number = {id(info): i for i, info in enumerate(texts)}
    return {
        "texts": [packer.row(info) for info in texts],
        "documents": [
            packer.row(doc, text_info=number[id(doc.text_info)]) for doc in corpus.documents
        ],
    }


def corpus_from(data: Any, unpacker: Unpacker) -> Corpus:
    """The :class:`~glossary.corpus.Corpus` :func:`corpus_data` describes."""
    from glossary.corpus import Corpus

    texts: tuple[TextInfo, ...] = tuple(_made(TextInfo, row) for row in data["texts"])

    def text(i: Any) -> TextInfo:
        if not isinstance(i, int) or i < 0:
            raise ValueError(f"no text {i!r}")
        return texts[i]

    def streams(rows: Any) -> tuple[Stream, ...]:
        return tuple(_made(Stream, row, offsets=unpacker.offset_map) for row in rows)

    def warnings(rows: Any) -> tuple[CorpusWarning, ...]:
        return tuple(_made(CorpusWarning, row) for row in rows)

    documents: tuple[Document, ...] = tuple(
        _made(
            Document,
            row,
            text_info=text,
            streams=streams,
            warnings=warnings,
            line_starts=packed_array,
        )
        for row in data["documents"]
    )
    return Corpus(texts, documents)


def _made(kind: type[Any], row: Any, **special: Callable[[Any], object]) -> Any:
    names = _names(kind)
    if not isinstance(row, list) or len(row) != len(names):
        raise ValueError(f"not a {kind.__name__}")
    return kind(
        *[special[name](v) if name in special else _tuples(v) for name, v in zip(names, row)]
    )


_NAMES: dict[type[Any], tuple[str, ...]] = {}


def _names(kind: type[Any]) -> tuple[str, ...]:
    if kind not in _NAMES:
        _NAMES[kind] = tuple(f.name for f in fields(kind))
    return _NAMES[kind]


def _tuples(value: object) -> object:
    """JSON's lists as the model's tuples, all the way down."""
    if type(value) is not list:
        return value
    return tuple([_tuples(v) if type(v) is list else v for v in value])
