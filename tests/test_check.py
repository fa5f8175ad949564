"""`check_project` (glossary/check.py) on the fixture project: counts, every problem in one run.

Each test breaks the fixture glossary or plan in one known way; the expected line and path
are found in the broken text itself, and the expected counts are read from terms-mini.yaml.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, MINI_PLAN, make_project, mini_entries, set_field

from glossary.check import check_project
from glossary.index import CorpusIndex
from glossary.load import load_bytes
from glossary.normalize import normalize
from glossary.plan import load_plan
from glossary.problems import ERROR, WARNING
from glossary.vocab import vocabulary


def check(project: Path, index=None):
    return check_project(project / "terms.yaml", project / "corpus", index=index)


def citation_field(text: str, entry_id: str, number: int, field: str, value: str) -> str:
    """``text`` with one field of one citation set to ``value`` (added under its quote if absent)."""
    loaded = load_bytes(text.encode("utf-8"), "terms.yaml")
    data = loaded.data
    assert isinstance(data, list)
    position = next(i for i, item in enumerate(data) if item["id"] == entry_id)
    lines = text.splitlines(keepends=True)
    quote_line = loaded.lines[(position, "citations", number, "quote")] - 1
    indent = " " * lines[quote_line].index("quote:")
    if field in data[position]["citations"][number]:
        lines[loaded.lines[(position, "citations", number, field)] - 1] = (
            f"{indent}{field}: {value}\n"
        )
    else:
        lines.insert(quote_line + 1, f"{indent}{field}: {value}\n")
    return "".join(lines)


def line_of(text: str, fragment: str) -> int:
    [line] = [i for i, row in enumerate(text.split("\n"), 1) if fragment in row]
    return line


def errors(report) -> list[tuple[int, str, str]]:
    return [(p.line, p.path, p.message) for p in report.problems if p.severity == ERROR]


def test_the_fixture_project_verifies(mini_project: Path, index) -> None:
    report = check(mini_project, index)
    assert report.problems == [], "\n".join(map(str, report.problems))
    assert not report.failed(strict=True)
    entries = mini_entries()
    assert report.total_terms == len(report.entries) == len(entries)
    assert [e.id for e in report.entries] == list(entries)
    assert report.citations == report.verified == sum(len(e.citations) for e in entries.values())
    for entry in entries.values():
        results = report.results_for(entry.id)
        assert [r.index for r in results] == list(range(len(entry.citations)))
        assert all(r.verified and r.loci for r in results)
    plan, _ = load_plan(MINI_PLAN)
    assert report.plan == plan and plan is not None
    assert {place: len(loci) for place, loci in report.plan_loci.items()} == {
        place.id: len(place.citations) for place in plan.places
    }


def test_without_an_index_the_corpus_is_opened_by_the_check(mini_project: Path, index) -> None:
    report = check(mini_project)
    assert isinstance(report.index, CorpusIndex) and report.index is not index
    assert report.index.text == index.text
    assert report.verified == report.citations and not report.problems


def test_a_misquote_is_not_found_and_the_original_is_named(mini_project: Path, index) -> None:
    entry = mini_entries()["si-she"]
    quote = entry.citations[1].quote
    wrong = quote.replace("事", "士", 1)
    assert wrong != quote
    text = (mini_project / "terms.yaml").read_text(encoding="utf-8")
    assert text.count(f"quote: {quote}\n") == 1
    (mini_project / "terms.yaml").write_text(
        text.replace(f"quote: {quote}\n", f"quote: {wrong}\n"), encoding="utf-8"
    )
    report = check(mini_project, index)
    # (With its passage gone, what the entry claims may rest on nothing: the apparatus rules say so apart.)
    [problem] = [p for p in report.problems if ".citations[" in p.path]
    assert (problem.line, problem.path) == (
        line_of(text, f"quote: {quote}"),
        "si-she.citations[1].quote",
    )
    assert problem.message == "not found in the corpus"
    assert f"第{quote.index('事') + 1}字: 士 ≠ 事（原文）" in problem.hints[0]
    assert report.results_for("si-she")[1].status == "not-found"
    assert report.verified == report.citations - 1


def test_a_locus_mismatch_names_the_field_and_where_the_quote_is(mini_project: Path, index) -> None:
    entry = mini_entries()["zu-ku"]
    assert entry.citations[0].page == "9b"
    text = (mini_project / "terms.yaml").read_text(encoding="utf-8")
    broken = citation_field(text, "zu-ku", 0, "page", "9a")
    (mini_project / "terms.yaml").write_text(broken, encoding="utf-8")
    report = check(mini_project, index)
    [problem] = report.problems
    loaded = load_bytes(broken.encode("utf-8"), "terms.yaml")
    position = list(mini_entries()).index("zu-ku")
    assert problem.line == loaded.lines[(position, "citations", 0, "page")]
    assert broken.split("\n")[problem.line - 1].strip() == "page: 9a"
    assert problem.path == "zu-ku.citations[0].page"
    assert (
        problem.message.startswith("the quote is in the corpus, but not at ")
        and "page=9a" in problem.message
    )
    assert [h for h in problem.hints if h.startswith("found at: ") and "p.9b" in h]
    assert report.results_for("zu-ku")[0].status == "locus-mismatch"


def test_an_unknown_rite_is_reported_with_a_suggestion(mini_project: Path, index) -> None:
    entry = mini_entries()["ku"]
    names = [rite.simplified for rite in entry.rites]
    text = set_field(
        (mini_project / "terms.yaml").read_text(encoding="utf-8"), "ku", "rites", [*names, "士虞"]
    )
    (mini_project / "terms.yaml").write_text(text, encoding="utf-8")
    report = check(mini_project, index)
    [(line, path, message)] = errors(report)
    # At the line that lists it, named by its place in the list.
    assert (line, path) == (line_of(text, '"士虞"'), f"ku.rites[{len(entry.rites)}]")
    said = re.fullmatch(r"unknown rite '士虞' \(did you mean '(.+)'\?\); the rites (.+)", message)
    assert said is not None
    suggestion = said.group(1)
    assert normalize(suggestion) == normalize(entry.rites[0].simplified)
    # Every valid name is listed, in both scripts and English.
    assert all(
        f"{r.simplified} ({r.traditional}, {r.english})" in said.group(2)
        for r in vocabulary().rites
    )


def test_a_rite_may_be_named_in_english(mini_project: Path, index) -> None:
    """vocab.yaml's English names (any case, with or without "The") are the rite's names too."""
    entry = mini_entries()["ku"]
    english = [rite.english for rite in entry.rites]
    english[0] = english[0].lower().removeprefix("the ")
    text = set_field(
        (mini_project / "terms.yaml").read_text(encoding="utf-8"), "ku", "rites", english
    )
    (mini_project / "terms.yaml").write_text(text, encoding="utf-8")
    report = check(mini_project, index)
    assert not errors(report)
    assert next(e for e in report.entries if e.id == "ku").rites == entry.rites


def test_every_problem_is_reported_in_one_run_in_order(mini_project: Path, index) -> None:
    entries = mini_entries()
    text = (mini_project / "terms.yaml").read_text(encoding="utf-8")
    text = citation_field(text, "zu-ku", 0, "page", "9a")  # a locus mismatch
    text = set_field(
        text, "ku", "rites", [r.simplified for r in entries["ku"].rites] + ["士虞"]
    )  # an unknown rite
    text = set_field(text, "tan", "pinyin", "tān")  # a reading to look at twice
    text = citation_field(text, "bi", 0, "work", "周禮")  # an unknown work
    misquoted = entries["zhu"].citations[0].quote
    text = text.replace(
        f"quote: {misquoted}\n", f"quote: {misquoted[:-1]}鼎\n"
    )  # a misquote, last entry
    (mini_project / "terms.yaml").write_text(text, encoding="utf-8")
    plan = (mini_project / "plan.yaml").read_text(encoding="utf-8")
    (mini_project / "plan.yaml").write_text(
        plan.replace("term: tang", "term: tang-hall"), encoding="utf-8"
    )
    report = check(mini_project, index)
    terms_file, plan_file = str(mini_project / "terms.yaml"), str(mini_project / "plan.yaml")
    found = {(p.file, p.path, p.severity) for p in report.problems}
    assert found == {
        (terms_file, "bi.citations[0].work", ERROR),
        (terms_file, "tan.pinyin", WARNING),
        (terms_file, "ku.rites[1]", ERROR),
        (terms_file, "zu-ku.citations[0].page", ERROR),
        (terms_file, "zhu.citations[0].quote", ERROR),
        (plan_file, "tang.term", ERROR),
    }
    assert report.problems == sorted(report.problems)
    assert [p.file for p in report.problems] == sorted(p.file for p in report.problems)
    for problem in report.problems:
        assert problem.line >= 1
    in_terms = [p.line for p in report.problems if p.file == terms_file]
    assert in_terms == sorted(in_terms)
    assert report.failed() and report.verified == report.citations - 3


def test_warnings_fail_only_a_strict_check(mini_project: Path, index) -> None:
    text = set_field(
        (mini_project / "terms.yaml").read_text(encoding="utf-8"), "ku", "pinyin", "kǔ"
    )
    (mini_project / "terms.yaml").write_text(text, encoding="utf-8")
    report = check(mini_project, index)
    [problem] = report.problems
    assert (problem.severity, problem.path, problem.line) == (
        WARNING,
        "ku.pinyin",
        line_of(text, '"kǔ"'),
    )
    assert not report.failed() and report.failed(strict=True)
    assert report.verified == report.citations


def test_the_plan_beside_the_terms_is_checked(mini_project: Path, index) -> None:
    plan = (mini_project / "plan.yaml").read_text(encoding="utf-8")
    quote = "則西階在西楹之西矣"
    assert plan.count(quote) == 1
    (mini_project / "plan.yaml").write_text(
        plan.replace(quote, "則西階在東楹之西矣"), encoding="utf-8"
    )
    report = check(mini_project, index)
    [problem] = report.problems
    assert problem.file == str(mini_project / "plan.yaml")
    assert (problem.line, problem.path) == (line_of(plan, quote), "xi-jie.citations[0].quote")
    assert "第5字: 東 ≠ 西（原文）" in problem.hints[0]
    assert report.plan_loci["xi-jie"] == ((),)  # the place is drawn, its citation unresolved
    assert report.verified == report.citations  # the terms themselves are fine


def test_without_a_plan_there_are_no_plan_checks(mini_project: Path, index) -> None:
    (mini_project / "plan.yaml").unlink()
    report = check(mini_project, index)
    assert report.plan is None and report.plan_loci == {} and not report.problems


def test_a_missing_corpus_is_one_problem_and_entries_are_still_validated(
    mini_project: Path, tmp_path: Path
) -> None:
    report = check_project(mini_project / "terms.yaml", tmp_path / "nowhere")
    [problem] = report.problems
    assert (
        problem.file == str(tmp_path / "nowhere")
        and "cannot read the corpus manifest" in problem.message
    )
    assert [e.id for e in report.entries] == list(mini_entries())
    assert report.results == [] and report.index is None and report.failed()


def test_a_changed_corpus_file_is_refused(mini_project: Path) -> None:
    seed = mini_project / "corpus" / "000_b6ac9449aa5994ba.txt"
    seed.write_bytes(seed.read_bytes().replace("楅长如笴".encode(), "楅长如竿".encode(), 1))
    report = check(mini_project)
    [problem] = report.problems
    assert "SHA256SUMS" in problem.message and str(seed) in problem.message
    assert report.results == []


def test_report_as_json(mini_project: Path, index) -> None:
    report = check(mini_project, index)
    data = report.to_json()
    assert (data["terms"], data["citations"], data["verified"]) == (
        report.total_terms,
        report.citations,
        report.verified,
    )
    assert [(r["id"], r["citation"]) for r in data["results"]] == [
        (r.entry_id, r.index) for r in report.results
    ]
    assert all(r["status"] == "verified" and r["loci"] for r in data["results"])
    assert all("context" not in locus for r in data["results"] for locus in r["loci"])


# -- a whole check reused (what `glossary check` does with its cache) -----------------------------


def _broken(project: Path) -> str:
    """The fixture glossary with an error, a warning and a fold note, and a broken plan."""
    entries = mini_entries()
    text = (project / "terms.yaml").read_text(encoding="utf-8")
    text = citation_field(text, "zu-ku", 0, "page", "9a")
    text = set_field(text, "tan", "pinyin", "tān")
    text = set_field(text, "ku", "rites", [r.simplified for r in entries["ku"].rites] + ["士虞"])
    (project / "terms.yaml").write_text(text, encoding="utf-8")
    plan = (project / "plan.yaml").read_text(encoding="utf-8")
    (project / "plan.yaml").write_text(
        plan.replace("term: tang", "term: tang-hall"), encoding="utf-8"
    )
    return text


def _said(report) -> tuple:
    """What `glossary check` prints of a report."""
    return (
        report.problems,
        report.notes,
        [(r.entry_id, r.index, r.status) for r in report.results],
        report.total_terms,
        report.citations,
        report.verified,
    )


def _reused(project: Path):
    return check_project(project / "terms.yaml", project / "corpus", reuse=True)


def _not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    import glossary.check

    monkeypatch.setattr(
        glossary.check, "_check_project", lambda *a: pytest.fail("the project was checked")
    )


def test_an_unchanged_project_says_what_the_first_check_said_without_checking(
    mini_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from glossary.cache import IndexCache

    _broken(mini_project)
    full = check(mini_project)
    assert {p.path for p in full.problems} >= {"zu-ku.citations[0].page", "tan.pinyin", "tang.term"}
    assert _said(_reused(mini_project)) == _said(full)  # the first run keeps what it found
    # Nothing changed: the second run neither checks nor opens the corpus index.
    _not_checked(monkeypatch)
    monkeypatch.setattr(IndexCache, "open", lambda self, root: pytest.fail("the index was opened"))
    again = _reused(mini_project)
    assert _said(again) == _said(full) and again.index is None


@pytest.mark.parametrize(
    "change",
    ["terms", "plan", "retired", "ledger", "licences", "media file", "corpus"],
)
def test_any_changed_input_checks_everything_again(
    mini_project: Path, change: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import glossary.check

    text = _broken(mini_project)
    first = _reused(mini_project)
    checked: list[Path] = []
    real = glossary.check._check_project

    def counted(terms: Path, *rest: Any) -> Any:
        checked.append(terms)
        return real(terms, *rest)

    monkeypatch.setattr(glossary.check, "_check_project", counted)
    edited = ""
    if change == "terms":
        # One gloss changed and three lines added above everything: every line moves.
        edited = "# one\n# two\n# three\n" + set_field(text, "bi", "gloss", "an arrow rack, edited")
        (mini_project / "terms.yaml").write_text(edited, encoding="utf-8")
    elif change == "plan":
        plan = mini_project / "plan.yaml"
        plan.write_text(plan.read_text(encoding="utf-8").replace("term: tang-hall", "term: tang"))
    elif change == "retired":
        (mini_project / "retired.yaml").write_text("- {id: bi, into: bogus}\n", encoding="utf-8")
    elif change == "ledger":
        (mini_project / "anki-ledger.json").write_text("{}", encoding="utf-8")
    elif change == "licences":
        (mini_project / "media").mkdir(exist_ok=True)
        (mini_project / "media" / "licenses.yaml").write_text("- nonsense\n", encoding="utf-8")
    elif change == "media file":
        (mini_project / "media").mkdir(exist_ok=True)
        (mini_project / "media" / "unused.png").write_bytes(b"png")
    else:  # a deliberate corpus change (file and checksum): what was verified is looked for again
        seed = mini_project / "corpus" / "000_b6ac9449aa5994ba.txt"
        old = hashlib.sha256(seed.read_bytes()).hexdigest()
        seed.write_bytes(seed.read_bytes().replace("楅长如笴".encode(), "楅长如竿".encode(), 1))
        sums = mini_project / "corpus" / "SHA256SUMS"
        sums.write_text(
            sums.read_text(encoding="utf-8").replace(
                old, hashlib.sha256(seed.read_bytes()).hexdigest()
            ),
            encoding="utf-8",
        )
    after = _reused(mini_project)
    assert len(checked) == 1 and _said(after) == _said(check(mini_project))
    if (
        change != "ledger"
    ):  # in the key (a check may come to read it); no message depends on it today
        assert _said(after) != _said(first)
    if change == "terms":
        assert line_of(edited, '"tān"') in [
            p.line for p in after.problems if p.path == "tan.pinyin"
        ]
    if change == "corpus":
        assert after.verified < first.verified


def test_media_behind_a_link_is_another_key(mini_project: Path) -> None:
    from glossary.check import run_key

    def key() -> str:
        terms = mini_project / "terms.yaml"
        return run_key(terms, mini_project / "corpus", mini_project / "plan.yaml")

    (mini_project / "media").mkdir()
    (mini_project / "media" / "a.png").write_bytes(b"png")
    before = key()
    # Its size (a media file may be too large; its bytes are not read).
    (mini_project / "media" / "a.png").write_bytes(b"png!")
    assert key() != before
    before = key()
    # The same names and bytes, behind a symbolic link (which a media path may not pass).
    (mini_project / "media").rename(mini_project / "elsewhere")
    (mini_project / "media").symlink_to(mini_project / "elsewhere")
    assert key() != before


def test_the_ledger_to_extend_is_in_the_key(mini_project: Path, monkeypatch) -> None:
    import glossary.published
    from glossary.check import run_key
    from glossary.render.anki.ledger import parse_ledger

    def key(base: str | None = None) -> str:
        terms = mini_project / "terms.yaml"
        return run_key(terms, mini_project / "corpus", mini_project / "plan.yaml", base)

    assert glossary.published.base_ledger(mini_project, None) is None  # not a git checkout
    keys = {key()}
    # A ledger committed at HEAD, then the same ledger at another base revision.
    for name in ("HEAD", "0123abcd"):
        found = (parse_ledger(b"{}"), name)
        monkeypatch.setattr(glossary.published, "base_ledger", lambda folder, base, f=found: f)
        keys.add(key())
    assert len(keys) == 3


def test_the_same_files_under_another_path_are_checked_again(
    mini_project: Path, tmp_path: Path
) -> None:
    import shutil

    first = _reused(mini_project)
    other = shutil.copytree(mini_project, tmp_path / "other")
    again = _reused(other)
    # Its messages name the other path.
    assert again.terms_file != first.terms_file and _said(again)[2:] == _said(first)[2:]


def test_json_and_builds_always_check(mini_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _reused(mini_project)
    report = check(mini_project)  # reuse is off: the loci are needed
    assert report.index is not None and report.entries and all(r.loci for r in report.results)


def test_a_damaged_results_file_is_only_a_miss(mini_project: Path, cache_dir: Path) -> None:
    _broken(mini_project)
    first = _reused(mini_project)
    for path in cache_dir.glob("check-*.json"):
        path.write_bytes(path.read_bytes()[:-20])
    assert _said(_reused(mini_project)) == _said(first)


def test_a_preview_locates_every_citation_but_runs_only_its_own_entries_rules(
    tmp_path: Path,
) -> None:
    """``only`` (what `glossary preview` asks): every citation located as a check locates it,
    the other entries' rule warnings and readings left out, the previewed entry's kept."""
    text = set_field(
        (FIXTURES / "terms-mini.yaml").read_text(encoding="utf-8"), "tang", "pinyin", "zhī"
    )
    project = make_project(tmp_path / "project", text)
    whole = check(project)
    assert {p.code for p in whole.problems if p.path.startswith("tang.")} == {"Y403", "Y409"}
    for only, kept in ((frozenset({"bi"}), set()), (frozenset({"tang"}), {"Y403", "Y409"})):
        part = check_project(project / "terms.yaml", project / "corpus", only=only)
        assert {p.code for p in part.problems if p.path.startswith("tang.")} == kept
        assert set(part.readings) == set(only)
        assert [(r.entry_id, r.index, r.status, r.loci) for r in part.results] == [
            (r.entry_id, r.index, r.status, r.loci) for r in whole.results
        ]
