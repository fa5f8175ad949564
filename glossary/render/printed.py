"""The printable glossary (``glossary.html``) and per-rite study sheets, PDF-ready."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import jinja2
from markupsafe import Markup

from glossary.model import CATEGORIES, Entry, Glossary
from glossary.normalize import normalize
from glossary.render import indexes
from glossary.render.anki.notes import ruby
from glossary.render.markup import mark_cjk
from glossary.render.plan_svg import render_svg

#: The rites of the seed texts, in the order of the 儀禮: (name, file slug, English).
RITES = (
    ("乡射礼", "xiangshe", "The District Archery Rite"),
    ("士虞礼", "shiyu", "The Repose Sacrifice"),
    ("特牲馈食礼", "tesheng", "The Single-Victim Food Offering"),
)
OTHER = ("其他", "other", "Other rites")
#: English and Chinese headings of the categories.
CATEGORY_LABELS = {
    "object": ("Objects", "器物"),
    "position": ("Positions", "位次"),
    "action": ("Actions", "仪节"),
    "role": ("Roles", "人"),
}
PAPER = {"a4": "A4", "letter": "letter"}


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "a4"


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("glossary", "templates/print"),
        # HTML is escaped; the stylesheets are templates of trusted constants.
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["zh"] = mark_cjk
    return env


def rite_of(name: str) -> tuple[str, str, str] | None:
    """The known rite a name (any script) refers to."""
    return next((r for r in RITES if normalize(r[0]) == normalize(name)), None)


def by_category(members: list[Entry] | tuple[Entry, ...], first: int = 1) -> list[tuple[str, tuple[str, str], list]]:
    """(category, heading, [(number, entry) …]) in pinyin order, numbered from ``first``."""
    groups, number = [], first
    for category in CATEGORIES:
        items = []
        for entry in sorted((e for e in members if e.category == category), key=indexes.pinyin_key):
            items.append((number, entry))
            number += 1
        groups.append((category, CATEGORY_LABELS[category], items))
    return groups


def sections(entries: tuple[Entry, ...]) -> list[dict]:
    """Entries under their first rite, then by category, numbered §1… in book order."""
    placed: dict[str, list[Entry]] = {}
    for entry in entries:
        rite = rite_of(entry.rites[0]) if entry.rites else None
        placed.setdefault((rite or OTHER)[1], []).append(entry)
    result, number = [], 1
    for name, slug, english in (*RITES, OTHER):
        members = placed.get(slug, [])
        if members:
            groups = by_category(members, number)
            number += len(members)
            result.append({"name": name, "slug": slug, "english": english, "groups": groups, "count": len(members)})
    return result


def render_glossary(glossary: Glossary, options: PrintOptions) -> bytes:
    """One self-contained HTML file: title page, contents, entries by rite and category, indexes."""
    env = _env()
    rites = sections(glossary.entries)
    numbers = {entry.id: n for rite in rites for _, _, items in rite["groups"] for n, entry in items}
    entry_template = env.get_template("entry.html")
    by_id = {e.id: e for e in glossary.entries}

    def render_entry(entry: Entry, number: int) -> Markup:
        loci = glossary.loci[entry.id]
        citations = [(c, l) for c, l in zip(entry.citations, loci) if l]
        related = [by_id[r] for r in entry.related if r in by_id]
        place = glossary.plan.for_term(entry.id) if glossary.plan else None
        plan = Markup(render_svg(glossary.plan, place.id, f"Hall plan: {place.label}")) if place else None
        return Markup(entry_template.render(
            entry=entry, number=number, citations=citations, related=related, plan=plan,
            occurrences=glossary.concordance.get(entry.id), ruby=lambda t, p: Markup(ruby(t, p)),
        ))

    full_plan = None
    if glossary.plan is not None:
        full_plan = Markup(render_svg(glossary.plan, None, "Hall plan of the Yili rites"))
    plan_sources = []
    if glossary.plan is not None:
        for place in glossary.plan.places:
            for citation, place_loci in zip(place.citations, glossary.plan_loci.get(place.id, ())):
                if place_loci:
                    plan_sources.append((place, citation, place_loci[0]))
    timelines = [
        {"name": name, "english": english, "steps": glossary.sequences.get(normalize(name), ())}
        for name, _, english in RITES
    ]

    css = env.get_template("print.css").render(paper=PAPER[options.paper], rites=rites)
    entries = list(glossary.entries)
    html = env.get_template("glossary.html").render(
        css=Markup(css),
        rites=rites,
        entries=entries,
        citation_count=sum(len(e.citations) for e in entries),
        render_entry=render_entry,
        numbers=numbers,
        index_pinyin=indexes.by_pinyin(entries),
        index_radical=indexes.by_radical(entries),
        index_gloss=indexes.by_gloss(entries),
        index_category=indexes.by_category(entries),
        full_plan=full_plan,
        plan_sources=plan_sources,
        timelines=timelines,
    )
    return html.encode("utf-8")


def render_sheet(glossary: Glossary, rite_name: str, options: PrintOptions) -> tuple[str, bytes]:
    """A compact two-column study sheet for one rite: prompts, then a fold line, then answers."""
    rite = rite_of(rite_name)
    if rite is None:
        raise ValueError(f"no study sheet for {rite_name!r}: choose one of {', '.join(r[0] for r in RITES)}")
    name, slug, english = rite
    members = tuple(e for e in glossary.entries if any(normalize(r) == normalize(name) for r in e.rites))
    info = {"name": name, "slug": slug, "english": english, "groups": by_category(members)}
    env = _env()
    css = env.get_template("sheet.css").render(paper=PAPER[options.paper], rite=info)
    html = env.get_template("sheet.html").render(css=Markup(css), rite=info, count=len(members))
    return f"sheet-{slug}.html", html.encode("utf-8")
