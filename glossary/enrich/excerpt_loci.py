"""Where an excerpt's passages stand in the text it excerpts.

The seed transcription of 禮經本義's 鄉射禮 (``excerpt_of: KR1d0044``) has one page number for every
passage (卷4 p.7); a reader following a citation wants the leaf of the 四庫 text, which the
citation itself may not name (a quote checked against the transcription's page resolves there only).
"""

from __future__ import annotations

from collections.abc import Iterable

from glossary.corpus.model import Locus
from glossary.index import CorpusIndex
from glossary.normalize import normalize


def excerpt_loci(index: CorpusIndex, loci: Iterable[Locus]) -> dict[tuple[str, int], Locus]:
    """(file, start) of every locus in an excerpt → the same passage in the text it excerpts, in
    the same 卷 (the first such occurrence, the same section preferred); none where it is not found."""
    excerpts = {text.id: text.excerpt_of for text in index.corpus.texts if text.excerpt_of}
    found: dict[tuple[str, int], Locus] = {}
    for locus in loci:
        target, key = excerpts.get(locus.work), (locus.file, locus.start)
        if target is None or key in found:
            continue
        same = [
            hit
            for hit in index.find(normalize(locus.text))
            if (where := index.where(hit.start)).work == target and where.juan == locus.juan
        ]
        same.sort(
            key=lambda hit: (
                normalize(index.where(hit.start).section or "") != normalize(locus.section or "")
            )
        )
        if same:
            found[key] = index.locus(same[0])
    return found
