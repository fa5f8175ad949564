"""The study sheets: for one rite, the prompts left of a fold line and the answers right of it,
then the reverse sheet; as HTML, and as PDF with no near-empty last page."""

from __future__ import annotations

from collections import Counter

from markupsafe import Markup

from glossary.model import Glossary
from glossary.render import fonts, indexes
from glossary.render.printed import (
    PAPER,
    PrintOptions,
    _env,
    _rite_info,
    entry_numbers,
    with_fonts,
)
from glossary.vocab import vocabulary


def render_sheet(
    glossary: Glossary, rite_name: str, options: PrintOptions, size: float = 9.0
) -> tuple[str, bytes]:
    """A study sheet for one rite that folds: on every page the prompts (§ number, characters in
    both scripts) lie left of one fold line and the answers (reading, gloss) right of it; then a
    reverse sheet (English → characters) with the characters right of the fold."""
    covered = [r for r in vocabulary().rites if any(r in e.rites for e in glossary.entries)]
    rite = vocabulary().rite(rite_name)
    if rite is None or rite not in covered:
        raise ValueError(
            f"no study sheet for {rite_name!r}: choose one of {', '.join(r.simplified for r in covered)}"
        )
    numbers = entry_numbers(glossary)
    members = sorted((e for e in glossary.entries if rite in e.rites), key=lambda e: numbers[e.id])
    groups = [
        (c.heading, c.zh, [(numbers[e.id], e) for e in members if e.category == c.id])
        for c in vocabulary().categories
    ]
    reverse = sorted(members, key=indexes.gloss_key)
    info = _rite_info(rite)
    env = _env()
    css = env.get_template("sheet.css").render(
        paper=PAPER[options.paper], rite=info, size=f"{size:g}", extra=fonts.EXTRA_FAMILY
    )
    html = env.get_template("sheet.html").render(
        css=Markup(css),
        rite=info,
        count=len(members),
        groups=groups,
        reverse=[(numbers[e.id], e) for e in reverse],
        script=Markup(env.get_template("sheet.js").render()),
    )
    return f"sheet-{rite.id}.html", with_fonts(html.encode("utf-8"))


def print_sheet(
    glossary: Glossary,
    rite_name: str,
    options: PrintOptions,
    font_chars: frozenset[str] = frozenset(),
) -> tuple[str, bytes]:
    """A study sheet as PDF with no near-empty last page: if the last page holds less than a third
    of the rows a full page holds, it is printed again a little smaller (at most three times)."""
    from glossary.render import chromium, pdf

    size = 9.0
    while True:  # 9, 8.5, 8 and 7.5 pt at most
        name, html = render_sheet(glossary, rite_name, options, size)
        printed = chromium.print_pdf(with_fonts(html, printing=True, chars=font_chars))
        rows = Counter(pdf.destinations(printed).values())
        pages = max(rows, default=1)
        if pages == 1 or rows[pages] * 3 >= max(rows.values()) or size <= 7.5:
            break
        size -= 0.5
    return name.removesuffix(".html") + ".pdf", pdf.finish(
        printed, glossary.epoch, f"{rite_name} study sheet"
    )
