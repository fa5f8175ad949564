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
from collections import Counter
from pathlib import Path

import html5lib
import pytest
from click.testing import CliRunner
from conftest import FIXTURES, MINI_PLAN, ROOT, make_project, mini_entries, raw, set_field
from pypdf import PageObject, PdfReader
from pypdf.generic import ArrayObject

from glossary.check import check_project
from glossary.cli import cli
from glossary.normalize import normalize
from glossary.plan import load_plan
from glossary.render import pdf

ARTEFACTS = ROOT / "test-artifacts"


def destinations(path: Path) -> dict[str, int]:
    """Anchor → page (from 1) of the PDF's named destinations: where its links lead."""
    return pdf.destinations(path.read_bytes())


CJK = re.compile(r"[\u3400-\u9fff\U00020000-\U0002ffff]")


def build(
    out: Path,
    *args: str,
    terms: str | None = None,
    plan: bool = True,
    env: dict | None = None,
    stages: bool = False,
):
    """Build a project of the fixtures (``terms``: another terms text; ``stages``: with the
    stage plans of stages-mini.yaml) into ``out``."""
    project = make_project(out.parent / f"{out.name}-project", terms, plan=plan)
    if stages:
        shutil.copyfile(FIXTURES / "stages-mini.yaml", project / "stages.yaml")
    result = CliRunner(env={"SOURCE_DATE_EPOCH": "1700000000", **(env or {})}).invoke(
        cli,
        [
            "build",
            "--terms",
            str(project / "terms.yaml"),
            "--corpus",
            str(project / "corpus"),
            "--out",
            str(out),
            *args,
        ],
    )
    return result


def radical_map() -> dict[int, str]:
    """Radical code points → their equivalent unified ideograph (Unicode's EquivalentUnifiedIdeograph).

    CJK fonts share one glyph between an ideograph and its radical form, and Chromium's PDF
    text layer may then name the radical (佐⻝ for 佐食): tests read radicals as ideographs.
    """
    table = {}
    for line in (
        (ROOT / "data" / "unihan" / "EquivalentUnifiedIdeograph.txt")
        .read_text(encoding="utf-8")
        .splitlines()
    ):
        line = line.split("#")[0].strip()
        if line:
            codes, ideograph = (part.strip() for part in line.split(";"))
            first, _, last = codes.partition("..")
            for code in range(int(first, 16), int(last or first, 16) + 1):
                table[code] = chr(int(ideograph, 16))
    return table


RADICALS = radical_map()


#: The dashes a PDF's text layer may give for the HTML's en dash: Chromium versions differ (some
#: write U+2012 FIGURE DASH for the U+2013 of a running head's `§3–§7`, as their font names it).
DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "\u2013"))


def page_text(page: PageObject) -> str:
    """The text of a PDF page, every kind of dash as an en dash: the one place the tests read a
    printed PDF's text, so none depends on which dash a Chromium version writes."""
    return (page.extract_text() or "").translate(DASHES)


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
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "70",
                "-f",
                "1",
                "-l",
                "4",
                "-png",
                str(out / "glossary.pdf"),
                str(ARTEFACTS / "glossary-page"),
            ],
            check=True,
        )
    return out


@pytest.fixture(scope="module")
def raw_pages(printed: Path) -> list[str]:
    return [
        re.sub(r"\s+", "", page_text(page)) for page in PdfReader(printed / "glossary.pdf").pages
    ]


@pytest.fixture(scope="module")
def pages(printed: Path) -> list[str]:
    return [readable(page_text(page)) for page in PdfReader(printed / "glossary.pdf").pages]


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


#: Where the page's scripts begin (search data, vendored search library, the page's own script).
SCRIPTS = '<script type="application/json" id="search-data">'


def without_scripts(text: str) -> str:
    """The page up to its scripts, which come last (only they follow)."""
    start = text.index(SCRIPTS)
    assert re.fullmatch(r"(?s)(<script[^>]*>.*?</script>\s*)+</body>\s*</html>\s*", text[start:])
    return text[:start]


def test_html_is_valid_and_self_contained(built: Path) -> None:
    for name in ("glossary.html", "sheet-xiangshe.html"):
        text = (built / name).read_text(encoding="utf-8")
        html5lib.HTMLParser(strict=True).parse(text)  # raises on any parse error
        if SCRIPTS in text:
            # The vendored library's comments cite web pages; its code asks for nothing.
            scripts = text[text.index(SCRIPTS) :]
            for call in ("XMLHttpRequest", "importScripts", "Worker(", "import(", "sendBeacon"):
                assert call not in scripts, call
            text = without_scripts(text)
        assert "<link" not in text and "src=" not in text  # nothing to fetch
        assert (
            "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
            and "https://" not in text
        )
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text


def test_chinese_text_is_marked_with_lang(built: Path) -> None:
    text = without_scripts((built / "glossary.html").read_text(encoding="utf-8"))
    body = text[text.index("<body>") :]
    checker = LangChecker()
    checker.feed(body)
    assert checker.unmarked == []


def article(text: str, entry_id: str) -> str:
    start = text.index(f'<article class="entry" id="e-{entry_id}" data-entry-id="{entry_id}"')
    return text[start : text.index("</article>", start)]


def test_every_entry_with_locus_concordance_and_links(built: Path, entries, index) -> None:
    text = (built / "glossary.html").read_text(encoding="utf-8")
    project = built.parent / f"{built.name}-project"
    report = check_project(project / "terms.yaml", project / "corpus", index=index)
    checked = 0
    for entry in entries:
        printed_entry = article(text, entry.id)
        shown = html.unescape(
            re.sub(r"<[^>]+>", "", re.sub(r"<rt[^>]*>.*?</rt>", "", printed_entry))
        )
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
                    assert f'〈<span lang="zh">{locus.section}</span>〉' in printed_entry, (
                        entry.id,
                        locus.section,
                    )
    assert checked  # the fixture's citations do resolve to pages with page ids
    assert "Occurrences in the corpus" in text
    for index_id in ("index-pinyin", "index-radical", "index-gloss", "index-category"):
        assert f'id="{index_id}"' in text


def test_text_is_escaped(tmp_path: Path) -> None:
    source = set_field(
        (ROOT / "tests" / "fixtures" / "terms-mini.yaml").read_text(encoding="utf-8"),
        "bi",
        "gloss",
        "<script>alert(1)</script>",
    )
    result = build(tmp_path / "dist", terms=source)
    assert result.exit_code == 0, result.output
    text = (tmp_path / "dist" / "glossary.html").read_text(encoding="utf-8")
    body = without_scripts(text)  # the page's search data and scripts come last
    assert "<script" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in text


@pytest.mark.slow
def test_pdf_holds_every_headword(pages: list[str], entries) -> None:
    everything = "".join(pages)
    missing = [e.term for e in entries if normalize(e.term) not in everything]
    assert missing == []


@pytest.mark.slow
def test_no_entry_is_split_across_pages(printed: Path, pages: list[str], entries) -> None:
    """An entry's headword and its last words (the last citation's quote) are on the
    page its link leads to."""
    text = (printed / "glossary.html").read_text(encoding="utf-8")
    targets = destinations(printed / "glossary.pdf")
    for entry in entries:
        printed_entry = article(text, entry.id)
        page = pages[targets[f"e-{entry.id}"] - 1]
        quotes = re.findall(r'<span class="quote" lang="zh">([^<]+)</span>', printed_entry)
        assert quotes, entry.id
        assert readable(html.unescape(quotes[-1])) in page, entry.id
        assert readable(entry.term) in page, entry.id
        assert "id:" not in printed_entry  # no id lines any more


@pytest.mark.slow
def test_fonts_are_embedded(printed: Path) -> None:
    """Every font travels with the PDF as a font file (a real subset, no Type 3 font)."""
    reader = PdfReader(printed / "glossary.pdf")
    embedded: list[bool] = []
    type3: set[int] = set()  # the Type 3 font objects, each counted once however many pages use it
    for page in reader.pages[:12]:
        for ref in (page.get("/Resources") or {}).get("/Font", {}).values():
            font = ref.get_object()
            if font.get("/Subtype") == "/Type3":
                type3.add(ref.idnum if hasattr(ref, "idnum") else id(font))
                embedded.append("/CharProcs" in font and len(font["/CharProcs"]) > 0)
                continue
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target["/FontDescriptor"].get_object()
            embedded.append(any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")))
    assert embedded and all(embedded)
    # Issue 26: Chromium printed the CFF Noto faces as 326 Type 3 fonts (27 MB); given TrueType
    # subsets, it embeds real font subsets.
    # What is left as Type 3 is the faces Chromium synthesizes (an oblique or a bold the fonts
    # do not have), a few: Chromium 156 made 2, Chromium 150 makes 3 (the plan's labels, the
    # slanted pinyin), whatever the book's length.
    assert len(type3) <= 4 and len(embedded) > 2
    for name in ("glossary.pdf", "sheet-xiangshe.pdf"):
        listed = subprocess.run(
            ["pdffonts", str(printed / name)], capture_output=True, text=True, check=True
        ).stdout
        assert listed.count("Type 3") <= 4 and "NotoSerifCJKsc-Regular" in listed, listed
        assert "CID TrueType" in listed, listed


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
    text = readable("".join(page_text(p) for p in reader.pages))
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
    assert plan is not None
    placed = [place for place in plan.places if place.term in {entry.id for entry in entries}]
    assert 'id="plan"' in text
    assert text.count("<svg") == 1  # the full plan only: an entry keys into it, no miniature
    for place in placed:
        assert place.term is not None
        key = article(text, place.term)
        assert (
            f'On the hall plan: <a href="#plan"><span lang="zh">{place.label}</span><span class="onpage">, p. <span class="pageref">'
            in key
        )
    order = text[text.index('id="order"') : text.index('id="rite-xiangshe"')]
    sections = re.findall(
        r"^\u3000{3}右([^\u3000(¶]+)", raw("kanripo/KR1d0044/KR1d0044_004.txt"), re.MULTILINE
    )
    positions = [order.index(name) for name in sections]
    assert positions == sorted(positions)
    bi = next(place for place in plan.places if place.id == "bi")
    assert any(normalize(citation.quote) in normalize(text) for citation in bi.citations)


# -- the book as a reader uses it (issue 16) ---------------------------------------------------


@pytest.mark.slow
def test_page_numbers_are_the_pages_the_links_lead_to(printed: Path, raw_pages: list[str]) -> None:
    """Contents and indexes print the page their link leads to in the PDF (the book is printed
    twice: the first printing's pages fill the second), and the PDF shows those numbers."""
    text = (printed / "glossary.html").read_text(encoding="utf-8")
    targets = destinations(printed / "glossary.pdf")
    contents = re.findall(
        r'<a href="#([a-z0-9-]+)">(?:(?!</li>).)*?</a>(?:&nbsp;| )<span class="pg">(\d+)</span>',
        text,
    )
    assert len(contents) >= 10
    for anchor, page in contents:
        assert targets[anchor] == int(page), anchor
    index_refs = re.findall(
        r'<a href="#(e-[a-z0-9-]+)">(?:(?!</li>).)*?</a>[^<]*<span class="ref">§(\d+)<span class="onpage"> p\.&#8239;<span class="pageref">(\d+)</span>',
        text,
    )
    assert len(index_refs) >= 4 * len(
        mini_entries()
    )  # four indexes, every entry at least once in each
    index_pages = "".join(raw_pages[targets["index-pinyin"] - 1 :]).replace("\u202f", "")
    for anchor, number, page in index_refs:
        assert targets[anchor] == int(page), anchor
        assert f"§{number}p.{page}" in index_pages, (anchor, number, page)


@pytest.mark.slow
def test_bookmarks_for_parts_rites_categories_and_indexes(printed: Path) -> None:
    def titles(outline) -> list[str]:
        return [
            t
            for item in outline
            for t in (titles(item) if isinstance(item, list) else [item["/Title"]])
        ]

    found = titles(PdfReader(printed / "glossary.pdf").outline)
    for title in (
        "Contents 目录",
        "How to use this book",
        "Editions and abbreviations",
        "Index by pinyin 音序索引",
        "Index by radical and strokes 部首索引",
        "Index of English keywords",
        "Bibliography",
        "Colophon",
    ):
        assert title in found
    # Issue 26: the rite's bookmark is its name, whole ("anOrdinary", "… 77 terms" before).
    assert "乡射礼 The District Archery Rite" in found
    assert not any(t.endswith(" terms") for t in found)
    assert "Objects 器物" in found and "Positions 位" in found


@pytest.mark.slow
def test_running_heads_give_the_rite_and_the_section_range(
    printed: Path, raw_pages: list[str]
) -> None:
    targets = destinations(printed / "glossary.pdf")
    text = (printed / "glossary.html").read_text(encoding="utf-8")
    numbers = dict(
        re.findall(
            r'id="e-([a-z0-9-]+)" data-entry-id[^>]*>\s*<header>\s*<span class="num">§(\d+)<', text
        )
    )
    on_page: dict[int, list[int]] = {}
    for entry_id, number in numbers.items():
        on_page.setdefault(targets[f"e-{entry_id}"], []).append(int(number))
    for page, found in on_page.items():
        low, high = min(found), max(found)
        # page_text gives every dash as –; with two rites on the page, each has its own range
        whole = f"§{low}–§{high}" if high != low else f"§{low}"
        assert whole in raw_pages[page - 1] or f"§{low}" in raw_pages[page - 1], (page, whole)
        assert f"§{high}" in raw_pages[page - 1], (page, whole)


@pytest.mark.slow
def test_no_ordinary_character_copies_as_a_radical(printed: Path) -> None:
    """Headers name radicals by ideographs, and no glyph is named by a radical code point, so a
    reader's copy of 鹿 or 人 is 鹿 or 人 (Kangxi radicals U+2F00–U+2FD5, supplement U+2E80–U+2EFF)."""
    for name in ("glossary.pdf", "sheet-xiangshe.pdf"):
        text = "".join(page_text(page) for page in PdfReader(printed / name).pages)
        assert text and not re.findall(r"[\u2e80-\u2fdf]", text), name
    html_text = (printed / "glossary.html").read_text(encoding="utf-8")
    assert not re.findall(r"[\u2e80-\u2fdf]", html_text)


@pytest.mark.slow
def test_the_pinyin_index_sorts_u_umlaut_after_u(
    printed: Path, raw_pages: list[str], entries
) -> None:
    from glossary.render.indexes import pinyin_key

    targets = destinations(printed / "glossary.pdf")
    index = "".join(raw_pages[targets["index-pinyin"] - 1 : targets["index-radical"] - 1])
    positions = [index.index(entry.term) for entry in sorted(entries, key=pinyin_key)]
    assert positions == sorted(positions)


@pytest.mark.slow
def test_same_commit_same_pdf_bytes(printed: Path, tmp_path: Path) -> None:
    """A second build prints byte-identical PDFs: dates and document id from SOURCE_DATE_EPOCH."""
    result = build(tmp_path / "again", "--pdf", "--sheet", "乡射礼")
    assert result.exit_code == 0, result.output
    for name in ("glossary.pdf", "sheet-xiangshe.pdf", "glossary.html"):
        assert (tmp_path / "again" / name).read_bytes() == (printed / name).read_bytes(), name
    reader = PdfReader(printed / "glossary.pdf")
    metadata = reader.metadata
    assert metadata is not None
    assert metadata.creation_date_raw == "D:20231114221320+00'00'" == metadata.modification_date_raw
    ids = reader.trailer["/ID"]
    assert isinstance(ids, ArrayObject) and len(ids) == 2 and all(len(i) == 16 for i in ids)


@pytest.mark.slow
def test_the_study_sheet_folds(printed: Path, entries) -> None:
    """Every answer (reading and gloss) lies right of one fold line on every page; the prompts left
    of it; § numbers as in the glossary; traditional forms; a reverse sheet; no near-empty last page."""
    from pypdf import PdfReader as Reader

    reader = Reader(printed / "sheet-xiangshe.pdf")
    text = (printed / "glossary.html").read_text(encoding="utf-8")
    numbers = dict(
        re.findall(
            r'id="e-([a-z0-9-]+)" data-entry-id[^>]*>\s*<header>\s*<span class="num">§(\d+)<', text
        )
    )
    glosses = {
        entry.gloss.split(" ")[0] for entry in entries if "xiangshe" in {r.id for r in entry.rites}
    }
    fold = None
    for page in reader.pages:
        spots: list[tuple[float, str]] = []
        page.extract_text(
            visitor_text=lambda t, cm, tm, font, size: spots.append((cm[4] + tm[4] * cm[0], t))  # noqa: B023 (called at once)
        )
        pinyin = [
            x
            for x, t in spots
            if re.fullmatch(
                r"[a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+( [a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+)*", t.strip()
            )
            and any(c in t for c in "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ")
        ]
        terms = [x for x, t in spots if CJK.search(t) and not t.strip().startswith("§")]
        # The fold line: the answers' left edge, 12 mm margin + 11 mm (§) + 62 mm (prompt) from the
        # paper's edge (sheet.css), on every page.
        fold_line = (12 + 11 + 62) / 25.4 * 72
        if pinyin:
            fold = min(pinyin) if fold is None else fold
            assert min(pinyin) >= fold_line
        numbers_x = [x for x, t in spots if t.strip().startswith("§")]
        assert numbers_x and max(numbers_x) < fold_line
        assert pinyin or terms
    assert fold is not None
    sheet = (printed / "sheet-xiangshe.html").read_text(encoding="utf-8")
    for entry in entries:
        if "xiangshe" in {r.id for r in entry.rites}:
            row = f'<tr id="r{numbers[entry.id]}" tabindex="0" aria-expanded="false">'
            assert row + f'<td class="n">§{numbers[entry.id]}</td>' in sheet  # keyboard too
            if entry.traditional and entry.traditional != entry.term:
                assert f'<span class="trad" lang="zh-Hant">{entry.traditional}</span>' in sheet
    assert "Reverse: English → characters" in sheet and glosses
    where = destinations(printed / "sheet-xiangshe.pdf")
    # Issue 26: the reverse half began on the forward half's last page (prompt and answer on
    # one side once folded): no page holds rows of both halves.
    forward = {p for anchor, p in where.items() if anchor.startswith("r")}
    backward = {p for anchor, p in where.items() if anchor.startswith("v")}
    assert forward and backward and max(forward) < min(backward)
    rows = Counter(where.values())
    last = max(rows)
    assert last == 1 or rows[last] * 3 >= max(rows.values())


def test_sheet_all_writes_one_sheet_per_rite_the_glossary_lists(tmp_path: Path, entries) -> None:
    from glossary.vocab import vocabulary

    out = tmp_path / "dist"
    result = build(out, "--sheet", "all")
    assert result.exit_code == 0, result.output
    listed = {rite.id for entry in entries for rite in entry.rites}
    expected = {f"sheet-{rite.id}.html" for rite in vocabulary().rites if rite.id in listed}
    assert expected and {p.name for p in out.glob("sheet-*.html")} == expected


def test_a_page_where_a_rite_begins_names_both_rites_with_their_own_ranges() -> None:
    """Issue 26: p. 119 read "乡射礼 · §280–§282" where §281–282 are 燕礼's."""
    from types import SimpleNamespace

    from glossary.render.printed import _running_heads

    def rite(slug: str, name: str, numbers: list[int]) -> dict:
        items = [(n, SimpleNamespace(id=f"{slug}{n}")) for n in numbers]
        return {
            "slug": slug,
            "name": name,
            "english": slug.title(),
            "groups": [("object", None, items, [])],
        }

    rites = [rite("xiangshe", "乡射礼", [279, 280]), rite("yan", "燕礼", [281, 282, 283])]
    pages = {"e-xiangshe279": 118, "e-xiangshe280": 119, "rite-yan": 119, "yan-object": 119}
    pages |= {"e-yan281": 119, "e-yan282": 119, "e-yan283": 120, "rite-xiangshe": 117}
    heads = _running_heads(rites, pages)
    assert heads[119] == "乡射礼 §280 · 燕礼 §281–§282"
    assert heads[118] == "乡射礼 Xiangshe · §279" and heads[120] == "燕礼 Yan · §283"


def test_contents_and_rite_headings_keep_counts_apart_from_pages(built: Path) -> None:
    """Issue 26: "Objects 32 43" (count, page) in the contents; bookmarks ending in "77 terms";
    "§208.On the hall plan" glued and bold; an edition printed as kanripo/…/COMMIT."""
    text = (built / "glossary.html").read_text(encoding="utf-8")
    contents = text[text.index('id="contents"') : text.index("</nav>", text.index('id="contents"'))]
    assert re.search(r'Objects \(\d+\)</a>&nbsp;<span class="pg">p\.&#8239;', contents)
    for heading in re.findall(r"<h1 [^>]*>(.*?)</h1>", text, re.S):
        assert " terms" not in heading  # the bookmark is the heading's text
    assert 'class="plan-ref"' in text and '<span class="plan-key">On the hall plan' not in text
    assert "COMMIT" not in text and "master at commit" in text


def test_blocks_named_for_their_page_never_break() -> None:
    """Every block the second printing names for its first page (``style="page: p12"``) stays on
    one page: one split over two would push the next block, named for the second page, onto a
    third, and the book would need a third printing to settle (大射仪's objects' cross-references
    on p. 163 did). Headings are one line."""
    from glossary.render import printed as printed_module

    templates = Path(printed_module.__file__).parent.parent / "templates" / "print"
    named = set()
    for name in ("glossary.html", "entry.html"):
        text = (templates / name).read_text(encoding="utf-8")
        for tag in re.findall(r"<(\w+)([^>]*page_name[^>]*)>", text):
            element, attributes = tag
            classes = re.search(r'class="([^"{]+)"', attributes)
            named.add(f".{classes.group(1).split()[0]}" if classes else element)
    css = re.sub(r"/\*.*?\*/", "", printed_module.stylesheet(None), flags=re.S)
    unbroken = {
        selector.strip()
        for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css)
        if "break-inside: avoid" in body
        for selector in selectors.split(",")
    }
    assert {".entry", ".xrefs"} <= named, named
    assert {n for n in named if n not in ("h1", "h2", ".rite-count")} <= unbroken, named - unbroken
