"""The printed glossary: valid, escaped HTML; printed by real headless Chromium."""
from __future__ import annotations

import html.parser
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import html5lib
import pytest
from click.testing import CliRunner
from conftest import CORPUS, ROOT, TERMS
from pypdf import PdfReader

from glossary.cli import cli
from glossary.load import load_yaml
from glossary.normalize import normalize
from glossary.validate import validate

ARTEFACTS = ROOT / "test-artifacts"
CJK = re.compile(r"[\u3400-\u9fff\U00020000-\U0002ffff]")


def build(out: Path, *args: str, terms: Path = TERMS, env: dict | None = None):
    project = out.parent / f"{out.name}-project"
    project.mkdir(exist_ok=True)
    (project / "terms.yaml").write_bytes(terms.read_bytes())
    result = CliRunner(env={"SOURCE_DATE_EPOCH": "1700000000", **(env or {})}).invoke(
        cli, ["build", "--terms", str(project / "terms.yaml"), "--corpus", str(CORPUS), "--out", str(out), *args]
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
    return validate(load_yaml(TERMS), TERMS.parent)[0]


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> Path:
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


def test_html_is_valid_and_self_contained(printed: Path) -> None:
    for name in ("glossary.html", "sheet-xiangshe.html"):
        text = (printed / name).read_text(encoding="utf-8")
        html5lib.HTMLParser(strict=True).parse(text)  # raises on any parse error
        assert "<link" not in text and "src=" not in text  # nothing to fetch


def test_chinese_text_is_marked_with_lang(printed: Path) -> None:
    text = (printed / "glossary.html").read_text(encoding="utf-8")
    body = text[text.index("<body>"):]
    checker = LangChecker()
    checker.feed(body)
    assert checker.unmarked == []


def test_every_entry_with_locus_concordance_and_links(printed: Path, entries) -> None:
    text = (printed / "glossary.html").read_text(encoding="utf-8")
    for entry in entries:
        assert f'id="e-{entry.id}"' in text
        for related in entry.related:
            assert f'href="#e-{related}"' in text
    assert "KR1d0044_WYG_004-22a" in text and "〈<span lang=\"zh\">取矢</span>〉" in text
    assert "Occurrences in the corpus" in text
    for index in ("index-pinyin", "index-radical", "index-gloss", "index-category"):
        assert f'id="{index}"' in text


def test_text_is_escaped(tmp_path: Path) -> None:
    terms = tmp_path / "terms.yaml"
    source = TERMS.read_text(encoding="utf-8").replace("gloss: arrow rack", "gloss: <script>alert(1)</script>", 1)
    terms.write_text(source, encoding="utf-8")
    result = build(tmp_path / "dist", terms=terms)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "dist" / "glossary.html").read_text(encoding="utf-8")
    assert "<script>" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_pdf_holds_every_headword(pages: list[str], entries) -> None:
    everything = "".join(pages)
    missing = [e.term for e in entries if normalize(e.term) not in everything]
    assert missing == []


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


def test_page_size_a4_and_letter(printed: Path, tmp_path: Path) -> None:
    box = PdfReader(printed / "glossary.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    result = build(tmp_path / "letter", "--pdf", "--paper", "letter")
    assert result.exit_code == 0, result.output
    box = PdfReader(tmp_path / "letter" / "glossary.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


def test_study_sheet_is_compact(printed: Path, entries) -> None:
    reader = PdfReader(printed / "sheet-xiangshe.pdf")
    assert len(reader.pages) <= 6
    text = readable("".join(p.extract_text() for p in reader.pages))
    for entry in entries:
        if "乡射礼" in entry.rites:
            assert normalize(entry.term) in text


def test_pdf_without_chromium_names_the_debian_package(tmp_path: Path) -> None:
    result = build(tmp_path / "dist", "--pdf", env={"CHROMIUM": "no-such-browser"})
    assert result.exit_code == 1
    assert "Debian package `chromium`" in result.output
    assert not (tmp_path / "dist").exists()


def test_plan_and_order_pages(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    project = tmp_path / "dist-project"
    project.mkdir()
    (project / "plan.yaml").write_bytes((ROOT / "tests" / "cases" / "plan" / "plan.yaml").read_bytes())
    result = build(out)
    assert result.exit_code == 0, result.output
    text = (out / "glossary.html").read_text(encoding="utf-8")
    html5lib.HTMLParser(strict=True).parse(text)
    assert 'id="plan"' in text and text.count("<svg") == 2  # the full plan and the 楅 entry's plan
    order = text[text.index('id="order"'):text.index('id="rite-xiangshe"')]
    assert order.index("請射") < order.index("誘射") < order.index("取矢視算")
    assert "乃设楅于中庭南当洗" in text or "乃設楅于中庭南當洗" in text
