"""Offset maps: runs of positions that behave as the plain list of positions they stand for."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glossary.offsets import OffsetMap

#: Increasing, non-overlapping runs (some empty, some touching the previous one).
RUNS = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 6)), max_size=30).map(
    lambda steps: _runs(steps)
)


def _runs(steps: list[tuple[int, int]]) -> list[tuple[int, int]]:
    runs, position = [], 0
    for gap, size in steps:
        start = position + gap
        runs.append((start, start + size))
        position = start + size
    return runs


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(RUNS)
def test_a_map_is_the_list_of_its_positions(runs: list[tuple[int, int]]) -> None:
    positions = [p for start, end in runs for p in range(start, end)]
    offsets = OffsetMap(runs)
    assert len(offsets) == len(positions)
    assert list(offsets) == positions
    assert [offsets[i] for i in range(len(positions))] == positions
    assert [offsets[-i] for i in range(1, len(positions) + 1)] == [
        positions[-i] for i in range(1, len(positions) + 1)
    ]
    with pytest.raises(IndexError):
        offsets[len(positions)]
    for p in range(-1, (positions[-1] if positions else 0) + 3):
        assert offsets.count_below(p) == sum(q < p for q in positions)
        starts = [a for a, b in runs if b > a and (a - 1) not in positions]
        assert offsets.run_starts(p, p + 4) == [a for a in starts if p < a < p + 4]
    restored = OffsetMap.unpacked(*offsets.packed())
    assert restored == offsets and len(restored) == len(offsets)
    assert [restored[i] for i in range(len(positions))] == positions


def test_touching_runs_are_merged() -> None:
    offsets = OffsetMap([(0, 3), (3, 5), (7, 9)])
    assert repr(offsets) == "OffsetMap(7 positions in 2 runs)"
    assert list(offsets) == [0, 1, 2, 3, 4, 7, 8]
