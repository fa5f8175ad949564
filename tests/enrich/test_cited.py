"""Citations resolved once (glossary/enrich/cited.py): each citation keeps its own places, an
excerpt's passage the leaf of the text it excerpts, and one place a card names."""

from __future__ import annotations

from dataclasses import replace

import pytest

from glossary.corpus.model import Locus
from glossary.enrich.cited import locus_label, resolve, shown_place
from glossary.model import Citation

EXCERPT = Locus(
    work="seed-xiangshe",
    title="禮經本義",
    file="seed.txt",
    juan=4,
    page="7",
    page_id=None,
    rite="鄉射禮",
    section="取矢",
    layer="classic",
    commentator=None,
    line=3,
    start=10,
    end=14,
    text="乃設楅于",
    context="",
)
LEAF = replace(
    EXCERPT, work="KR1d0044", file="KR1d0044_004.txt", page="21b", page_id="KR1d0044_004-21b"
)


def test_each_citation_keeps_its_own_places_in_order() -> None:
    first, second = Citation("乃設楅于", 1), Citation("不在", 5)
    other = replace(LEAF, start=99, text="設楅")
    cited = resolve([first, second], [(LEAF, other), ()], {})
    assert [c.citation for c in cited] == [first, second]
    assert cited[0].loci == (LEAF, other) and cited[0].shown is LEAF and cited[0].found
    assert cited[1].loci == () and not cited[1].found and cited[1].label == ""


def test_an_excerpts_passage_names_the_leaf_of_the_text_it_excerpts() -> None:
    (cited,) = resolve([Citation("乃設楅于", 1)], [(EXCERPT,)], {("seed.txt", 10): LEAF})
    assert cited.source is LEAF and cited.places == (EXCERPT, LEAF)
    assert cited.loci == (EXCERPT,)  # the quote stays the excerpt's
    assert cited.shown is LEAF and cited.label == "禮經本義 卷4 p.21b 〈取矢〉 classic"


def test_a_leaf_of_another_juan_is_not_named() -> None:
    elsewhere = replace(LEAF, juan=5)
    assert shown_place([EXCERPT, elsewhere]) is EXCERPT
    assert locus_label([EXCERPT, elsewhere]) == "禮經本義 卷4 p.7 〈取矢〉 classic"


def test_the_same_section_is_preferred() -> None:
    other_section = replace(LEAF, section="設楅", page="20a")
    assert shown_place([EXCERPT, other_section, LEAF]) is LEAF


def test_citations_and_results_must_pair() -> None:
    with pytest.raises(ValueError):
        resolve([Citation("乃設楅于", 1)], [], {})
