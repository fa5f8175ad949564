"""The received text's locus of quotes the passage-by-passage alignment placed wrong or in part,
in the shipped corpus (glossary.enrich.witness.Witnessing.elsewhere)."""

from __future__ import annotations

import pytest

from glossary.enrich import witness
from glossary.index import CorpusIndex
from glossary.normalize import normalize


@pytest.fixture(scope="module")
def witnessed(shipped_index: CorpusIndex) -> CorpusIndex:
    return witness.attach(shipped_index)


def received(index: CorpusIndex, quote: str, juan: int):
    hits = [h for h in index.find(normalize(quote)) if index.locus(h).work == "KR1d0044"]
    locus = next(index.locus(h) for h in hits if index.locus(h).juan == juan)
    return locus.received


@pytest.mark.parametrize(
    ("quote", "juan", "received_juan", "page"),
    [
        # A line of 既夕禮's 記 that 蔡德晉 sets inside 士喪禮's 〈復〉: the 記's own place.
        ("復者朝服左執領右執要招而左", 12, 13, "11b"),
        # The alignment had only 俎二尹縮: the whole quote, at the same place.
        ("有乾肉折俎二尹縮", 14, 14, "11b"),
        ("小功布衰裳牡麻絰即葛五月者", 11, 11, "19b"),
    ],
)
def test_the_received_locus_holds_the_whole_quote(
    witnessed, quote, juan, received_juan, page
) -> None:
    found = received(witnessed, quote, juan)
    assert found is not None and (found.juan, found.page) == (received_juan, page)
    assert normalize(found.text) == normalize(quote) and not found.readings


def test_a_glyph_entity_in_the_received_text_keeps_the_aligned_place(witnessed) -> None:
    # The received 燕禮 writes 觚 as an entity (&KR1152;); the 大射儀 has the words in plain
    # characters, but the counterpart is the 燕禮's.
    found = received(witnessed, "主人北面盥坐取觚洗賔少進辭洗", 5)
    assert found is not None and found.juan == 6
