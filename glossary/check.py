"""`glossary check`: load → validate → locate citations, all problems in one run."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from glossary.cache import IndexCache, corpus_key
from glossary.corpus import CorpusError
from glossary.load import load_yaml
from glossary.media import LICENSES, media_problems, media_size_problems
from glossary.model import CharReading, Citation, CitationResult, Entry, Plan, Retired, Stages
from glossary.plan import FILENAME as PLAN_FILE
from glossary.plan import load_plan
from glossary.problems import ERROR, MAX_PROBLEMS, NOTE, Problem, did_you_mean, is_failure
from glossary.published import ledger_problems
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE
from glossary.retired import FILENAME as RETIRED_FILE
from glossary.retired import load_retired, merged_terms
from glossary.stages.load import FILENAME as STAGES_FILE
from glossary.textcheck import is_placeholder
from glossary.validate import MEDIA, validate

if TYPE_CHECKING:
    from glossary.apparatus import Authorities
    from glossary.citations import CitationChecker
    from glossary.corpus.model import Locus
    from glossary.enrich.readings.lookup import Yinyi
    from glossary.index import CorpusIndex, Origin


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
    terms: Path | str,
    corpus_root: Path | str,
    index: CorpusIndex | None = None,
    plan: Path | str | None = None,
    *,
    cache: IndexCache | None = None,
    reuse: bool = False,
    base: str | None = None,
) -> Report:
    """Check a terms file (and the hall plan beside it) against the corpus: every problem, in one run.

    ``cache`` (default: :meth:`IndexCache.from_environment`) opens the corpus index unless
    ``index`` is given. ``base``: the revision whose Anki ledger this one must extend (its merge
    base with HEAD; default: the ledger committed at HEAD), see :mod:`glossary.published`.
    ``reuse``: when every file the check reads (:func:`run_key`), the base ledger, the corpus and
    the code are those of an earlier run, that run's problems, notes and citation statuses are
    returned without checking anything (nor opening the index). Such a report holds no entries,
    loci or readings: for `glossary check`'s own messages, not for outputs.
    """
    cache = cache if cache is not None else IndexCache.from_environment()
    terms = Path(terms)
    plan_path = Path(plan) if plan is not None else terms.parent / PLAN_FILE
    name = None
    if reuse and index is None and cache.folder is not None:
        name = f"check-{run_key(terms, corpus_root, plan_path, base)}.json"
        kept = _restore(str(terms), cache.read(name))
        if kept is not None:
            return kept
    report = _check_project(terms, corpus_root, index, plan_path, cache, base)
    if name is not None:
        cache.write(name, _keep(report))
    return report


def run_key(terms: Path, corpus_root: Path | str, plan: Path, base: str | None = None) -> str:
    """The digest of everything a check reads: the terms file, the plan, its stage plans, retired.yaml, the Anki
    ledger and the one it must extend (committed at ``HEAD``, or at the merge base with
    ``base``), media/ (its licence list, which files it holds and their sizes), the corpus and
    the code (:func:`glossary.cache.corpus_key`), and the paths its messages name."""
    from glossary.files import UnreadableFile, read_bounded
    from glossary.load import MAX_BYTES
    from glossary.published import base_ledger

    digest = hashlib.sha256(corpus_key(corpus_root).encode() + b"\0")
    folder = terms.parent
    media = folder / MEDIA
    files = [terms, plan, folder / STAGES_FILE, folder / RETIRED_FILE, folder / LEDGER_FILE]
    files += [media / LICENSES, folder / PROJECT_FILE]  # the last: the preview rules it turns on
    for path in files:
        try:
            # As the loaders read it: never through a link (a link's target is no input).
            data = b"+" + read_bounded(path, MAX_BYTES, links=False, base=folder)
        except (OSError, UnreadableFile):
            data = b"-"  # missing, a link or refused: the check says which
        digest.update(f"{path}\0{len(data)}\0".encode() + data)
    digest.update(f"{corpus_root}\0".encode())
    # The ledger this one must extend: git's (a GlossaryError for a base git does not know, as
    # the check itself would raise).
    found = base_ledger(folder, base)
    digest.update(b"-" if found is None else found[1].encode() + b"\0" + found[0].to_bytes())

    # Media problems depend on the names, kinds and sizes of the files there, not on their bytes.
    def kind(item: str) -> str:
        if os.path.islink(item):
            return "l"
        try:
            return "d" if os.path.isdir(item) else f"f{os.path.getsize(item)}"
        except OSError:
            return "?"  # gone meanwhile: the check says what it finds

    held = [f".\0{kind(str(media))}\0"]  # media/ itself a link is a problem of its own
    for walked, dirs, names in os.walk(media):
        for name in dirs + names:
            item = os.path.join(walked, name)
            held.append(f"{os.path.relpath(item, media)}\0{kind(item)}\0")
    digest.update("".join(sorted(held)).encode())
    return digest.hexdigest()


def _keep(report: Report) -> dict[str, object]:
    """What `glossary check` prints of a report, as JSON data."""

    def plain(found: list[Problem]) -> list[list[object]]:
        return [
            [p.file, p.line, p.path, p.severity, p.message, list(p.hints), p.code] for p in found
        ]

    return {
        "terms": report.total_terms,
        "results": [[r.entry_id, r.index, r.status] for r in report.results],
        "problems": plain(report.problems),
        "notes": plain(report.notes),
        "preview": plain(report.preview),
    }


def _restore(display: str, kept: object) -> Report | None:
    """The report :func:`_keep` kept, or None for data of another shape."""
    try:
        report = Report(terms_file=display, total_terms=int(kept["terms"]))  # type: ignore[index]
        report.results = [
            CitationResult(str(owner), int(i), str(status))
            for owner, i, status in kept["results"]  # type: ignore[index]
        ]
        for name in ("problems", "notes", "preview"):
            getattr(report, name).extend(
                Problem(
                    str(file),
                    int(line),
                    str(path),
                    str(severity),
                    str(message),
                    tuple(hints),
                    str(code),
                )
                for file, line, path, severity, message, hints, code in kept[name]  # type: ignore[index]
            )
    except (KeyError, TypeError, ValueError):
        return None
    return report


def _check_project(
    terms: Path,
    corpus_root: Path | str,
    index: CorpusIndex | None,
    plan_path: Path,
    cache: IndexCache,
    base: str | None,
) -> Report:
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
    plan_loaded = _load_plan(report, plan_path)
    checker = None
    if entries or plan_loaded:
        try:
            report.index = index or cache.open(corpus_root)
            # Its loci carry the received text's readings (aligned on first use, kept in the cache).
            from glossary.enrich.witness import attach

            attach(report.index, cache)
        except CorpusError as exc:
            report.problems.append(Problem(str(corpus_root), 0, "", ERROR, str(exc), code="Y901"))
            return report
        checker = _check_entries(report, display, entries)
        # Rites whose classic uses a headword the entry does not list (one pass, all entries).
        from glossary.enrich.rite_coverage import coverage_problems

        missing, declined = coverage_problems(display, entries, report.index)
        report.preview.extend(missing)
        report.problems.extend(declined)
    for entry in entries:
        results, problems, notes = report.found.pop(entry.id)
        report.results.extend(results)
        report.problems.extend(problems)
        report.notes.extend(notes)
    if report.plan is not None and checker is not None:
        _check_plan(report, plan_path, report.plan, checker)
    if checker is not None and os.path.lexists(stages_path := terms.parent / STAGES_FILE):
        _check_stages(report, stages_path, checker)
    # Media files change apart from the entries that name them (the run's key lists them too).
    report.problems.extend(media_problems(terms.parent, display, entries))
    report.problems.extend(media_size_problems(terms.parent, display, entries))
    retired_problems: list[Problem] = []
    if os.path.lexists(retired_path := terms.parent / RETIRED_FILE):
        report.retired, retired_problems = load_retired(retired_path, report.entries, display)
        report.problems.extend(retired_problems)
        report.problems.extend(
            merged_terms(display, report.entries, report.retired, str(retired_path))
        )
    if not retired_problems and not any(p.file == display for p in loaded.problems):
        # Published ids and ledger assignments are permanent (a broken file is said first).
        report.problems.extend(
            ledger_problems(terms.parent / LEDGER_FILE, _ids(loaded.data), report.retired, base)
        )
    # An entry's own `ignore:` waives a rule where the scholar says why (glossary.rules.select).
    # Preview rules are checked in every run (a reused run serves every choice of codes), but
    # reported apart: only `--select` naming one shows it (glossary.rules.select.previewed).
    # A project may turn preview rules on for itself (the shipped glossary does, for Y307).
    from glossary.rules.codes import PREVIEW
    from glossary.rules.select import apply_ignores

    turned_on, config_problems = project_rules(terms.parent)
    report.problems.extend(config_problems)
    preview = PREVIEW - turned_on
    everything = apply_ignores(display, entries, report.problems + report.preview)
    report.problems = [p for p in everything if p.code not in preview]
    report.preview = sorted(p for p in everything if p.code in preview)
    report.problems.sort()
    report.notes.sort()
    return report


#: The file beside the terms file where a project sets its rules: ``[tool.glossary]``.
PROJECT_FILE = "pyproject.toml"


def project_rules(folder: Path) -> tuple[frozenset[str], list[Problem]]:
    """The preview rules the project in ``folder`` turns on (``[tool.glossary] preview =
    ["Y307"]`` in its pyproject.toml, as ruff's ``extend-select``), and the problems of that
    setting (Y902). A project without the file, or without the table, turns none on."""
    import tomllib

    from glossary.files import UnreadableFile, read_bounded
    from glossary.rules.codes import PREVIEW

    path = folder / PROJECT_FILE
    try:
        data = read_bounded(path, 1 << 20, links=False, base=folder)
    except (OSError, UnreadableFile):
        return frozenset(), []
    text = data.decode("utf-8", errors="replace")
    line = next(
        (n for n, row in enumerate(text.splitlines(), 1) if row.lstrip().startswith("preview")), 0
    )

    def problem(path_in_file: str, message: str) -> Problem:
        return Problem(str(path), line, path_in_file, ERROR, message, code="Y902")

    try:
        table = tomllib.loads(text).get("tool", {}).get("glossary", {})
    except tomllib.TOMLDecodeError as exc:
        return frozenset(), [problem("tool.glossary", f"not TOML: {exc}")]
    codes = table.get("preview", []) if isinstance(table, dict) else None
    if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
        return frozenset(), [problem("tool.glossary.preview", 'a list of codes: ["Y307"]')]
    known = ", ".join(sorted(PREVIEW)) or "none"
    problems = [
        problem(f"tool.glossary.preview[{i}]", f"{code} is no preview rule's code ({known})")
        for i, code in enumerate(codes)
        if code not in PREVIEW
    ]
    return frozenset(code for code in codes if code in PREVIEW), problems


def _ids(data: object) -> set[str]:
    """Every id of a terms file's entries, those that failed validation too."""
    items = data if isinstance(data, list) else []
    return {raw["id"] for raw in items if isinstance(raw, dict) and isinstance(raw.get("id"), str)}


def _check_entries(report: Report, display: str, entries: list[Entry]) -> CitationChecker:
    """Check ``entries`` against ``report.index``: their findings go to ``report.found`` by id."""
    # Imported here: a reused run (nothing changed) needs none of this, nor the index.
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
    from glossary.rules.entry import headwords, variant_owners

    yinyi, report.readings = all_readings(entries, report.index.corpus, report.index)
    heads, owners = headwords(entries), variant_owners(entries)
    for entry in entries:
        report.found[entry.id] = _check_entry(
            report, display, entry, checker, authorities, yinyi, heads, owners
        )
    return checker


def _check_entry(
    report: Report,
    display: str,
    entry: Entry,
    checker: CitationChecker,
    authorities: Authorities,
    yinyi: Yinyi,
    headwords: Mapping[str, Entry],
    variants: Mapping[str, Entry],
) -> tuple[list[CitationResult], list[Problem], list[Problem]]:
    """One entry's citation results, problems and notes (the folds its quotes needed): its
    citations verified, then every check of :data:`glossary.rules.entry.ENTRY_CHECKS`."""
    index = report.index
    assert index is not None  # entries are checked against the opened index
    from glossary.rules.entry import ENTRY_CHECKS, EntryContext

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
    origins: list[Origin | Locus] = [
        origin
        for result in results
        if result.verified
        for origin in (
            [index.origin(*span) for span in result.spans] if result.spans else result.loci
        )
    ]
    context = EntryContext(
        display,
        entry,
        results,
        origins,
        index,
        authorities,
        yinyi,
        report.readings.get(entry.id, ()),
        headwords,
        variants,
    )
    for check in ENTRY_CHECKS:
        found.extend(check(context))
    return results, found, notes


def _fold_note(
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


def _load_plan(report: Report, path: Path) -> bool:
    """Load the hall plan into ``report``: whether there is one to check."""
    if not os.path.lexists(path):
        return False  # no plan: nothing to check
    plan, problems = load_plan(path)
    report.problems.extend(problems)
    report.plan = plan
    return plan is not None


def _check_plan(report: Report, path: Path, plan: Plan, checker: CitationChecker) -> None:
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
                    code="Y603",
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


def _check_stages(report: Report, path: Path, checker: CitationChecker) -> None:
    """Load the stage plans, verify every quote in its rite's 卷 and section, and check what the
    passages say (glossary.stages.rules)."""
    from glossary.enrich.sequence import sequences
    from glossary.stages.load import load_stages
    from glossary.stages.rules import (
        carry_problems,
        choose_loci,
        section_problems,
        step_problems,
    )

    stages, problems = load_stages(path)
    report.problems.extend(problems)
    if stages is None:
        return
    assert report.index is not None
    report.stages = stages
    file = str(path)
    items = [
        (item.path, item.citation)
        for section in stages.sections
        for step in section.steps
        for item in step.items
        if item.citation is not None
    ]
    checker.prepare([citation for _, citation in items])
    loci: dict[str, tuple[Locus, ...]] = {}
    for owner, citation in items:
        result, found = checker.check(file, owner, 0, citation)
        # The checker names a citation of an entry (owner.citations[0].quote): here the quote
        # is the placement's own field.
        prefix = f"{owner}.citations[0]"
        report.problems.extend(
            replace(p, path=owner + p.path[len(prefix) :]) if p.path.startswith(prefix) else p
            for p in found
        )
        if (note := _fold_note(file, owner, 0, citation, result)) is not None:
            report.notes.append(replace(note, path=f"{owner}.quote"))
        if result.verified:
            loci[owner] = result.loci
    entries = {entry.id: entry for entry in report.entries}
    plan = report.plan if report.plan is not None else Plan(1, 1, ())
    primary = report.index.corpus.primary
    report.stage_loci = choose_loci(stages, loci, primary.id if primary else None)
    report.problems.extend(section_problems(file, stages, sequences(report.index.corpus)))
    report.problems.extend(step_problems(file, stages, plan, entries))
    report.problems.extend(carry_problems(file, stages, report.stage_loci))
