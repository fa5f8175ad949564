"""glossary/enrich/local_repeats.py: a note that repeats 鄭玄's note on the same passage."""

from __future__ import annotations

import pytest
from conftest import MINI_CORPUS, ROOT

from glossary.cache import IndexCache
from glossary.enrich.local_repeats import LOCAL_REPEAT, local_repeat, shared_run
from glossary.enrich.witness import attach
from glossary.index import Hit
from glossary.normalize import normalize


def test_the_longest_shared_run_that_is_not_the_classic() -> None:
    # 祝侑 is the classic both quote; 謂尸七飯時 is the note's own words.
    assert shared_run("祝侑謂尸七飯時祝獨侑", "謂尸七飯時", "則祝侑亦如之") == "謂尸七飯時"
    assert shared_run("則祝侑亦如之謂", "則祝侑亦如之", "則祝侑亦如之") == ""
    assert shared_run("息勞也", "息勞也", "") == ""  # under LOCAL_REPEAT characters
    assert LOCAL_REPEAT == 4 and shared_run("乃息勞也", "乃息勞也", "") == "乃息勞也"


def test_a_note_of_the_author_is_followed_to_zheng_xuans_on_the_same_passage() -> None:
    from glossary.enrich.witness import Annotator

    index = attach(IndexCache(None).open(MINI_CORPUS))
    annotator = index.annotator
    assert isinstance(annotator, Annotator) and annotator.places is not None and annotator.author
    [hit] = [
        h
        for h in index.find(normalize("祝侑謂尸七飯時"))
        if index.where(h.start).work == "KR1d0044"
    ]
    found = local_repeat(index, annotator.places, hit.start, hit.end, annotator.author)
    assert found is not None and found.common == "謂尸七飯時"
    assert found.juan == 17 and found.page == "19b" and found.file.endswith("KR1d0026_017.txt")
    # The classic itself (則祝侑亦如之) is no note: nothing.
    [classic] = [
        h for h in index.find(normalize("則祝侑亦如之")) if index.where(h.start).work == "KR1d0044"
    ]
    assert local_repeat(index, annotator.places, classic.start, classic.end, "蔡德晉") is None
    assert isinstance(hit, Hit)


@pytest.mark.slow  # the shipped corpus, indexed and aligned
def test_a_note_repeating_zheng_xuans_note_earlier_in_the_same_stretch_is_found() -> None:
    """士虞禮: 鄭玄 notes 無尸則不餞猶出几席設如初拾踊三 after 拾踊三 (以餞尸者本爲送神也丈夫婦人亦從
    几席而出…), 蔡德晉 after 哭止告事畢賔出, with the same words; the stretch his note explains
    holds both places, so the repeat is his."""
    from glossary.enrich.witness import Annotator

    index = attach(IndexCache.from_environment().open(ROOT / "corpus"))
    annotator = index.annotator
    assert isinstance(annotator, Annotator) and annotator.places is not None
    [hit] = [
        h
        for h in index.find(normalize("故雖無尸猶出几席設如初送神不異也丈夫婦人亦從几席而出"))
        if index.where(h.start).work == "KR1d0044"
    ]
    found = local_repeat(index, annotator.places, hit.start, hit.end, "蔡德晉")
    assert found is not None and "丈夫婦人亦從几席而" in found.common
    assert found.juan == 14 and found.page == "13a" and found.file.endswith("KR1d0026_014.txt")
