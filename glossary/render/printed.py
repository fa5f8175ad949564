"""The printable glossary (``glossary.html``) and per-rite study sheets, PDF-ready."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import jinja2
from markupsafe import Markup

from glossary.corpus.model import Locus
from glossary.model import Entry, Glossary, Rendering
from glossary.render import indexes
from glossary.render.markup import mark_cjk, reading_lines, ruby
from glossary.render.plan_svg import ENTRY_FIT_PX, PRINT_FIT_PX, keyed_sources, place_keys, render_svg
from glossary.vocab import Rite, vocabulary

#: Where an entry none of whose rites the vocabulary knows is printed (only a failing glossary has one).
OTHER = {"name": "其他", "slug": "other", "english": "Other rites"}
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


def _rite_info(rite: Rite) -> dict[str, str]:
    return {"name": rite.simplified, "slug": rite.id, "english": rite.english}


def by_category(members: list[Entry] | tuple[Entry, ...], first: int = 1) -> list[tuple[str, tuple[str, str], list]]:
    """(category, heading, [(number, entry) …]) in pinyin order, numbered from ``first``."""
    groups, number = [], first
    for category in vocabulary().categories:
        items = []
        for entry in sorted((e for e in members if e.category == category.id), key=indexes.pinyin_key):
            items.append((number, entry))
            number += 1
        groups.append((category.id, (category.heading, category.zh), items))
    return groups


def sections(entries: tuple[Entry, ...]) -> list[dict]:
    """Entries under their first rite (in 禮經本義's order), then by category, numbered §1… in book order."""
    placed: dict[str, list[Entry]] = {}
    for entry in entries:
        placed.setdefault(entry.rites[0].id if entry.rites else OTHER["slug"], []).append(entry)
    result, number = [], 1
    for info in [_rite_info(rite) for rite in vocabulary().rites] + [OTHER]:
        members = placed.get(info["slug"], [])
        if members:
            groups = by_category(members, number)
            number += len(members)
            result.append({**info, "groups": groups, "count": len(members)})
    return result


def entry_printer(glossary: Glossary) -> Callable[[Entry, int], Markup]:
    """A function printing one entry of ``glossary`` as the book shows it."""
    entry_template = _env().get_template("entry.html")
    by_id = {e.id: e for e in glossary.entries}

    def render_entry(entry: Entry, number: int) -> Markup:
        loci = glossary.loci[entry.id]
        citations = [(c, l) for c, l in zip(entry.citations, loci) if l]
        related = [by_id[r] for r in entry.related if r in by_id]
        place = glossary.plan.for_term(entry.id) if glossary.plan else None
        # A crop around the place, its labels sized for the figure's 55 mm (about 8 pt); the plan page has the legend.
        plan = Markup(render_svg(glossary.plan, place.id, f"Hall plan: {place.label}", crop=True, legend=False,
                                 fit=ENTRY_FIT_PX)) if place else None
        return Markup(entry_template.render(
            entry=entry, number=number, citations=citations, related=related, plan=plan,
            occurrences=glossary.concordance.get(entry.id), ruby=ruby, modern=modern,
            readings=reading_lines(glossary.readings.get(entry.id, ())),
        ))

    def modern(loci: tuple[Locus, ...]) -> tuple[Rendering, ...]:
        # The modern rendering of the first place printed that has one (two places are printed).
        for locus in loci[:2]:
            if found := glossary.renderings(locus):
                return found
        return ()

    return render_entry


def entry_numbers(glossary: Glossary) -> dict[str, int]:
    """Entry id → its § number in the book."""
    return {entry.id: n for rite in sections(glossary.entries) for _, _, items in rite["groups"] for n, entry in items}


def render_entry(glossary: Glossary, entry_id: str) -> Markup:
    """One entry as the printed glossary shows it (for previews)."""
    entry = glossary.entry(entry_id)
    if entry is None:
        raise KeyError(entry_id)
    return entry_printer(glossary)(entry, entry_numbers(glossary)[entry_id])


def stylesheet(options: PrintOptions | None, rites: list[dict] | tuple = ()) -> str:
    """The printed glossary's CSS; with ``options``, the page rules first (paper, running heads
    naming the ``rites``); without, only what an entry looks like (for previews on screen)."""
    env = _env()
    body = env.get_template("print.css").render()
    if options is None:
        return body
    return env.get_template("pages.css").render(paper=PAPER[options.paper], rites=rites) + "\n" + body


def render_glossary(glossary: Glossary, options: PrintOptions) -> bytes:
    """One self-contained HTML file: title page, contents, entries by rite and category, indexes."""
    env = _env()
    rites = sections(glossary.entries)
    numbers = {entry.id: n for rite in rites for _, _, items in rite["groups"] for n, entry in items}

    full_plan = None
    plan_sources: list = []
    if glossary.plan is not None:
        # Each place numbered on the plan, its sources listed under the same number.
        full_plan = Markup(render_svg(glossary.plan, None, "Hall plan of the Yili rites",
                                      numbers=place_keys(glossary.plan), fit=PRINT_FIT_PX))
        plan_sources = keyed_sources(glossary.plan, glossary.plan_loci)
    covered = {rite.id for entry in glossary.entries for rite in entry.rites}
    timelines = [
        {**_rite_info(rite), "steps": glossary.sequences.get(rite.id, ())}
        for rite in vocabulary().rites if rite.id in covered
    ]

    css = stylesheet(options, rites)
    entries = list(glossary.entries)
    html = env.get_template("glossary.html").render(
        css=Markup(css),
        rites=rites,
        entries=entries,
        citation_count=sum(len(e.citations) for e in entries),
        render_entry=entry_printer(glossary),
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
    covered = [r for r in vocabulary().rites if any(r in e.rites for e in glossary.entries)]
    rite = vocabulary().rite(rite_name)
    if rite is None or rite not in covered:
        raise ValueError(f"no study sheet for {rite_name!r}: choose one of {', '.join(r.simplified for r in covered)}")
    members = tuple(e for e in glossary.entries if rite in e.rites)
    info = {**_rite_info(rite), "groups": by_category(members)}
    env = _env()
    css = env.get_template("sheet.css").render(paper=PAPER[options.paper], rite=info)
    html = env.get_template("sheet.html").render(css=Markup(css), rite=info, count=len(members))
    return f"sheet-{rite.id}.html", html.encode("utf-8")
