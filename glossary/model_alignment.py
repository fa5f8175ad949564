"""The modern renderings aligned with their originals: passages, paragraphs and their pairing
(made by :mod:`glossary.enrich.align`; frozen, and free of I/O like the rest of the model)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property

#: A passage is shown with a modern rendering only when the aligner's confidence in the pairing
#: is at least this; under it the pairing is reported as uncertain (glossary.enrich.align).
ALIGNMENT_THRESHOLD = 0.5


@dataclass(frozen=True)
class Passage:
    """A passage of an original text: a run of the classic between notes, a note, or a section marker."""

    file: str
    line: int
    page_id: str | None
    #: classic | commentary (a section marker is of the classic's layer)
    layer: str
    #: classic | commentary | marker
    kind: str
    text: str
    #: Offsets in the file's text: the first character and one past the last.
    start: int
    end: int
    juan: int | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "page_id": self.page_id,
            "layer": self.layer,
            "kind": self.kind,
            "text": self.text,
        }


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of a rendering: a block of lines between blank lines, stripped."""

    index: int
    text: str
    #: Offset of its first character in the file's text, and its line (1-based).
    start: int
    line: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


@dataclass(frozen=True)
class Pair:
    """A paragraph of a rendering and the passages of the original it renders."""

    paragraph: Paragraph
    original: tuple[Passage, ...]
    #: How sure the aligner is that the paragraph renders each passage (0–1).
    confidences: tuple[float, ...] = ()
    #: For a paragraph paired with nothing: how sure the aligner is of that.
    unpaired_confidence: float = 1.0

    @property
    def confidence(self) -> float:
        """Of the pair: that of its least certain link (a pair is only as sure as its weakest link)."""
        return min(self.confidences) if self.original else self.unpaired_confidence

    @property
    def certain(self) -> bool:
        """Whether the pairing is shown as certain (confidence at least :data:`ALIGNMENT_THRESHOLD`)."""
        return bool(self.original) and self.confidence >= ALIGNMENT_THRESHOLD

    def to_json(self) -> dict[str, object]:
        return {
            "paragraph": self.paragraph.index,
            "modern": self.paragraph.text,
            "original": [
                {**passage.to_json(), "confidence": c}
                for passage, c in zip(self.original, self.confidences)
            ],
            "confidence": self.confidence,
            "certain": self.certain,
        }


@dataclass(frozen=True)
class Rendering:
    """A paragraph of a modern rendering that renders (part of) a passage, as shown beside it."""

    #: Whose rendering, as it is labelled (``modern rendering (seed-shiyu: …)``).
    label: str
    text: str
    file: str
    paragraph: int
    #: The aligner's confidence that this paragraph renders the passage (0–1).
    confidence: float
    #: The passage (or passages) of the original it renders, as printed.
    passage: str = ""

    @property
    def certain(self) -> bool:
        return self.confidence >= ALIGNMENT_THRESHOLD

    def excerpt(self, limit: int = 200) -> str:
        """The rendering, or for a long paragraph (a condensed one renders dozens of passages) the run
        of its sentences, at most ``limit`` characters, that shares most with the passage, marked …"""
        from glossary.excerpt import excerpt

        return self.text if len(self.text) <= limit else excerpt(self.text, self.passage, limit)


@dataclass(frozen=True, eq=False)
class Alignment:
    """A rendering (one file of the corpus) aligned with its original, paragraph by paragraph."""

    #: The rendering's text id and file, the original's text id, and how the rendering is labelled.
    text_id: str
    file: str
    original_id: str
    label: str
    pairs: tuple[Pair, ...]

    @cached_property
    def _links(self) -> dict[str, tuple[list[int], list[tuple[Passage, float, Pair]]]]:
        """File → its linked passages by start (and the starts alone, for bisecting)."""
        by_file: dict[str, list[tuple[Passage, float, Pair]]] = {}
        for pair in self.pairs:
            for passage, confidence in zip(pair.original, pair.confidences):
                by_file.setdefault(passage.file, []).append((passage, confidence, pair))
        result = {}
        for file, links in by_file.items():
            links.sort(key=lambda link: (link[0].start, link[2].paragraph.index))
            result[file] = ([link[0].start for link in links], links)
        return result

    def renderings(
        self, file: str, start: int, end: int, layer: str | None = None
    ) -> tuple[Rendering, ...]:
        """The paragraphs that render some of ``file[start:end]`` of the original (in passages of
        ``layer`` only, if given), in order, each with the confidence of its link to the passage (the
        least, if it renders several that the span touches)."""
        found: dict[int, Rendering] = {}
        starts, links = self._links.get(file, ([], []))
        # Passages do not overlap: the span touches the last that starts at or before it, and on.
        lo, hi = bisect_right(starts, start), bisect_right(starts, end - 1)
        if lo:
            lo = bisect_left(starts, starts[lo - 1])
        for passage, confidence, pair in links[lo:hi]:
            if passage.end <= start or (layer is not None and passage.layer != layer):
                continue
            known = found.get(pair.paragraph.index)
            found[pair.paragraph.index] = Rendering(
                self.label,
                pair.paragraph.text,
                self.file,
                pair.paragraph.index,
                min(confidence, known.confidence) if known else confidence,
                (known.passage if known else "") + passage.text,
            )
        return tuple(found[i] for i in sorted(found))

    def pair_at(self, offset: int) -> Pair | None:
        """The pair whose paragraph holds ``offset`` of the rendering's file."""
        i = bisect_right([pair.paragraph.start for pair in self.pairs], offset) - 1
        return self.pairs[i] if i >= 0 and offset < self.pairs[i].paragraph.end else None
