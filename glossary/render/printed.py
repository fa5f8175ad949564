"""The printable glossary (``glossary.html``) and per-rite study sheets, PDF-ready."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

import jinja2
from markupsafe import Markup

from glossary import version
from glossary.corpus.model import Locus
from glossary.errors import PdfError
from glossary.model import Entry, Glossary
from glossary.model_alignment import Rendering
from glossary.render import (
    fonts,
    glyphs,
    indexes,
    reader_links,
    search_index,
    stage_html,
    stage_svg,
)
from glossary.render.anki.modern import citation_lines
from glossary.render.markup import book_place, mark_cjk, reading_lines, ruby
from glossary.render.plan_svg import PRINT_FIT_PX, keyed_sources, place_keys, render_svg
from glossary.render.terms_json import ATTRIBUTION
from glossary.vocab import Rite, vocabulary

#: Where an entry none of whose rites the vocabulary knows is printed (only a failing glossary has one).
OTHER = {"name": "其他", "slug": "other", "english": "Other rites", "traditional": "其他"}
PAPER = {"a4": "A4", "letter": "letter"}


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "a4"


def _finalize(value: object) -> object:
    # Corpus text may hold a glyph entity (&KR1152;): shown as the character it stands for,
    # framed. No template prints corpus text into an attribute (as on the cards).
    if isinstance(value, str) and not isinstance(value, Markup) and "&KR" in value:
        return glyphs.mark(value)
    return value


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("glossary", "templates/print"),
        # HTML is escaped; the stylesheets are templates of trusted constants.
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_finalize,
    )
    env.filters["zh"] = mark_cjk
    env.filters["place"] = book_place
    return env


def _rite_info(rite: Rite) -> dict[str, str]:
    return {
        "name": rite.simplified,
        "slug": rite.id,
        "english": rite.english,
        "traditional": rite.traditional,
    }


def home_rite(entry: Entry) -> str:
    """The slug of the rite an entry is printed under: the first of its rites in 禮經本義's order."""
    order = {rite.id: i for i, rite in enumerate(vocabulary().rites)}
    known = [rite for rite in entry.rites if rite.id in order]
    return min(known, key=lambda r: order[r.id]).id if known else OTHER["slug"]


def by_category(
    members: list[Entry] | tuple[Entry, ...], first: int = 1
) -> list[tuple[str, tuple[str, str], list]]:
    """(category, heading, [(number, entry) …]) in pinyin order, numbered from ``first``."""
    groups, number = [], first
    for category in vocabulary().categories:
        items = []
        for entry in sorted(
            (e for e in members if e.category == category.id), key=indexes.pinyin_key
        ):
            items.append((number, entry))
            number += 1
        groups.append((category.id, (category.heading, category.zh), items))
    return groups


def sections(entries: tuple[Entry, ...]) -> list[dict]:
    """Every rite (in 禮經本義's order) with all its entries: each entry is printed once, under the
    first of its rites, numbered §1… in book order; under its other rites it is a cross-reference.

    A rite's ``groups`` are (category, heading, printed [(number, entry)], cross-references
    [(number, entry)]); ``count`` is how many entries belong to the rite, ``printed`` how many
    are printed there.
    """
    placed: dict[str, list[Entry]] = {}
    for entry in entries:
        placed.setdefault(home_rite(entry), []).append(entry)
    numbers: dict[str, int] = {}
    homes: list[tuple[dict, list]] = []
    number = 1
    for info in [_rite_info(rite) for rite in vocabulary().rites] + [OTHER]:
        groups = by_category(placed.get(info["slug"], []), number)
        for _, _, items in groups:
            numbers.update((entry.id, n) for n, entry in items)
            number += len(items)
        homes.append((info, groups))
    result = []
    for info, groups in homes:
        belongs = [
            e
            for e in entries
            if any(r.id == info["slug"] for r in e.rites) and home_rite(e) != info["slug"]
        ]
        crossed = by_category(belongs)
        full = [
            (category, label, items, [(numbers[e.id], e) for _, e in crossed[i][2]])
            for i, (category, label, items) in enumerate(groups)
        ]
        count = sum(len(items) + len(refs) for _, _, items, refs in full)
        if count:
            result.append({**info, "groups": full, "count": count, "printed": count - len(belongs)})
    return result


@dataclass(frozen=True)
class Layout:
    """Where a first printing put things, for the next: anchor id → page (from 1), and the
    running head of each page. Empty before the first printing (page references then print a
    placeholder of the same width, so the second printing breaks pages as the first did)."""

    pages: Mapping[str, int] = field(default_factory=dict)
    heads: Mapping[int, str] = field(default_factory=dict)

    def page(self, anchor: str) -> str:
        """The page of ``anchor`` as printed ("000" before the first printing)."""
        return str(self.pages[anchor]) if anchor in self.pages else PLACEHOLDER

    def name(self, anchor: str) -> str:
        """The CSS page name of the page ``anchor`` starts on ("" before the first printing)."""
        return (
            f"p{self.pages[anchor]}"
            if anchor in self.pages and self.pages[anchor] in self.heads
            else ""
        )


#: A page number before the first printing: as wide as the real ones will be.
PLACEHOLDER = "000"


def entry_printer(
    glossary: Glossary, numbers: Mapping[str, int] | None = None, layout: Layout = Layout()
) -> Callable[[Entry, int], Markup]:
    """A function printing one entry of ``glossary`` as the book shows it."""
    entry_template = _env().get_template("entry.html")
    by_id = {e.id: e for e in glossary.entries}
    numbers = numbers if numbers is not None else entry_numbers(glossary)

    def render_entry(entry: Entry, number: int) -> Markup:
        cited = [c for c in glossary.cited[entry.id] if c.found]
        # Under each passage, only the sentences of the modern rendering that render it, each
        # once per entry (the cards' choice: one place decides what a rendering shows).
        lines = citation_lines(modern(c.loci) for c in cited)
        citations = list(zip(cited, lines))
        related = [(by_id[r], numbers.get(r)) for r in entry.related if r in by_id]
        place = glossary.plan.for_term(entry.id) if glossary.plan else None
        return Markup(
            entry_template.render(
                entry=entry,
                number=number,
                citations=citations,
                related=related,
                place=place,
                plan_page=layout.page("plan"),
                page_name=layout.name(f"e-{entry.id}"),
                occurrences=glossary.concordance.get(entry.id),
                ruby=ruby,
                readings=reading_lines(glossary.readings.get(entry.id, ())),
                in_text=in_text,
            )
        )

    def in_text(locus: Locus) -> str | None:
        # The place in the reader view (read/<rite>.html), where it shows the passage.
        return reader_links.href(glossary, locus.file, locus.start)

    def modern(loci: tuple[Locus, ...]) -> tuple[str, tuple[Rendering, ...]]:
        # The modern rendering of the first place printed that has one (two places are printed).
        for locus in loci[:2]:
            if found := glossary.renderings(locus):
                return locus.text, found
        return loci[0].text, ()

    return render_entry


def entry_numbers(glossary: Glossary) -> dict[str, int]:
    """Entry id → its § number in the book."""
    return numbering(sections(glossary.entries))


def numbering(rites: list[dict]) -> dict[str, int]:
    """Entry id → § number, from :func:`sections`."""
    return {
        entry.id: n for rite in rites for _, _, items, _ in rite["groups"] for n, entry in items
    }


def render_entry(glossary: Glossary, entry_id: str) -> Markup:
    """One entry as the printed glossary shows it (for previews)."""
    entry = glossary.entry(entry_id)
    if entry is None:
        raise KeyError(entry_id)
    return entry_printer(glossary)(entry, entry_numbers(glossary)[entry_id])


def _css_string(text: str) -> str:
    """A CSS string literal (the running heads are made of vocabulary names and numbers)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def stylesheet(
    options: PrintOptions | None, rites: list[dict] | tuple = (), layout: Layout = Layout()
) -> str:
    """The printed glossary's CSS; with ``options``, the page rules first (paper, a running head
    for each page of entries from the ``layout``), then the screen stylesheet; without, only what
    an entry looks like (for previews on screen)."""
    env = _env()
    body = env.get_template("print.css").render(extra=fonts.EXTRA_FAMILY)
    body += "\n" + env.get_template("stages.css").render() + "\n" + stage_svg.stage_css(True)
    if options is None:
        return body
    heads = {page: _css_string(head) for page, head in sorted(layout.heads.items())}
    pages = env.get_template("pages.css").render(
        paper=PAPER[options.paper], heads=heads, extra=fonts.EXTRA_FAMILY
    )
    screen = env.get_template("screen.css").render()
    return pages + "\n" + body + "\n@media screen {\n" + screen + "\n}"


def _search_data(glossary: Glossary, rites: list[dict], numbers: Mapping[str, int]) -> Markup:
    """The web page's search data (see :mod:`glossary.render.search_index`)."""
    by_slug = {rite.id: rite for rite in vocabulary().rites}
    return search_index.search_data(
        glossary.entries,
        numbers,
        [(by_slug[r["slug"]], r["count"]) for r in rites if r["slug"] in by_slug],
        glossary.cited,
    )


def _colophon(glossary: Glossary) -> dict[str, str]:
    return {
        "version": version(),
        "commit": glossary.commit or "(not built from a git checkout)",
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(glossary.epoch)),
        "epoch": str(glossary.epoch),
        "extra": " ".join(fonts.extra_chars(_glossary_chars(glossary))),
        "release": glossary.release.version if glossary.release else "",
        "next": f"{glossary.release.url}/latest" if glossary.release else "",
    }


def _glossary_chars(glossary: Glossary) -> set[str]:
    """The characters of the entries and their cited passages (what the book prints of them)."""
    parts = []
    for entry in glossary.entries:
        parts += [entry.term, entry.traditional or "", *entry.variants, entry.gloss]
        parts += [entry.definition, entry.definition_zh or "", entry.reading_note or ""]
        parts += [c.loci[0].text for c in glossary.cited[entry.id] if c.found]
    return set("".join(parts))


def render_glossary(glossary: Glossary, options: PrintOptions, layout: Layout = Layout()) -> bytes:
    """One self-contained HTML file: front matter, plan, order of the rites, entries by rite and
    category, indexes, bibliography and colophon; a book in print, a searchable page on screen.
    ``layout``: the pages of a first printing (see :func:`print_glossary`)."""
    env = _env()
    rites = sections(glossary.entries)
    numbers = numbering(rites)

    full_plan = None
    plan_sources: list = []
    if glossary.plan is not None:
        # Each place numbered on the plan, its sources listed under the same number.
        full_plan = Markup(
            render_svg(
                glossary.plan,
                None,
                "Hall plan of the Yili rites",
                numbers=place_keys(glossary.plan),
                fit=PRINT_FIT_PX,
            )
        )
        plan_sources = keyed_sources(glossary.plan, glossary.plan_cited)
    covered = {rite.id for entry in glossary.entries for rite in entry.rites}
    # The stage plans, after the order of the rites: each section's steps, its order's line
    # pointing to them.
    staged = stage_html.sections(
        glossary,
        link=lambda ident: f"#e-{ident}",
        fit=stage_html.BOOK_FIT_PX,
        auto_dark=True,
        legend=False,
    )
    timelines = [
        {
            **_rite_info(rite),
            "steps": glossary.sequences.get(rite.id, ()),
            "grades": rite.sections == "grades",
            "plans": {(s.name, s.repeat): s.anchor for s in staged.get(rite.id, ())},
        }
        for rite in vocabulary().rites
        if rite.id in covered
    ]
    read = {r.rite for r in glossary.reader.rites} if glossary.reader else set()
    stage_rites = [
        {
            **_rite_info(rite),
            "sections": staged[rite.id],
            # Each section in the reader view, its plans beside its text.
            "text": reader_links.page_name(rite.id) if rite.id in read else None,
        }
        for rite in vocabulary().rites
        if rite.id in staged
    ]
    texts = [
        info for info in glossary.texts if not info.rendering_of or info.id != info.rendering_of
    ]

    css = stylesheet(options, rites, layout)
    entries = list(glossary.entries)
    html = env.get_template("glossary.html").render(
        css=Markup(css),
        script=Markup(env.get_template("search.js").render()),
        vendored=search_index.vendored_scripts(),
        search_data=_search_data(glossary, rites, numbers),
        rites=rites,
        entries=entries,
        citation_count=sum(len(e.citations) for e in entries),
        render_entry=entry_printer(glossary, numbers, layout),
        numbers=numbers,
        page=layout.page,
        page_name=layout.name,
        index_pinyin=indexes.by_pinyin(entries),
        index_radical=indexes.by_radical(entries),
        index_gloss=indexes.by_gloss(entries),
        index_category=indexes.by_category(entries),
        ordering=indexes.ORDERING,
        traditional=indexes.traditional,
        categories={c.id: c for c in vocabulary().categories},
        full_plan=full_plan,
        plan_sources=plan_sources,
        timelines=timelines,
        stage_rites=stage_rites,
        stage_script=Markup(env.get_template("stages.js").render()),
        texts=texts,
        colophon=_colophon(glossary),
        reader=reader_links.contents(glossary),
        attribution=ATTRIBUTION,
    )
    return with_fonts(html.encode("utf-8"))


def with_fonts(
    html: bytes, *, printing: bool = False, chars: frozenset[str] = frozenset()
) -> bytes:
    """``html`` with the @font-face rules its characters need: the BabelStone subset (inlined) for
    those the Noto faces lack; ``printing``: also the Noto faces as TrueType subsets (for
    Chromium's PDF only: the web page uses the reader's own CJK fonts), of ``chars`` and the page's."""
    text = html.decode("utf-8")
    rules = fonts.extra_font_face(fonts.drawn(text))
    if printing:
        # Spaces too (a no-break or thin space of another font would embed that font).
        # ``chars``: every printed output's, so the book and the sheets share one set of subsets.
        rules = fonts.print_font_faces(chars | set(text)) + "\n" + rules
    if not rules:
        return html
    return text.replace("</head>", f"<style>\n{rules}\n</style>\n</head>", 1).encode("utf-8")


def check_fonts(glossary: Glossary, outputs: Mapping[str, bytes]) -> None:
    """Fail when a character of an HTML output has no glyph in its fonts, naming each character
    and the entries (terms.yaml line) it occurs in."""
    numbers = entry_numbers(glossary)
    where = {}
    for entry in glossary.entries:
        place = f"terms.yaml:{entry.line} ({entry.id})"
        where[f"e-{entry.id}"] = place
        if entry.id in numbers:
            where[f"r{numbers[entry.id]}"] = where[f"v{numbers[entry.id]}"] = place
    fonts.check_drawn(
        {name: data.decode("utf-8") for name, data in outputs.items() if name.endswith(".html")},
        where,
    )


#: Characters a printing adds to its page's text (page numbers, running heads' marks).
PRINTED_MARKS = frozenset("0123456789§–·, p.")


def font_chars(outputs: Mapping[str, bytes]) -> frozenset[str]:
    """Every character of the HTML outputs (and of what printing adds): one set of font subsets
    for the book and every sheet, made once (a CJK face's subset costs seconds)."""
    found = set(PRINTED_MARKS)
    for name, data in outputs.items():
        if name.endswith(".html"):
            found |= set(data.decode("utf-8"))
    return frozenset(found)


def _running_heads(rites: list[dict], pages: Mapping[str, int]) -> dict[int, str]:
    """Page → running head for every page that holds part of a rite: the rite and the § range of
    the entries printed on that page (``乡射礼 Xiangshe · §14–§18``). A page where one rite ends
    and the next begins names both, each with its own range (``乡射礼 §280 · 燕礼 §281–§282``)."""
    found: dict[int, dict[str, tuple[str, list[int]]]] = {}
    for rite in rites:
        anchors = [f"rite-{rite['slug']}"]
        for category, _, items, refs in rite["groups"]:
            if items or refs:
                anchors.append(f"{rite['slug']}-{category}")
            if refs:
                anchors.append(f"x-{rite['slug']}-{category}")
            for number, entry in items:
                page = pages.get(f"e-{entry.id}")
                if page is not None:
                    found.setdefault(page, {}).setdefault(rite["slug"], (rite["name"], []))[
                        1
                    ].append(number)
        for anchor in anchors:
            if anchor in pages:
                found.setdefault(pages[anchor], {}).setdefault(rite["slug"], (rite["name"], []))
    english = {rite["slug"]: rite["english"] for rite in rites}
    result = {}
    for page, on_page in found.items():
        parts = []
        for slug, (name, numbers) in on_page.items():
            label = name if len(on_page) > 1 else f"{name} {english[slug]}"
            parts.append(label + _span(numbers, " · " if len(on_page) == 1 else " "))
        result[page] = " · ".join(parts)
    return result


def _span(numbers: list[int], sep: str) -> str:
    """``§3–§7`` (after ``sep``), ``§3``, or nothing."""
    if not numbers:
        return ""
    low, high = min(numbers), max(numbers)
    return sep + f"§{low}" + (f"–§{high}" if high != low else "")


def print_glossary(
    glossary: Glossary,
    options: PrintOptions,
    *,
    passes: int = 4,
    font_chars: frozenset[str] = frozenset(),
) -> tuple[bytes, bytes]:
    """The printed book as (HTML, PDF), printed until its page references hold.

    The first printing has placeholders for page numbers; the pages its links lead to (PDF
    named destinations) fill the contents, the indexes and the running heads of the next,
    whose every block is held to the page it had (CSS named pages). Printing stops when a
    printing's pages equal the ones it was given. The PDF is then made reproducible; the HTML
    it was printed from carries the same page numbers (shown in print only).
    """
    from glossary.render import chromium, pdf

    layout = Layout()
    rites = sections(glossary.entries)
    for _ in range(passes):
        html = render_glossary(glossary, options, layout)
        printed = chromium.print_pdf(
            with_fonts(html, printing=True, chars=font_chars), outline=True
        )
        pages = pdf.destinations(printed)
        if layout.pages and pages == dict(layout.pages):
            return html, pdf.finish(printed, glossary.epoch, TITLE)
        layout = Layout(pages, _running_heads(rites, pages))
    raise PdfError(f"the page numbers did not settle after {passes} printings")


#: The PDF's title (the document information dictionary).
TITLE = "儀禮名物 Yili Glossary — 蔡德晉《禮經本義》"
