"""Position maps stored as runs: index i of a derived text → position in its source.

Streams and normalised keys are long runs of consecutive source positions broken by
markup and punctuation; storing the runs instead of one number per character keeps a
corpus of millions of characters small.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator


class OffsetMap:
    """An immutable sequence of increasing positions, kept as runs [start, end)."""

    __slots__ = ("_firsts", "_starts", "_length")

    def __init__(self, runs: Iterable[tuple[int, int]]):
        self._firsts = array("Q")  # index of each run's first element
        self._starts = array("Q")  # source position of each run's first element
        length = 0
        for start, end in runs:
            if end <= start:
                continue
            if self._starts and self._starts[-1] + (length - self._firsts[-1]) == start:
                length += end - start  # continues the previous run
                continue
            self._firsts.append(length)
            self._starts.append(start)
            length += end - start
        self._length = length

    def __reduce__(self) -> tuple[object, tuple[bytes, bytes, int]]:
        # Two byte strings instead of two pickled arrays: a cached corpus index holds thousands of maps.
        return _restore, (self._firsts.tobytes(), self._starts.tobytes(), self._length)

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, i: int) -> int:
        if i < 0:
            i += self._length
        if not 0 <= i < self._length:
            raise IndexError(i)
        run = bisect_right(self._firsts, i) - 1
        return self._starts[run] + (i - self._firsts[run])

    def __iter__(self) -> Iterator[int]:
        for run, first in enumerate(self._firsts):
            end = self._firsts[run + 1] if run + 1 < len(self._firsts) else self._length
            yield from range(self._starts[run], self._starts[run] + end - first)

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, (OffsetMap, list, array)) else NotImplemented

    def __repr__(self) -> str:
        return f"OffsetMap({len(self)} positions in {len(self._firsts)} runs)"


def _restore(firsts: bytes, starts: bytes, length: int) -> OffsetMap:
    restored = OffsetMap.__new__(OffsetMap)
    restored._firsts = array("Q", firsts)
    restored._starts = array("Q", starts)
    restored._length = length
    return restored
