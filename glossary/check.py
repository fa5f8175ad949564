"""`glossary check`: load → validate → locate citations, all problems in one run."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from glossary.apparatus import Authorities, claim_problems, rite_problems
from glossary.cache import IndexCache
from glossary.citations import CitationChecker, headword_problem
from glossary.corpus import CorpusError
from glossary.corpus.model import Locus
from glossary.enrich.pinyin import reading_problems
from glossary.enrich.readings import all_readings, classical_problems, guangyun_problems, sourced, yinyi_problems
from glossary.index import CorpusIndex
from glossary.load import load_yaml
from glossary.folds import EDITION, describe
from glossary.model import CharReading, Citation, CitationResult, Entry, Plan, Retired
from glossary.retired import FILENAME as RETIRED_FILE
from glossary.retired import load_retired
from glossary.plan import FILENAME as PLAN_FILE
from glossary.plan import load_plan
from glossary.problems import ERROR, MAX_PROBLEMS, NOTE, WARNING, Problem, is_failure
from glossary.validate import did_you_mean, is_placeholder, validate


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
    #: entry id → how each headword character was read (廣韻, 經典釋文).
    readings: dict[str, tuple[CharReading, ...]] = field(default_factory=dict)
    #: Notes, not problems: each verified quote that needed a variant fold (glossary.folds), at its line.
    notes: list[Problem] = field(default_factory=list)

    @property
    def citations(self) -> int:
        return len(self.results)

    @property
    def verified(self) -> int:
        return sum(1 for r in self.results if r.verified)

    def failed(self, strict: bool = False) -> bool:
        return any(is_failure(p, strict) for p in self.problems)

    def results_for(self, entry_id: str) -> list[CitationResult]:
        return [r for r in self.results if r.entry_id == entry_id]

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


def check_project(
    terms: Path | str, corpus_root: Path | str, index: CorpusIndex | None = None, plan: Path | str | None = None,
    *, cache: IndexCache | None = None,
) -> Report:
    """Check a terms file (and the hall plan beside it) against the corpus: every problem, in one run.

    ``cache`` (default: :meth:`IndexCache.from_environment`) opens the corpus index unless
    ``index`` is given, and remembers the quotes looked for.
    """
    cache = cache if cache is not None else IndexCache.from_environment()
    terms = Path(terms)
    plan_path = Path(plan) if plan is not None else terms.parent / PLAN_FILE
    display = str(terms)
    loaded = load_yaml(terms, display)
    report = Report(terms_file=display, problems=list(loaded.problems))
    if loaded.data is None and loaded.problems:
        # The file could not be read as YAML at all: that problem alone, first. Checking the plan
        # against an empty glossary would only bury it under errors that are not errors.
        return report
    if isinstance(loaded.data, list):
        report.total_terms = len(loaded.data)
    entries, problems = validate(loaded, terms.parent)
    report.problems.extend(problems)
    report.entries = entries
    try:
        report.index = index or cache.open(corpus_root)
    except CorpusError as exc:
        report.problems.append(Problem(str(corpus_root), 0, "", ERROR, str(exc)))
        return report
    checker = CitationChecker(report.index)
    authorities = Authorities(report.index.corpus)
    checker.prepare([citation for entry in entries for citation in entry.citations if not is_placeholder(citation.quote)])
    yinyi, report.readings = all_readings(entries, report.index.corpus, report.index, cache=cache)
    for entry in entries:
        results = []
        for i, citation in enumerate(entry.citations):
            if is_placeholder(citation.quote):
                # The scaffold's placeholder (an error already): not a passage to look for.
                results.append(CitationResult(entry.id, i, "invalid"))
                continue
            result, problems = checker.check(display, entry.id, i, citation)
            results.append(result)
            report.problems.extend(problems)
            _note_folds(report, display, entry.id, i, citation, result)
        report.results.extend(results)
        # Whose words and which rite each verified passage is (loci resolved only where already known).
        origins = [origin for result in results if result.verified
                   for origin in ([report.index.origin(*span) for span in result.spans] if result.spans
                                  else result.loci)]
        report.problems.extend(rite_problems(display, entry, origins))
        report.problems.extend(claim_problems(display, entry, origins, authorities))
        if (warning := headword_problem(display, entry)) is not None:
            report.problems.append(warning)
        readings = report.readings.get(entry.id, ())
        for severity, message in reading_problems(entry):
            if severity == WARNING and sourced(entry, readings, message):
                continue  # a reading pypinyin lacks, but the 廣韻 or 經典釋文 gives: looked at twice
            report.problems.append(Problem(display, entry.line_of("pinyin"), f"{entry.id}.pinyin", severity, message))
        report.problems.extend(guangyun_problems(display, entry))
        report.problems.extend(yinyi_problems(display, entry, yinyi))
        report.problems.extend(classical_problems(display, entry, readings))
    if plan_path.exists():
        _check_plan(report, plan_path, checker)
    if (retired_path := terms.parent / RETIRED_FILE).exists():
        report.retired, problems = load_retired(retired_path, report.entries)
        report.problems.extend(problems)
    cache.save(report.index)
    report.problems.sort()
    report.notes.sort()
    return report


def _note_folds(report: Report, file: str, owner: str, index: int, citation: Citation, result: CitationResult) -> None:
    """A note for a verified quote that needed variant folds (edition variants have their warning)."""
    folds = [fold for fold in result.folds if fold.source != EDITION]
    if folds:
        report.notes.append(Problem(file, citation.line_of("quote"), f"{owner}.citations[{index}].quote", NOTE,
                                    describe(folds)))


def _check_plan(report: Report, path: Path, checker: CitationChecker) -> None:
    plan, problems = load_plan(path)
    report.problems.extend(problems)
    if plan is None:
        return
    report.plan = plan
    checker.prepare([citation for place in plan.places for citation in place.citations])
    ids = {entry.id for entry in report.entries}
    for place in plan.places:
        if place.term is not None and place.term not in ids:
            report.problems.append(Problem(str(path), place.line, f"{place.id}.term", ERROR,
                                           f"unknown glossary id {place.term!r}{did_you_mean(place.term, sorted(ids))}"))
        loci = []
        for i, citation in enumerate(place.citations):
            result, problems = checker.check(str(path), place.id, i, citation)
            report.problems.extend(problems)
            _note_folds(report, str(path), place.id, i, citation, result)
            loci.append(result.loci if result.verified else ())
        report.plan_loci[place.id] = tuple(loci)
