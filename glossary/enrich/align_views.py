"""What the commands show of the alignments (glossary.enrich.align): ``glossary align`` and the
renderings under a place in ``glossary locate``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from glossary.corpus import Corpus, Locus
from glossary.enrich.align import alignments
from glossary.errors import GlossaryError
from glossary.model_alignment import ALIGNMENT_THRESHOLD, Alignment, Pair, Rendering

if TYPE_CHECKING:
    from glossary.index import CorpusIndex


def aligned(index: CorpusIndex) -> tuple[Alignment, ...]:
    """The corpus' renderings aligned; a :class:`GlossaryError` if the manifest declares none."""
    found = alignments(index.corpus)
    if not found:
        raise GlossaryError(
            "the corpus has no modern rendering to align: a text of corpus/manifest.yaml "
            "says which text it renders with `rendering_of: <text id>`"
        )
    return found


def as_json(found: Sequence[Alignment]) -> list[dict[str, object]]:
    """Every paragraph of every rendering with the passages it renders (``glossary align --json``)."""
    return [
        {**pair.to_json(), "rendering": alignment.file}
        for alignment in found
        for pair in alignment.pairs
    ]


def as_text(found: Sequence[Alignment]) -> Iterator[str]:
    """The renderings for reading beside their original: each paragraph, then what it renders."""
    for alignment in found:
        yield f"{alignment.file}: {alignment.label}, aligned with {alignment.original_id}"
        yield f"(pairings under {ALIGNMENT_THRESHOLD} are marked uncertain)"
        for pair in alignment.pairs:
            paragraph = pair.paragraph
            status = "" if pair.certain or not pair.original else "  UNCERTAIN"
            yield ""
            yield f"¶{paragraph.index} [{alignment.file}:{paragraph.line}] confidence {pair.confidence:.2f}{status}"
            yield f"  {paragraph.text}"
            if not pair.original:
                yield "  ⇐ no passage of the original"
            for passage, confidence in zip(pair.original, pair.confidences):
                place = f"{passage.file}:{passage.line}" + (
                    f" {passage.page_id}" if passage.page_id else ""
                )
                unsure = "" if confidence >= ALIGNMENT_THRESHOLD else ", uncertain"
                yield f"  ⇐ {passage.kind} [{place}] ({confidence:.2f}{unsure})"
                yield f"    {passage.text}"


def renderings_of(found: Sequence[Alignment], locus: Locus) -> tuple[Rendering, ...]:
    """The paragraphs of the renderings that render the passage at ``locus`` (certain or not)."""
    return tuple(
        r
        for alignment in found
        for r in alignment.renderings(locus.file, locus.start, locus.end, locus.layer)
    )


def originals_of(found: Sequence[Alignment], locus: Locus) -> tuple[tuple[Alignment, Pair], ...]:
    """For a place in a rendering: the pairs of the paragraphs it stands in (what they render)."""
    result = []
    for alignment in found:
        if alignment.file == locus.file and (pair := alignment.pair_at(locus.start)) is not None:
            result.append((alignment, pair))
    return tuple(result)


def concerns(corpus: Corpus, loci: Iterable[Locus]) -> bool:
    """Whether any of ``loci`` stands in a rendering or in a text that has one (worth aligning for)."""
    texts = {info.id for info in corpus.texts if info.rendering_of}
    texts |= {info.rendering_of for info in corpus.texts if info.rendering_of}
    return any(locus.work in texts for locus in loci)


def locus_json(found: Sequence[Alignment], locus: Locus) -> dict[str, object]:
    """What ``glossary locate --json`` adds to a place: its modern renderings, or what it renders."""
    result: dict[str, object] = {}
    if renderings := renderings_of(found, locus):
        result["modern"] = [
            {
                "label": r.label,
                "file": r.file,
                "paragraph": r.paragraph,
                "text": r.text,
                "confidence": r.confidence,
                "certain": r.certain,
            }
            for r in renderings
        ]
    if pairs := originals_of(found, locus):
        result["renders"] = [
            {
                **passage.to_json(),
                "paragraph": pair.paragraph.index,
                "confidence": confidence,
                "certain": confidence >= ALIGNMENT_THRESHOLD,
            }
            for _, pair in pairs
            for passage, confidence in zip(pair.original, pair.confidences)
        ]
    return result


def locus_lines(found: Sequence[Alignment], locus: Locus) -> Iterator[str]:
    """What ``glossary locate`` prints under a place: its modern renderings, or what it renders."""
    for r in renderings_of(found, locus):
        unsure = "" if r.certain else f" — uncertain ({r.confidence:.2f})"
        yield f"{r.label} [{r.file} ¶{r.paragraph}]{unsure}:"
        yield f"  {r.excerpt()}"
    for alignment, pair in originals_of(found, locus):
        if not pair.original:
            yield f"renders no passage of {alignment.original_id} (¶{pair.paragraph.index})"
        for passage, confidence in zip(pair.original, pair.confidences):
            unsure = "" if confidence >= ALIGNMENT_THRESHOLD else f" — uncertain ({confidence:.2f})"
            where = f"{passage.file}:{passage.line}" + (
                f", page id {passage.page_id}" if passage.page_id else ""
            )
            yield f"renders {alignment.original_id} {passage.kind} [{where}]{unsure}:"
            yield f"  {passage.text}"
