"""Hostile and broken input: no traceback, no half-written output, every line right, all text escaped.

- Every bad case of ``tests/cases/bad`` fails ``glossary build`` cleanly and leaves a previous
  build (and the Anki ledger beside the terms file) byte for byte as it was.
- 10 MB terms files, definitions and quotes are checked and reported, not crashed (slow).
- Markup in text fields is text: every output escapes it.

Everything runs against the fixture project (tests/fixtures). Several of these tests were written against bugs they found (scalars where lists belong,
refused tags, control characters, Unicode line separators, giant quotes); they now guard the fixes.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from conftest import MINI_CORPUS, MINI_TERMS, ROOT, make_project, search

from glossary.check import check_project
from glossary.cli import cli
from glossary.load import load_yaml
from glossary.problems import MAX_PROBLEMS

BAD = sorted((Path(__file__).parent / "cases" / "bad").glob("*.yaml"))
ENV = {"SOURCE_DATE_EPOCH": "1700000000"}
MB = 1024 * 1024


def run(*args: str | Path) -> Result:
    return CliRunner(env=ENV).invoke(cli, [str(a) for a in args])


def items_of(terms: Path) -> list[Any]:
    """The entries of a terms file as plain values."""
    data = load_yaml(terms).data
    assert isinstance(data, list), terms
    return data


def digest(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` (hidden ones included), by relative path."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def assert_clean_failure(result, name: str) -> None:
    assert result.exit_code == 1, result.output
    # CliRunner catches exceptions instead of printing them: a crash shows as result.exception.
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    assert name in result.output, result.output


# -- (a) a failed build never touches the previous one ---------------------------------------


@pytest.fixture(scope="module")
def previous_build(tmp_path_factory):
    """A project folder of the fixtures, its Anki ledger, and a good build of it."""
    root = tmp_path_factory.mktemp("robust")
    # A build writes anki-ledger.json next to the terms file: never next to the repository's.
    project = make_project(root / "project", plan=False, corpus=False)
    out = root / "dist"
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        project / "terms.yaml",
        "--corpus",
        MINI_CORPUS,
        "--out",
        out,
    )
    assert result.exit_code == 0, result.output
    assert (project / "anki-ledger.json").exists()
    return root, project, out


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_failed_build_leaves_previous_output_and_ledger_untouched(
    case: Path, previous_build
) -> None:
    root, project, out = previous_build
    # The case sits beside the project's ledger, so a build that wrongly went ahead would change it.
    terms = project / case.name
    shutil.copyfile(case, terms)
    try:
        before_out, before_project = digest(out), digest(project)
        siblings = sorted(p.name for p in root.iterdir())
        result = run(
            "build", "--record-ledger", "--terms", terms, "--corpus", MINI_CORPUS, "--out", out
        )
        assert_clean_failure(result, f"{case.name}:")
        assert "nothing written" in result.output
        assert digest(out) == before_out
        assert digest(project) == before_project
        # No staging or retired folders (.dist.new-*, .dist.old-*) are left behind.
        assert sorted(p.name for p in root.iterdir()) == siblings
    finally:
        terms.unlink()


@pytest.mark.parametrize("case", BAD, ids=lambda p: p.stem)
def test_bad_case_in_every_format(case: Path) -> None:
    for fmt in ("text", "json", "github"):
        result = run("check", "--terms", case, "--corpus", MINI_CORPUS, "--format", fmt)
        assert_clean_failure(result, case.name)
        if fmt == "json":
            data = json.loads(result.stdout)
            assert data["problems"] and all(
                isinstance(p["line"], int) and p["line"] >= 0 for p in data["problems"]
            )
        if fmt == "github":
            annotations = [
                line for line in result.stdout.splitlines() if line.startswith("::error")
            ]
            assert annotations and all(f"file={case}" in line for line in annotations)


# -- (b) 10 MB of input: reported, never crashed (slow) ------------------------------------


@pytest.mark.slow
def test_ten_megabytes_of_comment_around_the_terms(tmp_path: Path, index) -> None:
    terms = MINI_TERMS.read_text(encoding="utf-8")
    pad = "".join(f"# {n:07d} {'注' * 60}\n" for n in range(10 * MB // 190))
    big = tmp_path / "terms.yaml"
    big.write_text(pad + terms + pad, encoding="utf-8")
    assert big.stat().st_size > 10 * MB
    report = check_project(big, MINI_CORPUS, index=index)
    assert not report.failed(), "\n".join(map(str, report.problems[:5]))
    assert (
        report.total_terms
        == len(re.findall(r"^- id: ", terms, re.MULTILINE))
        == len(items_of(MINI_TERMS))
    )
    # Lines still count from the top of the file, through the padding.
    lines = big.read_text(encoding="utf-8").splitlines()
    for entry in report.entries:
        assert lines[entry.line - 1] == f"- id: {entry.id}"


@pytest.mark.slow
def test_ten_megabytes_of_small_broken_entries(tmp_path: Path) -> None:
    count = 2000
    body = "".join(
        f"- id: e-{i}\n  term: 楅\n  gloss: {'x' * 5300}\n  definition: no citations\n"
        for i in range(count)
    )
    big = tmp_path / "terms.yaml"
    big.write_text(body, encoding="utf-8")
    assert big.stat().st_size > 10 * MB
    result = run("check", "--terms", big, "--corpus", MINI_CORPUS)
    assert_clean_failure(result, "terms.yaml:")
    report = json.loads(
        run("check", "--terms", big, "--corpus", MINI_CORPUS, "--format", "json").output
    )
    total = len(report["problems"]) + report["problems_omitted"]
    # Each entry misses its citations and has a gloss longer than allowed: every problem is counted …
    assert total >= 2 * count
    # … the first MAX_PROBLEMS are listed (JSON too), the rest summed up in one line.
    lines = result.output.splitlines()
    assert len(report["problems"]) == MAX_PROBLEMS
    assert lines[MAX_PROBLEMS] == f"… and {total - MAX_PROBLEMS:,} more problem(s)"
    assert lines[0].startswith(f"{big}:1: e-0: ")


@pytest.mark.slow
def test_ten_megabyte_definition(tmp_path: Path, index) -> None:
    source = Path(__file__).parent / "cases" / "good" / "locus-forms.yaml"
    case = source.read_text(encoding="utf-8")
    big = tmp_path / "terms.yaml"
    big.write_text(
        case.replace("definition: The rack.", "definition: " + "The rack. " * MB, 1),
        encoding="utf-8",
    )
    assert big.stat().st_size > 10 * MB
    report = check_project(big, MINI_CORPUS, index=index)
    # Refused by its length (the schema's bound), named, not echoed; the other entries are still checked.
    [problem] = report.problems
    assert problem.path.endswith(".definition")
    assert (
        problem.message
        == f"{len('The rack. ' * MB) - 1:,} characters, more than the 5,000 allowed here"
    )
    citations = sum(len(item["citations"]) for item in items_of(source))
    assert report.verified == citations - len(items_of(source)[0]["citations"])


#: Only catches a hang (the test would otherwise wait forever); it is not a speed target.
HANG_GUARD = 600


def _check_in_subprocess(terms: Path) -> subprocess.CompletedProcess:
    """Run the real console command; a crash of the interpreter must not take pytest down."""
    try:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "glossary",
                "check",
                "--terms",
                str(terms),
                "--corpus",
                str(MINI_CORPUS),
            ],
            capture_output=True,
            text=True,
            timeout=HANG_GUARD,
            cwd=ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"glossary check hung (no end after {HANG_GUARD} s)")


def _one_quote(tmp_path: Path, quote: str) -> Path:
    terms = tmp_path / "terms.yaml"
    terms.write_text(
        "- id: bi\n  term: 楅\n  pinyin: bī\n  category: object\n  rites: [乡射礼]\n  gloss: arrow rack\n"
        f"  definition: The rack.\n  citations:\n    - quote: {quote}\n",
        encoding="utf-8",
    )
    return terms


@pytest.mark.slow
def test_ten_megabyte_quote_is_reported_not_crashed(tmp_path: Path) -> None:
    # Real text, repeated: 3.5 million characters in one quote, which cannot all be in the corpus.
    terms = _one_quote(tmp_path, "楅长如笴博三寸" * (10 * MB // 21))
    assert terms.stat().st_size > 10 * MB
    result = _check_in_subprocess(terms)
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert "Traceback" not in result.stderr
    assert (
        "terms.yaml:9: bi.citations[0].quote: Y109 too-long: 3,495,247 characters, more than the 4,000 allowed here"
        in result.stdout
    )


def test_long_unfound_quote_is_reported(tmp_path: Path) -> None:
    terms = _one_quote(tmp_path, "楅长如笴博三寸" * (3_000 // 7))
    result = run("check", "--terms", terms, "--corpus", MINI_CORPUS)
    assert_clean_failure(result, "terms.yaml:")
    assert f"{terms}:9: bi.citations[0].quote: Y206 quote-too-long: not found" in result.output


def test_a_quote_longer_than_the_schema_allows_is_refused_by_its_length(tmp_path: Path) -> None:
    quote = "楅长如笴博三寸" * (100_000 // 7)
    terms = _one_quote(tmp_path, quote)
    result = run("check", "--terms", terms, "--corpus", MINI_CORPUS)
    assert_clean_failure(result, "terms.yaml:")
    assert (
        f"{terms}:9: bi.citations[0].quote: Y109 too-long: {len(quote):,} characters, more than the 4,000 allowed here"
        in result.output
    )
    assert len(result.output) < 1000  # the quote itself is not echoed


# -- wrong shapes and odd characters: problems, not crashes, at the right lines ---------------

ENTRY = (
    "- id: bi\n  term: 楅\n  pinyin: bī\n  category: object\n  rites: [乡射礼]\n  gloss: arrow rack\n"
    "  definition: The rack.\n"
)
CITATIONS = "  citations:\n    - quote: 命弟子設楅乃設楅于中庭南當洗\n"


def _check_text(tmp_path: Path, text: str):
    terms = tmp_path / "terms.yaml"
    terms.write_text(text, encoding="utf-8", newline="")
    result = run("check", "--terms", terms, "--corpus", MINI_CORPUS)
    return terms, result


@pytest.mark.parametrize("field", ["related: 5", "media: 5", "citations: 5", "citations: true"])
def test_scalar_where_a_list_is_expected(tmp_path: Path, field: str) -> None:
    body = ENTRY + (CITATIONS if not field.startswith("citations") else "") + f"  {field}\n"
    terms, result = _check_text(tmp_path, body)
    assert_clean_failure(result, "terms.yaml:")
    line = body.splitlines().index(f"  {field}") + 1
    assert (
        f"{terms}:{line}: bi.{field.split(':')[0]}: Y103 wrong-type: expected a list"
        in result.output
    )


@pytest.mark.parametrize("field", ["related: si-ma", "media: media/x.png"])
def test_text_where_a_list_is_expected_is_one_problem(tmp_path: Path, field: str) -> None:
    terms, result = _check_text(tmp_path, ENTRY + CITATIONS + f"  {field}\n")
    assert_clean_failure(result, "terms.yaml:")
    problems = [line for line in result.output.splitlines() if line.startswith(f"{terms}:")]
    name, value = field.split(": ")
    assert problems == [
        f'{terms}:10: bi.{name}: Y103 wrong-type: expected a list, got text: "{value}"'
    ]


@pytest.mark.parametrize(
    "replace",
    [
        ("  term: 楅\n", '  term: !!python/object/apply:os.system ["echo pwned"]\n'),
        ("  rites: [乡射礼]\n", "  rites: !!set {乡射礼}\n"),
        ("  definition: The rack.\n", "  definition: The rack.\n  tags: !!python/tuple [a]\n"),
        ("    - quote: 命弟子設楅乃設楅于中庭南當洗\n", "    - quote: !!binary aGVsbG8=\n"),
    ],
    ids=["term", "rites", "tags", "quote"],
)
def test_refused_tag_on_a_complete_entry(tmp_path: Path, replace: tuple[str, str]) -> None:
    old, new = replace
    body = (ENTRY + CITATIONS).replace(old, new)
    _, result = _check_text(tmp_path, body)
    assert_clean_failure(result, "terms.yaml:")
    tag = search(r"(!!\S+)", new).group(1)
    assert f"unsupported YAML tag {tag}" in result.output


def test_complex_key_and_missing_fields(tmp_path: Path) -> None:
    terms, result = _check_text(tmp_path, "- id: bi\n  ? [a]\n  : 4\n")
    assert_clean_failure(result, "terms.yaml:")
    assert f"{terms}:2: bi: Y009 key-not-text: mapping keys must be plain text" in result.output
    assert "missing field 'term'" in result.output


def test_control_character_is_reported_on_its_line(tmp_path: Path) -> None:
    terms, result = _check_text(tmp_path, ENTRY.replace("The rack.", "The\x07rack.") + CITATIONS)
    assert_clean_failure(result, "terms.yaml:")
    assert f"{terms}:7: " in result.output


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"], ids=["LS", "PS", "NEL"])
def test_unicode_line_separator_inside_a_value_is_refused_at_its_line(
    tmp_path: Path, separator: str
) -> None:
    # YAML reads it as a line break, editors and `glossary fmt` (YAML 1.2) do not: refused, not guessed.
    body = (
        ENTRY.replace("  definition: The rack.", f'  definition: "The{separator}rack."') + CITATIONS
    )
    terms, result = _check_text(tmp_path, body)
    assert_clean_failure(result, "terms.yaml:")
    assert f"{terms}:7: Y004 unusual-line-break: U+{ord(separator):04X} (" in result.output
    assert "is a line break to YAML but not to editors" in result.output


# -- (c) markup in text fields is escaped in every output --------------------------------------

SCRIPT = "<script>alert(1)</script>"
BOLD = "<b>x</b>"
HOSTILE = f"""\
- id: bi
  term: 楅
  traditional: 楅{SCRIPT}
  pinyin: bī
  category: object
  rites: [乡射礼]
  gloss: {SCRIPT} arrow rack {BOLD}
  definition: The {BOLD} rack {SCRIPT} & "q" 'a' </div> <img src=x onerror=alert(2)>
  definition_zh: {SCRIPT}盛矢之器{BOLD}
  citations:
    - quote: 命弟子設楅乃設楅于中庭南當洗
      note: {SCRIPT} {BOLD}
    - quote: 楅盛矢之器形如交龍前後兩首
  tags: [archery]
- id: si-ma
  term: 司马
  pinyin: sī mǎ
  category: role
  rites: [乡射礼]
  gloss: marshal {BOLD}
  definition: The director of the archery {SCRIPT}.
  citations:
    - quote: 司正為司馬
  related: [bi]
"""
RAW = (SCRIPT, "<script>", BOLD, "<img src=x")


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    terms = make_project(root / "project", HOSTILE, plan=False, corpus=False) / "terms.yaml"
    out = root / "dist"
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        terms,
        "--corpus",
        MINI_CORPUS,
        "--out",
        out,
        "--sheet",
        "乡射礼",
    )
    assert result.exit_code == 0, result.output
    return out


def assert_escaped(text: str, where: str) -> None:
    for raw in RAW:
        assert raw not in text, f"{where}: raw {raw!r}"
    assert html.escape(SCRIPT, quote=False) in text or "&lt;script&gt;" in text, (
        f"{where}: the text is gone"
    )


def test_printed_html_escapes_markup(hostile_build: Path) -> None:
    import html5lib

    pages = sorted(hostile_build.glob("*.html"))
    assert {p.name for p in pages} >= {"glossary.html", "sheet-xiangshe.html"}
    scripts = {"glossary.html": "search.js", "sheet-xiangshe.html": "sheet.js"}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        # The page's one script of its own (search, tapping answers) is the template's, unchanged;
        # everything else must hold no raw markup.
        own = (ROOT / "glossary" / "templates" / "print" / scripts[page.name]).read_text(
            encoding="utf-8"
        )
        start = text.rindex("<script>")
        assert text[start:].removeprefix("<script>\n").startswith(own.rstrip("\n")), page.name
        if page.name == "glossary.html":
            # Before it: the vendored search library (checked against its checksums) and the
            # search data, JSON in which no "<" can close the element.
            from glossary.render.search_index import vendored_scripts

            vendored = text.rindex("<script>", 0, start)
            assert text[vendored:start].removeprefix("<script>\n").startswith(vendored_scripts())
            opening = '<script type="application/json" id="search-data">'
            data_at = text.index(opening)
            data = text[data_at + len(opening) : text.index("</script>", data_at)]
            assert "<" not in data
            assert any(SCRIPT in e["t"] or SCRIPT in e["h"] for e in json.loads(data)["entries"])
            assert text.count("<script") == 3, page.name
            text = text[:data_at]
        else:
            assert text.count("<script") == 1, page.name
            text = text[:start]
        assert_escaped(text, page.name)
        tree = html5lib.parse(text, namespaceHTMLElements=False)
        assert not [s for s in tree.iter("script") if "alert" in (s.text or "")], page.name
        assert not [e for e in tree.iter() if any(k.startswith("on") for k in e.attrib)], page.name
        if page.name == "glossary.html":
            shown = "".join(tree.itertext())
            assert f"{SCRIPT} arrow rack {BOLD}" in shown  # escaped, so shown as written


def test_terms_json_round_trips_markup(hostile_build: Path) -> None:
    data = json.loads((hostile_build / "terms.json").read_text(encoding="utf-8"))
    entries = {t["id"]: t for t in data["terms"]}
    assert entries["bi"]["gloss"] == f"{SCRIPT} arrow rack {BOLD}"
    assert entries["bi"]["definition"].startswith(f"The {BOLD} rack {SCRIPT} & \"q\" 'a' </div>")
    assert entries["bi"]["definition_zh"] == f"{SCRIPT}盛矢之器{BOLD}"
    assert entries["bi"]["citations"][0]["note"] == f"{SCRIPT} {BOLD}"
    assert entries["si-ma"]["definition"] == f"The director of the archery {SCRIPT}."


def test_csv_escapes_markup_in_html_columns(hostile_build: Path) -> None:
    text = (hostile_build / "yili-glossary.csv").read_text(encoding="utf-8")
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert "#html:true" in header
    tags_column = next(
        int(line.split(":")[1]) for line in header if line.startswith("#tags column:")
    )
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    rows = list(csv.reader(io.StringIO(body)))
    assert rows
    # Tags are plain Anki tags, not HTML (no card template shows {{Tags}}); every other column is HTML.
    fields = "\n".join(cell for row in rows for i, cell in enumerate(row, 1) if i != tags_column)
    assert_escaped(fields, "yili-glossary.csv")


def test_anki_notes_escape_markup(hostile_build: Path, tmp_path: Path) -> None:
    packages = sorted(hostile_build.glob("*.apkg"))
    assert "yili-glossary.apkg" in {p.name for p in packages}
    for package in packages:
        with zipfile.ZipFile(package) as archive:
            (tmp_path / package.stem).write_bytes(archive.read("collection.anki2"))
        with sqlite3.connect(tmp_path / package.stem) as db:
            fields = [row[0] for row in db.execute("SELECT flds FROM notes")]
        if package.name in ("yili-glossary.apkg", "yili-xiangshe.apkg"):
            assert fields
        for flds in fields:
            for raw in RAW:
                assert raw not in flds, f"{package.name}: raw {raw!r} in a note"
        if package.name == "yili-glossary.apkg":
            assert any("&lt;script&gt;alert(1)&lt;/script&gt; arrow rack" in f for f in fields)
