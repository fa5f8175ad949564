"""What a check found (:class:`Report`): the entries, every citation's result, the problems and
notes; renderers take entries and results from here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from glossary.model import CharReading, Citation, CitationResult, Entry, Plan, Retired, Stages
from glossary.problems import MAX_PROBLEMS, NOTE, Problem, is_failure

if TYPE_CHECKING:
    from glossary.corpus.model import Locus
    from glossary.index import CorpusIndex


@dataclass
class Report:
    """Everything a check found; renderers take entries and results from here."""

    terms_file: str
    entries: list[Entry] = field(default_factory=list)
    results: list[CitationResult] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    index: CorpusIndex | None = None
    total_terms: int = 0
    plan: Plan | None = None
    #: Ids of entries merged into others (retired.yaml beside the terms file).
    retired: tuple[Retired, ...] = ()
    #: place id → for each citation, its resolved loci.
    plan_loci: dict[str, tuple[tuple[Locus, ...], ...]] = field(default_factory=dict)
    #: The stage plans (stages.yaml beside the terms), if the project has them and they load.
    stages: Stages | None = None
    #: Path of each verified placement and movement of the stage plans → the locus it shows.
    stage_loci: dict[str, Locus] = field(default_factory=dict)
    #: entry id → how each headword character was read (廣韻, 經典釋文).
    readings: dict[str, tuple[CharReading, ...]] = field(default_factory=dict)
    #: Notes, not problems: each verified quote that needed a variant fold (glossary.folds), at its line.
    notes: list[Problem] = field(default_factory=list)
    #: Problems of preview rules (glossary.rules.codes), reported only when ``--select`` names them.
    preview: list[Problem] = field(default_factory=list)
    #: Entry id → (citation results, problems, notes) of the entries checked, until reported.
    found: dict[str, tuple[list[CitationResult], list[Problem], list[Problem]]] = field(
        default_factory=dict
    )

    _grouped: tuple[tuple[int, int], dict[str, list[CitationResult]]] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def citations(self) -> int:
        return len(self.results)

    @property
    def verified(self) -> int:
        return sum(1 for r in self.results if r.verified)

    def failed(self, strict: bool = False) -> bool:
        return any(is_failure(p, strict) for p in self.problems)

    def results_for(self, entry_id: str) -> list[CitationResult]:
        """The results of one entry's citations, in order (grouped once for the list as it stands: asked for every entry, a scan each would be quadratic)."""
        key = (id(self.results), len(self.results))
        if self._grouped is None or self._grouped[0] != key:
            groups: dict[str, list[CitationResult]] = {}
            for result in self.results:
                groups.setdefault(result.entry_id, []).append(result)
            self._grouped = (key, groups)
        return list(self._grouped[1].get(entry_id, ()))

    def to_json(self) -> dict[str, object]:
        return {
            "terms": self.total_terms,
            "citations": self.citations,
            "verified": self.verified,
            "problems": [p.to_json() for p in sorted(self.problems)[:MAX_PROBLEMS]],
            "problems_omitted": max(0, len(self.problems) - MAX_PROBLEMS),
            "results": [
                {
                    "id": r.entry_id,
                    "citation": r.index,
                    "status": r.status,
                    "folds": [fold.to_json() for fold in r.folds],
                    "loci": [
                        {k: v for k, v in locus.to_json().items() if k not in ("context",)}
                        for locus in r.loci
                    ],
                }
                for r in self.results
            ],
        }


def fold_note(
    file: str, owner: str, index: int, citation: Citation, result: CitationResult
) -> Problem | None:
    """A note for a verified quote that needed variant folds (edition variants have their warning)."""
    from glossary.folds import EDITION, describe

    folds = [fold for fold in result.folds if fold.source != EDITION]
    if not folds:
        return None
    return Problem(
        file,
        citation.line_of("quote"),
        f"{owner}.citations[{index}].quote",
        NOTE,
        describe(folds),
        code="Y212",
    )
