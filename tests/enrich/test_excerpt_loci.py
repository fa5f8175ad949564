"""The place of an excerpt's passage in the text it excerpts (issue 25, point 8)."""

from __future__ import annotations

from glossary.enrich.excerpt_loci import excerpt_loci
from glossary.index import CorpusIndex
from glossary.normalize import normalize

PASSAGE = "楅長如笴博三寸"


def test_a_passage_of_the_excerpt_is_found_in_the_text_it_excerpts(index: CorpusIndex) -> None:
    hits = index.find(normalize(PASSAGE))
    loci = [index.locus(hit) for hit in hits]
    seed = [locus for locus in loci if locus.page_id is None]
    assert seed  # the fixture's simplified transcription holds it
    found = excerpt_loci(index, seed)
    assert set(found) == {(locus.file, locus.start) for locus in seed}
    for locus in seed:
        there = found[(locus.file, locus.start)]
        assert there.work == "KR1d0044" and there.juan == locus.juan and there.page_id
        assert normalize(there.text) == normalize(locus.text)


def test_other_loci_are_left_alone(index: CorpusIndex) -> None:
    loci = [index.locus(hit) for hit in index.find(normalize(PASSAGE))]
    primary = [locus for locus in loci if locus.page_id]
    assert primary and excerpt_loci(index, primary) == {}
