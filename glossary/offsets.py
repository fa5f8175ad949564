"""Position maps stored as runs: index i of a derived text → position in its source.

Streams and normalised keys are long runs of consecutive source positions broken by
markup and punctuation; storing the runs instead of one number per character keeps a
corpus of millions of characters small.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from typing import Protocol


class Positions(Protocol):
    """What a map of positions is asked: index i's position, and how many there are (a list,
    an array or an :class:`OffsetMap`)."""

    def __getitem__(self, i: int, /) -> int: ...

    def __len__(self) -> int: ...


class OffsetMap:
    """An immutable sequence of increasing positions, kept as runs [start, end).

    One array holds, for n runs, the index of each run's first element (``[0:n]``) and then
    the source position of each run's first element (``[n:2n]``): a corpus has thousands of
    maps, and one array each instead of two saves memory and reading time.
    """

    __slots__ = ("_runs", "_count", "_length")

    def __init__(self, runs: Iterable[tuple[int, int]]):
        firsts = array("Q")  # index of each run's first element
        starts = array("Q")  # source position of each run's first element
        length = 0
        for start, end in runs:
            if end <= start:
                continue
            if starts and starts[-1] + (length - firsts[-1]) == start:
                length += end - start  # continues the previous run
                continue
            firsts.append(length)
            starts.append(start)
            length += end - start
        firsts.extend(starts)
        self._runs = firsts
        self._count = len(starts)
        self._length = length

    def packed(self) -> tuple[bytes, int, int]:
        """The runs as bytes, their count and the length: what :meth:`unpacked` takes back."""
        return self._runs.tobytes(), self._count, self._length

    @classmethod
    def unpacked(cls, runs: bytes | array, count: object, length: object) -> OffsetMap:
        """The map :meth:`packed` gave (ValueError if the parts do not fit together); ``runs``
        may be an array of its own already."""
        restored = cls.__new__(cls)
        restored._runs = (
            runs if isinstance(runs, array) and runs.typecode == "Q" else array("Q", runs)
        )
        if (
            not isinstance(count, int)
            or not isinstance(length, int)
            or len(restored._runs) != 2 * count
        ):
            raise ValueError("not the runs of an offset map")
        restored._count = count
        restored._length = length
        return restored

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, i: int) -> int:
        if i < 0:
            i += self._length
        if not 0 <= i < self._length:
            raise IndexError(i)
        run = bisect_right(self._runs, i, 0, self._count) - 1
        return self._runs[self._count + run] + (i - self._runs[run])

    def count_below(self, position: int) -> int:
        """How many positions held are less than ``position`` (the index it would take)."""
        count, runs = self._count, self._runs
        run = bisect_right(runs, position, count, 2 * count) - 1 - count
        if run < 0:
            return 0
        end = runs[run + 1] if run + 1 < count else self._length
        return runs[run] + min(position - runs[count + run], end - runs[run])

    def run_starts(self, low: int, high: int) -> list[int]:
        """The first positions of the runs that start in ``low < p < high``: where the text this
        map reads breaks off and starts again."""
        count, runs = self._count, self._runs
        i = bisect_right(runs, low, count, 2 * count)
        j = bisect_right(runs, high - 1, count, 2 * count)
        return list(runs[i:j])

    def __iter__(self) -> Iterator[int]:
        count, runs = self._count, self._runs
        for run in range(count):
            end = runs[run + 1] if run + 1 < count else self._length
            yield from range(runs[count + run], runs[count + run] + end - runs[run])

    def __eq__(self, other: object) -> bool:
        return (
            list(self) == list(other)
            if isinstance(other, (OffsetMap, list, array))
            else NotImplemented
        )

    def __repr__(self) -> str:
        return f"OffsetMap({len(self)} positions in {self._count} runs)"
