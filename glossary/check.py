"""`glossary check`: load → validate → locate citations, all problems in one run."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from glossary.cache import IndexCache, Memo, corpus_key
from glossary.corpus import CorpusError
from glossary.files import read_unlinked
from glossary.load import load_yaml
from glossary.media import media_problems, media_size_problems
from glossary.model import CharReading, Citation, CitationResult, Entry, Plan, Retired
from glossary.plan import FILENAME as PLAN_FILE
from glossary.plan import load_plan
from glossary.problems import ERROR, MAX_PROBLEMS, NOTE, WARNING, Problem, did_you_mean, is_failure
from glossary.published import ledger_problems
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE
from glossary.retired import FILENAME as RETIRED_FILE
from glossary.retired import load_retired
from glossary.textcheck import is_placeholder
from glossary.validate import validate

if TYPE_CHECKING:
    from glossary.apparatus import Authorities
    from glossary.citations import CitationChecker
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
    #: entry id → how each headword character was read (廣韻, 經典釋文).
    readings: dict[str, tuple[CharReading, ...]] = field(default_factory=dict)
    #: Notes, not problems: each verified quote that needed a variant fold (glossary.folds), at its line.
    notes: list[Problem] = field(default_factory=list)
    #: Entry id → (citation results, problems, notes) of the entries checked afresh, until reported.
    found: dict[str, tuple[list[CitationResult], list[Problem], list[Problem]]] = field(
        default_factory=dict
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


#: The code whose findings about one entry a run may keep for the next (its imports followed,
#: with the tables they name; see :meth:`glossary.cache.IndexCache.memo`).
ENTRY_CODE = ("glossary.check",)


def check_project(
    terms: Path | str,
    corpus_root: Path | str,
    index: CorpusIndex | None = None,
    plan: Path | str | None = None,
    *,
    cache: IndexCache | None = None,
    incremental: bool = False,
    base: str | None = None,
) -> Report:
    """Check a terms file (and the hall plan beside it) against the corpus: every problem, in one run.

    ``cache`` (default: :meth:`IndexCache.from_environment`) opens the corpus index unless
    ``index`` is given, and remembers the quotes looked for. ``incremental``: an entry (and the
    plan) whose text, corpus and checking code are those of an earlier run is not checked again;
    its problems, notes and citation statuses are the ones found then, and when nothing changed
    the corpus index is not even opened. ``base``: the revision whose Anki ledger this one must
    extend (its merge base with HEAD; default: the ledger committed at HEAD), see
    :mod:`glossary.published`. The report then holds no loci and no readings for those
    entries (nor ``index``): for `glossary check`'s own messages, not for outputs.
    """
    cache = cache if cache is not None else IndexCache.from_environment()
    terms = Path(terms)
    plan_path = Path(plan) if plan is not None else terms.parent / PLAN_FILE
    display = str(terms)
    # The entries' text as parsed by earlier runs: an edit re-reads only the entries it touched.
    memo = cache.memo("terms", ("glossary.load",), ("PyYAML",))
    loaded = load_yaml(terms, display, memo)
    cache.keep(memo)
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
    known = Memo(None, {})
    if incremental and index is None and cache.trusted():
        try:
            # What earlier runs found, for this corpus (its files checked against SHA256SUMS).
            known = cache.memo("checked", ENTRY_CODE, corpus=corpus_key(Path(corpus_root)))
        except CorpusError as exc:
            report.problems.append(Problem(str(corpus_root), 0, "", ERROR, str(exc)))
            return report
    # Each entry by the digest of its text (where the file was read item by item).
    digests = {loaded.lines[(i,)]: digest for i, digest in enumerate(loaded.digests)}
    kept = {
        entry.id: found
        for entry in entries
        if (found := known.get(digests.get(entry.line))) is not None
    }
    fresh = [entry for entry in entries if entry.id not in kept]
    # The plan's check depends on its text and on the glossary's ids (its places name entries).
    plan_key = _plan_key(report, plan_path) if known.file is not None else None
    plan_found = _load_plan(report, plan_path, known, plan_key)
    checker = None
    if fresh or plan_found is None:
        try:
            report.index = index or cache.open(corpus_root)
            # Its loci carry the received text's readings (aligned on first use, kept in the cache).
            from glossary.enrich.witness import attach

            attach(report.index, cache)
        except CorpusError as exc:
            report.problems.append(Problem(str(corpus_root), 0, "", ERROR, str(exc)))
            return report
        checker = _check_entries(report, display, fresh, cache)
    for entry in entries:
        if entry.id in kept:
            results, problems, notes = _restore(display, entry.line, entry.id, kept[entry.id])
        else:
            results, problems, notes = report.found.pop(entry.id)
            if entry.line in digests:
                known[digests[entry.line]] = _keep(entry.line, results, problems, notes)
        report.results.extend(results)
        report.problems.extend(problems)
        report.notes.extend(notes)
    if plan_found is not None:
        report.problems.extend(plan_found[0])
        report.notes.extend(plan_found[1])
    elif report.plan is not None and checker is not None:
        _check_plan(report, plan_path, report.plan, checker, known, plan_key)
    # Media files change apart from the entries that name them: looked at on every run.
    report.problems.extend(media_problems(terms.parent, display, entries))
    report.problems.extend(media_size_problems(terms.parent, display, entries))
    retired_problems: list[Problem] = []
    if os.path.lexists(retired_path := terms.parent / RETIRED_FILE):
        report.retired, retired_problems = load_retired(retired_path, report.entries)
        report.problems.extend(retired_problems)
    if not retired_problems and not any(p.file == display for p in loaded.problems):
        # Published ids and ledger assignments are permanent (a broken file is said first).
        report.problems.extend(
            ledger_problems(terms.parent / LEDGER_FILE, _ids(loaded.data), report.retired, base)
        )
    cache.keep(known)
    if report.index is not None:
        cache.save(report.index)
    report.problems.sort()
    report.notes.sort()
    return report


def _ids(data: object) -> set[str]:
    """Every id of a terms file's entries, those that failed validation too."""
    items = data if isinstance(data, list) else []
    return {raw["id"] for raw in items if isinstance(raw, dict) and isinstance(raw.get("id"), str)}


def _check_entries(
    report: Report, display: str, entries: list[Entry], cache: IndexCache
) -> CitationChecker:
    """Check ``entries`` against ``report.index``: their findings go to ``report.found`` by id."""
    # Imported here: a check in which no entry changed needs none of this (nor the index).
    from glossary.apparatus import Authorities
    from glossary.citations import CitationChecker
    from glossary.enrich.readings.lookup import all_readings

    assert report.index is not None
    checker = CitationChecker(report.index)
    authorities = Authorities(report.index.corpus)
    checker.prepare(
        [
            citation
            for entry in entries
            for citation in entry.citations
            if not is_placeholder(citation.quote)
        ]
    )
    yinyi, report.readings = all_readings(entries, report.index.corpus, report.index, cache=cache)
    for entry in entries:
        report.found[entry.id] = _check_entry(report, display, entry, checker, authorities, yinyi)
    return checker


def _check_entry(
    report: Report,
    display: str,
    entry: Entry,
    checker: CitationChecker,
    authorities: Authorities,
    yinyi: object,
) -> tuple[list[CitationResult], list[Problem], list[Problem]]:
    """One entry's citation results, problems and notes (the folds its quotes needed)."""
    from glossary.apparatus import claim_problems, rite_problems
    from glossary.citations import headword_problem
    from glossary.enrich import witness_rules
    from glossary.enrich.pinyin import reading_problems, tts_problems
    from glossary.enrich.readings.rules import (
        classical_problems,
        guangyun_problems,
        sourced,
        yinyi_problems,
    )

    results, found, notes = [], [], []
    for i, citation in enumerate(entry.citations):
        if is_placeholder(citation.quote):
            # The scaffold's placeholder (an error already): not a passage to look for.
            results.append(CitationResult(entry.id, i, "invalid"))
            continue
        result, problems = checker.check(display, entry.id, i, citation)
        results.append(result)
        found.extend(problems)
        if (note := _fold_note(display, entry.id, i, citation, result)) is not None:
            notes.append(note)
    # Whose words and which rite each verified passage is (loci resolved only where already known).
    origins = [
        origin
        for result in results
        if result.verified
        for origin in (
            [report.index.origin(*span) for span in result.spans] if result.spans else result.loci
        )
    ]
    found.extend(rite_problems(display, entry.id, entry.rites, entry.line_of("rites"), origins))
    found.extend(claim_problems(display, entry, origins, authorities))
    found.extend(witness_rules.reading_problems(display, entry, results, report.index))
    found.extend(witness_rules.repeat_problems(display, entry, results, report.index, authorities))
    if (warning := headword_problem(display, entry)) is not None:
        found.append(warning)
    readings = report.readings.get(entry.id, ())
    for severity, message in reading_problems(entry):
        if severity == WARNING and sourced(entry, readings, message):
            continue  # a reading pypinyin lacks, but the 廣韻 or 經典釋文 gives: looked at twice
        found.append(
            Problem(display, entry.line_of("pinyin"), f"{entry.id}.pinyin", severity, message)
        )
    found.extend(
        Problem(display, entry.line_of("tts"), f"{entry.id}.tts", ERROR, message)
        for message in tts_problems(entry)
    )
    found.extend(guangyun_problems(display, entry))
    found.extend(yinyi_problems(display, entry, yinyi))
    found.extend(classical_problems(display, entry, readings))
    return results, found, notes


def _keep(
    base: int, results: list[CitationResult], problems: list[Problem], notes: list[Problem]
) -> tuple[object, ...]:
    """What checking an entry (or the plan) found, as plain data, its lines counted from ``base``."""

    def plain(found: list[Problem]) -> tuple[tuple[object, ...], ...]:
        return tuple((p.line - base, p.path, p.severity, p.message, p.hints) for p in found)

    return tuple(result.status for result in results), plain(problems), plain(notes)


def _restore(
    display: str, base: int, owner: str, kept: object
) -> tuple[list[CitationResult], list[Problem], list[Problem]]:
    """What :func:`_keep` kept, placed from line ``base`` (an entry may have moved in the file)."""
    statuses, problems, notes = kept  # type: ignore[misc]

    def placed(found: tuple[tuple[object, ...], ...]) -> list[Problem]:
        return [
            Problem(display, base + line, path, severity, message, tuple(hints))
            for line, path, severity, message, hints in found
        ]

    results = [CitationResult(owner, i, status) for i, status in enumerate(statuses)]
    return results, placed(problems), placed(notes)


def _fold_note(
    file: str, owner: str, index: int, citation: Citation, result: CitationResult
) -> Problem | None:
    """A note for a verified quote that needed variant folds (edition variants have their warning)."""
    from glossary.folds import EDITION, describe

    folds = [fold for fold in result.folds if fold.source != EDITION]
    if not folds:
        return None
    return Problem(
        file, citation.line_of("quote"), f"{owner}.citations[{index}].quote", NOTE, describe(folds)
    )


def _plan_key(report: Report, path: Path) -> str | None:
    """The plan's text and the glossary's ids (its places name entries): what its check depends on."""
    try:
        digest = hashlib.sha256(read_unlinked(path))  # a link: no key, and the loader refuses it
    except OSError:
        return None
    digest.update("\0".join(sorted(entry.id for entry in report.entries)).encode())
    return "plan:" + digest.hexdigest()


def _load_plan(
    report: Report, path: Path, known: Memo, key: str | None
) -> tuple[list[Problem], list[Problem]] | None:
    """Load the hall plan into ``report``; what an earlier run found checking it (kept under ``key``),
    if nothing changed."""
    if not os.path.lexists(path):
        return [], []  # no plan: nothing to check
    plan, problems = load_plan(path)
    report.problems.extend(problems)
    report.plan = plan
    if plan is None:
        return [], []
    kept = known.get(key) if key else None
    if kept is None:
        return None
    return _restore(str(path), 0, "", kept)[1:]


def _check_plan(
    report: Report, path: Path, plan: Plan, checker: CitationChecker, known: Memo, key: str | None
) -> None:
    from glossary.apparatus import rite_problems

    found: list[Problem] = []
    notes: list[Problem] = []
    checker.prepare([citation for place in plan.places for citation in place.citations])
    ids = {entry.id for entry in report.entries}
    for place in plan.places:
        if place.term is not None and place.term not in ids:
            found.append(
                Problem(
                    str(path),
                    place.line,
                    f"{place.id}.term",
                    ERROR,
                    f"unknown glossary id {place.term!r}{did_you_mean(place.term, sorted(ids))}",
                )
            )
        loci = []
        for i, citation in enumerate(place.citations):
            result, problems = checker.check(str(path), place.id, i, citation)
            found.extend(problems)
            if (note := _fold_note(str(path), place.id, i, citation, result)) is not None:
                notes.append(note)
            loci.append(result.loci if result.verified else ())
        report.plan_loci[place.id] = tuple(loci)
        found.extend(
            rite_problems(
                str(path), place.id, place.rites, place.line, [l for each in loci for l in each]
            )
        )
    report.problems.extend(found)
    report.notes.extend(notes)
    if key is not None:
        known[key] = _keep(0, [], found, notes)
