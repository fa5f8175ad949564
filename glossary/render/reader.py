"""The reader view: each rite of 禮經本義 as one page (``read/<rite>.html``), and their contents.

Classic and notes in the order of the book, each note's speakers named, every headword a link
to its entry in ``glossary.html``, every cited passage an anchor (the entries' "in the text"
links go there) with links back to the entries that cite it, the received text's other
readings at their place, and the modern rendering after the passages it renders; a section with
stage plans shows them beside its text, a step at a time (``stage.html``; ``stages.js`` the one
script, without which every step is shown). The web page's stylesheet (``screen.css``), the
reader's own (``reader.css``) and the stage plans' (``stages.css``); one rite a page, so a phone
loads one rite, not the book.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from html import escape

from markupsafe import Markup

from glossary import version
from glossary.model import Entry, Glossary
from glossary.render import fonts, glyphs, stage_html, stage_svg
from glossary.render.printed import _env, entry_numbers
from glossary.render.reader_links import CONTENTS, GLOSSARY, page_name
from glossary.render.terms_json import ATTRIBUTION
from glossary.rite_text import Block, RiteText
from glossary.vocab import vocabulary


def render(glossary: Glossary) -> dict[str, bytes]:
    """Every rite's page and the contents page, as output files."""
    text = glossary.reader
    if text is None or not text.rites:
        return {}
    by_id = {rite.id: rite for rite in vocabulary().rites}
    numbers = entry_numbers(glossary)
    entries = {entry.id: entry for entry in glossary.entries}
    absent = set(fonts.missing(_chars(text.rites)))
    # One subset of BabelStone Han for every page (inlined in each: a page opened from disk may
    # not load a font file beside it): one subsetting, not one a rite.
    faces = fonts.extra_font_face(_chars(text.rites) - absent)
    env = _env()
    css = Markup(
        env.get_template("screen.css").render()
        + "\n"
        + env.get_template("reader.css").render()
        + "\n"
        + env.get_template("stages.css").render()
        + "\n"
        + stage_svg.stage_css(True)
    )
    staged = stage_html.sections(
        glossary,
        link=lambda ident: f"{GLOSSARY}#e-{ident}",
        fit=stage_html.READER_FIT_PX,
        auto_dark=True,
    )
    common = {
        "css": css,
        "glossary": GLOSSARY,
        "title": text.title,
        "witness": text.witness,
        "renderings": text.renderings,
        "version": version(),
        "attribution": ATTRIBUTION,
        "fonts": Markup(faces),
        "stage_script": Markup(env.get_template("stages.js").render()),
    }
    rites = [(by_id[r.rite], r) for r in text.rites if r.rite in by_id]
    outputs = {}
    template = env.get_template("reader.html")
    for i, (rite, rite_text) in enumerate(rites):
        html = template.render(
            **common,
            rite=rite,
            juans=rite_text.juans,
            sections=_sections(rite_text, entries, numbers, absent, staged.get(rite.id, ())),
            previous=rites[i - 1][0] if i else None,
            next=rites[i + 1][0] if i + 1 < len(rites) else None,
        )
        outputs[page_name(rite.id)] = html.encode("utf-8")
    contents = env.get_template("reader_index.html").render(
        **common, rites=[(rite, r.juans) for rite, r in rites]
    )
    outputs[CONTENTS] = contents.encode("utf-8")
    fonts.check_drawn({name: data.decode("utf-8") for name, data in outputs.items()})
    return outputs


def _chars(rites: tuple[RiteText, ...]) -> set[str]:
    """Every character the pages print of the text."""
    parts = []
    for rite in rites:
        for block in rite.blocks:
            parts.append(block.text)
            parts += [m.text for m in block.modern]
            parts += [r.received for r in block.readings]
    return fonts.drawn("".join(parts))


def _sections(
    rite: RiteText,
    entries: Mapping[str, Entry],
    numbers: Mapping[str, int],
    absent: AbstractSet[str],
    staged: tuple[stage_html.SectionView, ...] = (),
) -> list[dict]:
    """The rite's sections: (heading or "", id, [block HTML …], its stage plans or None), the
    text before the first heading first."""
    found: list[dict] = [{"heading": "", "id": "", "blocks": [], "stage": None}]
    plans = {(s.name, s.repeat): s for s in staged}
    seen: dict[str, int] = {}
    page = None
    for block in rite.blocks:
        if block.kind == "heading":
            heading = plain_html(block.text, absent)
            seen[block.text] = seen.get(block.text, 0) + 1
            stage = plans.get((block.text, seen[block.text]))
            found.append({"heading": heading, "id": f"s{len(found)}", "blocks": [], "stage": stage})
            continue
        # A new page at the block's start is marked before it (inside it, where it falls).
        turn = Markup(_page(block.juan, block.page)) if block.page and block.page != page else ""
        page = block.pages[-1][1] if block.pages else block.page or page
        found[-1]["blocks"].append(
            {
                "kind": block.kind,
                "html": turn + text_html(block, entries, numbers, absent),
                "modern": [(m.certain, plain_html(m.text, absent)) for m in block.modern],
                "page": block.page,
                "juan": block.juan,
            }
        )
    return [s for s in found if s["heading"] or s["blocks"]]


def plain_html(text: str, absent: AbstractSet[str] = frozenset()) -> Markup:
    """Text as HTML, escaped, each character no font draws shown by its code point."""
    return Markup(glyphs.mark_escaped("".join(_char(ch, absent) for ch in text)))


def _char(ch: str, absent: AbstractSet[str]) -> str:
    """One character as HTML: escaped; one no font draws is shown by its code point (the build
    fails on an empty box, and the reader sees what stands there)."""
    if ch in absent:
        return f'<span class="nog" title="U+{ord(ch):04X}">U+{ord(ch):04X}</span>'
    return escape(ch, quote=False)


def text_html(
    block: Block,
    entries: Mapping[str, Entry],
    numbers: Mapping[str, int],
    absent: AbstractSet[str] = frozenset(),
) -> Markup:
    """A block's text as HTML: its headwords linked, its cited places anchored (with links back to
    the entries citing them), the received text's readings beside the characters they differ in,
    page changes and speakers marked where they fall."""
    text, size = block.text, len(block.text)
    link_of: list[int | None] = [None] * size
    for n, (start, end, _) in enumerate(block.links):
        for i in range(start, min(end, size)):
            link_of[i] = n
    var_of: list[int | None] = [None] * size
    notes: dict[int, list[str]] = {}
    for n, reading in enumerate(block.readings):
        end = min(reading.at + len(reading.printed), size)
        for i in range(reading.at, end):
            var_of[i] = n
        plus = "+" if not reading.printed else ""
        notes.setdefault(end, []).append(
            f'<span class="rcv"><span class="visually-hidden"> received text: </span>'
            f"〔{plus}{plain_html(reading.received, absent) or '—'}〕</span>"
        )
    for at, who in block.speakers:
        if text.startswith(who, at):
            continue  # the note names him itself (鄭康成曰): the author's own words are marked
        notes.setdefault(at, []).append(f'<span class="who" lang="zh-Hant">{escape(who)}</span>')
    for at, label in block.pages:
        notes.setdefault(at, []).append(_page(block.juan, label))
    for at, name, ids in block.cited:
        backs = "".join(
            f'<a href="{GLOSSARY}#e-{escape(i)}" lang="zh-Hans">'
            f"§{numbers.get(i, '')}&#8239;{escape(entries[i].term) if i in entries else ''}</a>"
            for i in ids
        )
        notes.setdefault(at, []).append(
            f'<span class="cited" id="{escape(name)}"><span class="visually-hidden">cited by </span>'
            f"{backs}</span>"
        )
    out: list[str] = []
    link: int | None = None
    var: int | None = None
    for i in range(size + 1):
        here_link = link_of[i] if i < size else None
        here_var = var_of[i] if i < size else None
        marks = notes.get(i)
        if marks or here_link != link:
            if var is not None:
                out.append("</span>")
            if link is not None:
                out.append("</a>")
            link = var = None
            if marks:
                out.extend(marks)
            if here_link is not None:
                ident = block.links[here_link][2]
                out.append(f'<a href="{GLOSSARY}#e-{escape(ident)}">')
                link = here_link
        if here_var != var:
            if var is not None:
                out.append("</span>")
            if here_var is not None:
                out.append('<span class="var">')
            var = here_var
        if i < size:
            out.append(_char(text[i], absent))
    # A glyph entity (&KR1951;), escaped letter by letter above, as the character it stands for.
    return Markup(glyphs.mark_escaped("".join(out)))


def _page(juan: int | None, label: str) -> str:
    """A page change: ``卷14 p.1b``, with an id (``p14-1b``) to link to."""
    number = juan if juan is not None else 0
    return (
        f'<span class="pb" id="p{number}-{escape(label)}" aria-label="page {number}-{escape(label)}">'
        f"{number}-{escape(label)}</span>"
    )
