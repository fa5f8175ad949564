"""The printed glossary: valid, escaped HTML; printed by real headless Chromium (mini project).

The HTML tests build without a PDF; the tests that print with Chromium are marked slow.
"""
from __future__ import annotations

import html
import html.parser
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import html5lib
import pytest
from click.testing import CliRunner
from conftest import MINI_PLAN, ROOT, make_project, mini_entries, raw, set_field
from pypdf import PdfReader

from glossary.check import check_project
from glossary.cli import cli
from glossary.normalize import normalize
from glossary.plan import load_plan

ARTEFACTS = ROOT / "test-artifacts"
CJK = re.compile(r"[\u3400-\u9fff\U00020000-\U0002ffff]")


def build(out: Path, *args: str, terms: str | None = None, plan: bool = True, env: dict | None = None):
    """Build a project of the fixtures (``terms``: another terms text) into ``out``."""
    project = make_project(out.parent / f"{out.name}-project", terms, plan=plan)
    result = CliRunner(env={"SOURCE_DATE_EPOCH": "1700000000", **(env or {})}).invoke(
        cli, ["build", "--terms", str(project / "terms.yaml"), "--corpus", str(project / "corpus"),
              "--out", str(out), *args]
    )
    return result


def radical_map() -> dict[int, str]:
    """Radical code points → their equivalent unified ideograph (Unicode's EquivalentUnifiedIdeograph).

    CJK fonts share one glyph between an ideograph and its radical form, and Chromium's PDF
    text layer may then name the radical (佐⻝ for 佐食): tests read radicals as ideographs.
    """
    table = {}
    for line in (ROOT / "data" / "unihan" / "EquivalentUnifiedIdeograph.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            codes, ideograph = (part.strip() for part in line.split(";"))
            first, _, last = codes.partition("..")
            for code in range(int(first, 16), int(last or first, 16) + 1):
                table[code] = chr(int(ideograph, 16))
    return table


RADICALS = radical_map()


def readable(text: str) -> str:
    """PDF text as matching keys: radicals as ideographs, then the glossary's own folding."""
    return normalize(unicodedata.normalize("NFKC", text.translate(RADICALS)))


@pytest.fixture(scope="module")
def entries():
    return list(mini_entries().values())


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The HTML outputs of the fixture project (no PDF)."""
    out = tmp_path_factory.mktemp("html") / "dist"
    result = build(out, "--sheet", "乡射礼")
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> Path:
    """The outputs printed to PDF by Chromium; PNGs of the first pages are kept in test-artifacts/."""
    out = tmp_path_factory.mktemp("print") / "dist"
    result = build(out, "--pdf", "--sheet", "乡射礼")
    assert result.exit_code == 0, result.output
    ARTEFACTS.mkdir(exist_ok=True)
    shutil.copy(out / "glossary.pdf", ARTEFACTS / "glossary.pdf")
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-r", "70", "-f", "1", "-l", "4", "-png", str(out / "glossary.pdf"),
                        str(ARTEFACTS / "glossary-page")], check=True)
    return out


@pytest.fixture(scope="module")
def raw_pages(printed: Path) -> list[str]:
    return [re.sub(r"\s+", "", page.extract_text() or "") for page in PdfReader(printed / "glossary.pdf").pages]


@pytest.fixture(scope="module")
def pages(printed: Path) -> list[str]:
    return [readable(page.extract_text() or "") for page in PdfReader(printed / "glossary.pdf").pages]


class LangChecker(html.parser.HTMLParser):
    """Records CJK text that has no Chinese lang on itself or an ancestor."""

    VOID = {"br", "meta", "hr", "img", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.unmarked: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        lang = dict(attrs).get("lang")
        self.stack.append(lang if lang is not None else (self.stack[-1] if self.stack else ""))

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if CJK.search(data) and not (self.stack and self.stack[-1].startswith("zh")):
            self.unmarked.append(data.strip()[:40])


def test_html_is_valid_and_self_contained(built: Path) -> None:
    for name in ("glossary.html", "sheet-xiangshe.html"):
        text = (built / name).read_text(encoding="utf-8")
        html5lib.HTMLParser(strict=True).parse(text)  # raises on any parse error
        assert "<link" not in text and "src=" not in text  # nothing to fetch


def test_chinese_text_is_marked_with_lang(built: Path) -> None:
    text = (built / "glossary.html").read_text(encoding="utf-8")
    body = text[text.index("<body>"):]
    checker = LangChecker()
    checker.feed(body)
    assert checker.unmarked == []


def article(text: str, entry_id: str) -> str:
    start = text.index(f'<article class="entry" id="e-{entry_id}">')
    return text[start : text.index("</article>", start)]


def test_every_entry_with_locus_concordance_and_links(built: Path, entries, index) -> None:
    text = (built / "glossary.html").read_text(encoding="utf-8")
    project = built.parent / f"{built.name}-project"
    report = check_project(project / "terms.yaml", project / "corpus", index=index)
    checked = 0
    for entry in entries:
        printed_entry = article(text, entry.id)
        shown = html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<rt[^>]*>.*?</rt>", "", printed_entry)))
        assert entry.gloss in shown and entry.term in shown
        for related in entry.related:
            assert f'href="#e-{related}"' in printed_entry
        # Each citation with its first two resolved places: page id and section as the check found them.
        for result in report.results_for(entry.id):
            for locus in result.loci[:2]:
                if locus.page_id:
                    assert locus.page_id in printed_entry, (entry.id, locus.page_id)
                    checked += 1
                if locus.section:
                    assert f'〈<span lang="zh">{locus.section}</span>〉' in printed_entry, (entry.id, locus.section)
    assert checked  # the fixture's citations do resolve to pages with page ids
    assert "Occurrences in the corpus" in text
    for index_id in ("index-pinyin", "index-radical", "index-gloss", "index-category"):
        assert f'id="{index_id}"' in text


def test_text_is_escaped(tmp_path: Path) -> None:
    source = set_field((ROOT / "tests" / "fixtures" / "terms-mini.yaml").read_text(encoding="utf-8"),
                       "bi", "gloss", "<script>alert(1)</script>")
    result = build(tmp_path / "dist", terms=source)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "dist" / "glossary.html").read_text(encoding="utf-8")
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text


@pytest.mark.slow
def test_pdf_holds_every_headword(pages: list[str], entries) -> None:
    everything = "".join(pages)
    missing = [e.term for e in entries if normalize(e.term) not in everything]
    assert missing == []


@pytest.mark.slow
def test_no_entry_is_split_across_pages(printed: Path, raw_pages: list[str], entries) -> None:
    text = (printed / "glossary.html").read_text(encoding="utf-8")
    numbers = dict(re.findall(r'<article class="entry" id="e-([a-z0-9-]+)">\s*<header>\s*<span class="num">§(\d+)<', text))
    assert len(numbers) == len(entries)
    first_page: dict[int, int] = {}
    for i, page in enumerate(raw_pages):
        for number in re.findall(r"§(\d+)", page):
            first_page.setdefault(int(number), i)  # entries come before the indexes that cite them
    for entry in entries:
        start = first_page[int(numbers[entry.id])]
        end = [i for i, page in enumerate(raw_pages) if re.search(rf"id:{re.escape(entry.id)}(?![a-z-])", page)]
        assert end == [start], (entry.id, start, end)


@pytest.mark.slow
def test_fonts_are_embedded(printed: Path) -> None:
    """Every font travels with the PDF: a font file, or (Chromium's way with CFF fonts such as
    Noto CJK) a Type 3 font whose glyphs are drawn by embedded procedures."""
    reader = PdfReader(printed / "glossary.pdf")
    embedded: list[bool] = []
    type3 = 0
    for page in reader.pages[:12]:
        for font in (page.get("/Resources") or {}).get("/Font", {}).values():
            font = font.get_object()
            if font.get("/Subtype") == "/Type3":
                type3 += 1
                embedded.append("/CharProcs" in font and len(font["/CharProcs"]) > 0)
                continue
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target["/FontDescriptor"].get_object()
            embedded.append(any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")))
    assert embedded and all(embedded)
    assert type3 > 0 or len(embedded) > 2


@pytest.mark.slow
def test_page_size_a4_and_letter(printed: Path, tmp_path: Path) -> None:
    box = PdfReader(printed / "glossary.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    result = build(tmp_path / "letter", "--pdf", "--paper", "letter")
    assert result.exit_code == 0, result.output
    box = PdfReader(tmp_path / "letter" / "glossary.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


@pytest.mark.slow
def test_study_sheet_is_compact(printed: Path, entries) -> None:
    reader = PdfReader(printed / "sheet-xiangshe.pdf")
    sheet_entries = [entry for entry in entries if "xiangshe" in {rite.id for rite in entry.rites}]
    assert sheet_entries
    assert len(reader.pages) <= 6
    text = readable("".join(p.extract_text() for p in reader.pages))
    for entry in sheet_entries:
        assert normalize(entry.term) in text


def test_pdf_without_chromium_names_the_debian_package(tmp_path: Path) -> None:
    result = build(tmp_path / "dist", "--pdf", env={"CHROMIUM": "no-such-browser"})
    assert result.exit_code == 1
    assert "Debian package `chromium`" in result.output
    assert not (tmp_path / "dist").exists()


def test_plan_and_order_pages(built: Path, entries) -> None:
    text = (built / "glossary.html").read_text(encoding="utf-8")
    plan, _ = load_plan(MINI_PLAN)
    placed = [place for place in plan.places if place.term in {entry.id for entry in entries}]
    assert 'id="plan"' in text
    assert text.count("<svg") == 1 + len(placed)  # the full plan, and each placed entry's own
    for place in placed:
        assert '<figure class="entry-plan"><svg' in article(text, place.term)
    order = text[text.index('id="order"'):text.index('id="rite-xiangshe"')]
    sections = re.findall(r"^\u3000{3}右([^\u3000(¶]+)", raw("kanripo/KR1d0044/KR1d0044_004.txt"), re.MULTILINE)
    positions = [order.index(name) for name in sections]
    assert positions == sorted(positions)
    bi = next(place for place in plan.places if place.id == "bi")
    assert any(normalize(citation.quote) in normalize(text) for citation in bi.citations)
