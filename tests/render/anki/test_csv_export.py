"""glossary/render/anki/csv_export.py: no field cell a spreadsheet would run as a formula."""

from __future__ import annotations

import html

import pytest

from glossary.render.anki.csv_export import FORMULA_START, neutralise


@pytest.mark.parametrize(
    "cell", ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx"]
)
def test_a_formula_start_is_written_as_a_character_reference(cell: str) -> None:
    shown = neutralise(cell)
    assert not shown.startswith(FORMULA_START)
    assert shown == f"&#{ord(cell[0])};{cell[1:]}"
    assert html.unescape(shown) == cell  # what Anki (#html:true) shows


@pytest.mark.parametrize("cell", ["", "楅", "arrow rack", "a=b", "<b>x</b>", "&#61;x", " =x"])
def test_other_cells_are_unchanged(cell: str) -> None:
    assert neutralise(cell) == cell
