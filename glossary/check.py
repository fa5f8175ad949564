"""`glossary check`: load → validate → locate citations, all problems in one run."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from glossary.cache import IndexCache, corpus_key
from glossary.check_files import load_plan_into
from glossary.corpus import CorpusError
from glossary.load import load_yaml
from glossary.media import LICENSES
from glossary.model import CitationResult, Entry
from glossary.plan import FILENAME as PLAN_FILE
from glossary.problems import ERROR, Problem
from glossary.project import PROJECT_FILE, project_rules
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE
from glossary.report import Report, fold_note
from glossary.retired import FILENAME as RETIRED_FILE
from glossary.stages.load import FILENAME as STAGES_FILE
from glossary.textcheck import is_placeholder
from glossary.validate import MEDIA, validate

if TYPE_CHECKING:
    from glossary.apparatus import Authorities
    from glossary.citations import CitationChecker
    from glossary.corpus.model import Locus
    from glossary.enrich.readings.lookup import Yinyi
    from glossary.index import CorpusIndex, Origin


def check_project(
    terms: Path | str,
    corpus_root: Path | str,
    index: CorpusIndex | None = None,
    plan: Path | str | None = None,
    *,
    cache: IndexCache | None = None,
    reuse: bool = False,
    base: str | None = None,
    only: frozenset[str] | None = None,
) -> Report:
    """Check a terms file (and the hall plan beside it) against the corpus: every problem, in one run.

    ``cache`` (default: :meth:`IndexCache.from_environment`) opens the corpus index unless
    ``index`` is given. ``base``: the revision whose Anki ledger this one must extend (its merge
    base with HEAD; default: the ledger committed at HEAD), see :mod:`glossary.published`.
    ``reuse``: when every file the check reads (:func:`run_key`), the base ledger, the corpus and
    the code are those of an earlier run, that run's problems, notes and citation statuses are
    returned without checking anything (nor opening the index). Such a report holds no entries,
    loci or readings: for `glossary check`'s own messages, not for outputs.
    ``only`` (a preview of these entries): every citation is still located, since entries share
    passages, but the readings and the rules (the entries' and rite coverage) are those of these
    entries alone; such a report is for their outputs, not a check of the glossary, and is
    never kept.
    """
    cache = cache if cache is not None else IndexCache.from_environment()
    terms = Path(terms)
    plan_path = Path(plan) if plan is not None else terms.parent / PLAN_FILE
    name = None
    if reuse and only is None and index is None and cache.folder is not None:
        name = f"check-{run_key(terms, corpus_root, plan_path, base)}.json"
        kept = _restore(str(terms), cache.read(name))
        if kept is not None:
            return kept
    report = _check_project(terms, corpus_root, index, plan_path, cache, base, only)
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
    only: frozenset[str] | None = None,
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
    plan_loaded = load_plan_into(report, plan_path)
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
        checker = _check_entries(report, display, entries, only)
    for entry in entries:
        results, problems, notes = report.found.pop(entry.id)
        report.results.extend(results)
        report.problems.extend(problems)
        report.notes.extend(notes)
    # The project's checks (rite coverage, the plan, the stage plans, media, retired ids, the
    # ledger): one signature, in one list (glossary.rules.project).
    from glossary.rules.project import PROJECT_CHECKS, ProjectContext

    context = ProjectContext(
        display,
        terms.parent,
        report,
        checker,
        plan_path,
        base,
        frozenset(_ids(loaded.data)),
        terms_read=not any(p.file == display for p in loaded.problems),
        only=only,
    )
    for check in PROJECT_CHECKS:
        report.problems.extend(check(context))
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


def _ids(data: object) -> set[str]:
    """Every id of a terms file's entries, those that failed validation too."""
    items = data if isinstance(data, list) else []
    return {raw["id"] for raw in items if isinstance(raw, dict) and isinstance(raw.get("id"), str)}


def _check_entries(
    report: Report, display: str, entries: list[Entry], only: frozenset[str] | None = None
) -> CitationChecker:
    """Check ``entries`` against ``report.index``: their findings go to ``report.found`` by id
    (``only``: the rules and readings of these entries alone, see :func:`check_project`)."""
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

    ruled = entries if only is None else [e for e in entries if e.id in only]
    yinyi, report.readings = all_readings(ruled, report.index.corpus, report.index)
    heads, owners = headwords(entries), variant_owners(entries)
    for entry in entries:
        report.found[entry.id] = _check_entry(
            report,
            display,
            entry,
            checker,
            authorities,
            yinyi,
            heads,
            owners,
            rules=only is None or entry.id in only,
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
    *,
    rules: bool = True,
) -> tuple[list[CitationResult], list[Problem], list[Problem]]:
    """One entry's citation results, problems and notes (the folds its quotes needed): its
    citations verified, then (``rules``) every check of :data:`glossary.rules.entry.ENTRY_CHECKS`."""
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
        if (note := fold_note(display, entry.id, i, citation, result)) is not None:
            notes.append(note)
    if not rules:
        return results, found, notes
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
