"""`glossary preview ID`: every card of an entry (front and back, with the deck's CSS) and its
printed entry on one HTML page, so a contributor sees the result without opening Anki."""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING

import chevron

from glossary.files import write_file_atomically

if TYPE_CHECKING:
    from glossary.cache import IndexCache
from glossary.model import Glossary
from glossary.render.anki.models import SPECS, css, template_text
from glossary.render.anki.notes import NoteSpec
from glossary.render.anki.render import note_specs, plan_media
from glossary.render.printed import render_entry, stylesheet

CLOZE = re.compile(r"\{\{c(\d+)::(.*?)(?:::(.*?))?\}\}")
#: Anki's furigana filter: ``西[xī]`` → ruby (the base runs back to a space or a tag's ``>``).
FURIGANA = re.compile(r" ?([^ >]+?)\[(.+?)\]")


def furigana(value: str) -> str:
    """What Anki's ``{{furigana:Field}}`` makes of a field in bracket form."""
    return FURIGANA.sub(r"<ruby><rb>\1</rb><rt>\2</rt></ruby>", value)


def _fields(spec: NoteSpec) -> dict[str, str]:
    names = [name for name, _ in SPECS[spec.kind][0]]
    return dict(zip(names, spec.fields))


def render_card(
    template: str, fields: dict[str, str], front: str | None = None, ordinal: int = 1
) -> str:
    """Anki's template language, enough for our templates: fields, sections, cloze (card ``ordinal``
    asks cN, the other clozes show their text), furigana, tts, FrontSide."""
    text = re.sub(
        r"\{\{tts [^}]*\}\}",
        '<span class="tts" title="read aloud by Anki">[audio]</span>',
        template,
    )
    cloze_side = "back" if front is not None else "front"

    def one(m: re.Match[str]) -> str:
        if int(m.group(1)) != ordinal:
            return m.group(2)
        if cloze_side == "front":
            return f'<span class="cloze">[{m.group(3) or "..."}]</span>'
        return f'<span class="cloze">{m.group(2)}</span>'

    def cloze(match: re.Match[str]) -> str:
        return CLOZE.sub(one, fields.get(match.group(1), ""))

    # The template is rendered alone, and field values and the front side are put in afterwards,
    # so nothing a contributor wrote is ever read as template syntax.
    slots: dict[str, str] = {}

    def slot(value: str) -> str:
        key = f"\x00{len(slots)}\x00"
        slots[key] = value
        return key

    text = re.sub(r"\{\{cloze:(\w+)\}\}", lambda m: slot(cloze(m)), text)
    text = re.sub(
        r"\{\{furigana:(\w+)\}\}", lambda m: slot(furigana(fields.get(m.group(1), ""))), text
    )
    text = text.replace("{{FrontSide}}", slot(front or ""))
    # Fields hold HTML already: Anki does not escape them, so neither do we (an empty field is
    # left empty, so that {{#Field}} sections behave as in Anki).
    rendered = chevron.render(
        text, {name: slot(value) if value else "" for name, value in fields.items()}
    )
    return re.sub("\x00\\d+\x00", lambda m: slots[m.group()], rendered)


def _cloze_numbers(fields: dict[str, str]) -> dict[str, int]:
    """Entry id → its cloze number in a passage note (Id and the glosses list them in the same order)."""
    numbers = [int(n) for n in re.findall(r'<span class="n">c(\d+)</span>', fields["Gloss"])]
    return dict(zip(fields["Id"].split(), numbers))


def _inline_media(html: str, media: dict[str, bytes]) -> str:
    for name, data in media.items():
        mime = "image/svg+xml" if name.endswith(".svg") else "application/octet-stream"
        html = html.replace(
            f'src="{name}"', f'src="data:{mime};base64,{base64.b64encode(data).decode()}"'
        )
    return html


def entry_cards(
    glossary: Glossary, entry_id: str, notes: Sequence[NoteSpec] | None = None
) -> list[tuple[str, str, str]]:
    """Every card Anki makes that asks ``entry_id``, in the deck's order, as (card type, front,
    back) with the media inlined (``notes``: the glossary's ``note_specs``, when several previews
    share them)."""
    specs = [
        s
        for s in (note_specs(glossary) if notes is None else notes)
        if s.fields
        and "yili::retired" not in s.tags
        and (
            s.key == f"note:{entry_id}"
            or (s.kind == "cloze" and entry_id in _fields(s)["Id"].split())
        )
    ]
    media = {**glossary.media, **plan_media(glossary)}
    cards = []
    for spec in specs:
        fields = _fields(spec)
        for name, _, front_file, back_file, *_ in SPECS[spec.kind][1]:
            # A passage note asks each of its headwords on a card of its own: show the entry's.
            ordinals = [_cloze_numbers(fields).get(entry_id, 1)] if spec.kind == "cloze" else [1]
            for ordinal in ordinals:
                front = render_card(template_text(front_file), fields, ordinal=ordinal)
                if not re.sub(r"<[^>]+>|\s", "", front):
                    continue  # Anki makes no card when the front is empty (e.g. no hall plan)
                back = render_card(template_text(back_file), fields, front=front, ordinal=ordinal)
                cards.append((name, _inline_media(front, media), _inline_media(back, media)))
    return cards


def preview(glossary: Glossary, entry_id: str, notes: Sequence[NoteSpec] | None = None) -> bytes:
    """One self-contained page: the entry's cards, then its printed entry (``notes``: the
    glossary's ``note_specs``, when several previews share them)."""
    cards = entry_cards(glossary, entry_id, notes)
    entry_html = render_entry(glossary, entry_id)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Preview: {escape(entry_id)}</title>",
        "<style>",
        css(),
        ".preview-card { display: inline-block; vertical-align: top; width: 420px; margin: 10px; "
        "border: 1px solid #ccc; border-radius: 8px; overflow: hidden; }",
        ".preview-card h3 { margin: 0; padding: 6px 10px; font: 13px sans-serif; background: #eee; }",
        ".preview-card .card { padding: 12px; min-height: 120px; }",
        ".night .card { color: #e8e6e3; background: #1e1e1e; }",
        ".printed { max-width: 180mm; margin: 20px auto; padding: 10mm; border: 1px solid #ccc; }",
        "</style><style>",
        stylesheet(None),
        "</style></head><body>",
        f"<h1>Preview of <code>{escape(entry_id)}</code></h1>",
    ]
    for name, front, back in cards:
        for side, html in (("front", front), ("back", back)):
            parts.append(
                f'<div class="preview-card"><h3>{escape(name)} — {side}</h3><div class="card">{html}</div></div>'
            )
    parts.append(f'<h2>Printed glossary</h2><div class="printed">{entry_html}</div>')
    parts.append("</body></html>")
    return "\n".join(parts).encode("utf-8")


#: The classes Anki's desktop puts on <body> for a card (aqt's theme manager), by mode.
BODY_CLASSES = {False: "card card1", True: "card card1 nightMode night_mode"}


def phone_card(
    glossary: Glossary,
    entry_id: str,
    template: str = "Recall",
    side: str = "back",
    night: bool = False,
    ordinal: int = 1,
) -> bytes:
    """One card of an entry as Anki shows it on a phone: the card's HTML in a <body> with Anki's
    classes (night mode or not), the deck's CSS, the media inlined. For the README's pictures."""
    kind = next(
        kind for kind, (_, templates) in SPECS.items() if any(t[0] == template for t in templates)
    )
    spec = next(
        s
        for s in note_specs(glossary)
        if s.kind == kind
        and "yili::retired" not in s.tags
        and (
            s.key == f"note:{entry_id}"
            or (kind == "cloze" and entry_id in _fields(s)["Id"].split())
        )
    )
    fields = _fields(spec)
    if kind == "cloze":
        ordinal = _cloze_numbers(fields).get(entry_id, ordinal)
    _, _, front_file, back_file, *_ = next(t for t in SPECS[kind][1] if t[0] == template)
    front = render_card(template_text(front_file), fields, ordinal=ordinal)
    html = (
        front
        if side == "front"
        else render_card(template_text(back_file), fields, front=front, ordinal=ordinal)
    )
    media = {**glossary.media, **plan_media(glossary)}
    return phone_page(
        f"{entry_id}: {template} ({side})", _inline_media(html, media), night, fill=True
    )


def phone_page(title: str, html: str, night: bool = False, fill: bool = False) -> bytes:
    """A card's HTML on a page of its own as Anki shows it on a phone: in a <body> with Anki's
    classes (night mode or not) and the deck's CSS; ``fill``: at least a screen tall."""
    fills = " min-height: 100vh;" if fill else ""
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}</title>",
            f"<style>{css()}\nbody {{ margin: 0; padding: 16px 12px;{fills} box-sizing: border-box; }}</style>",
            f'</head><body class="{BODY_CLASSES[night]}">{html}</body></html>',
        ]
    ).encode("utf-8")


#: The pictures of ``preview --png``: each card at a phone's width, the printed entry at about
#: its printed column's, both at two device pixels per CSS pixel (a phone's, and sharp characters).
PHONE_WIDTH = 400
PRINTED_WIDTH = 680
PNG_SCALE = 2


def printed_page(glossary: Glossary, entry_id: str) -> bytes:
    """The printed entry alone, on a page with the printed glossary's stylesheet."""
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{escape(entry_id)}: printed glossary</title>",
            f"<style>{stylesheet(None)}\nbody {{ margin: 0; padding: 8mm; background: #ffffff; }}</style>",
            f"</head><body>{render_entry(glossary, entry_id)}</body></html>",
        ]
    ).encode("utf-8")


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def png_pages(
    glossary: Glossary, entry_id: str, notes: Sequence[NoteSpec] | None = None
) -> list[tuple[str, bytes, int]]:
    """What ``preview --png`` draws for ``entry_id``, in order, as (file name, page, width): the
    front and back of each card (``ID-recognition-front.png`` …; a card type the entry has more
    than one card of, as passage cards, is numbered: ``ID-cloze-2-back.png``), then the printed
    entry (``ID-printed.png``)."""
    cards = entry_cards(glossary, entry_id, notes)
    kinds = [name for name, _, _ in cards]
    seen: dict[str, int] = {}
    pages = []
    for name, front, back in cards:
        seen[name] = seen.get(name, 0) + 1
        label = _slug(name) + (f"-{seen[name]}" if kinds.count(name) > 1 else "")
        for side, html in (("front", front), ("back", back)):
            title = f"{entry_id}: {name} ({side})"
            pages.append((f"{entry_id}-{label}-{side}.png", phone_page(title, html), PHONE_WIDTH))
    pages.append((f"{entry_id}-printed.png", printed_page(glossary, entry_id), PRINTED_WIDTH))
    return pages


def write_preview(
    terms: Path,
    corpus: Path,
    entry_id: str,
    out: Path | None = None,
    png: bool = False,
    *,
    cache: IndexCache | None = None,
) -> list[Path]:
    """Check the glossary, then write the preview page of ``entry_id`` (with ``png``, a picture of
    each card and of the printed entry beside it, see :func:`png_pages`); the files written.

    The entry must be valid; problems elsewhere in the file do not stop a preview.
    """
    from glossary.errors import DataError

    out = out or Path(f"preview-{entry_id}.html")
    if not out.resolve().parent.is_dir():
        raise DataError(f"{out}: its folder {out.resolve().parent} does not exist")
    return _write(terms, corpus, {entry_id: out}, png, cache)


def write_previews(
    terms: Path,
    corpus: Path,
    entry_ids: Sequence[str],
    folder: Path,
    png: bool = False,
    *,
    cache: IndexCache | None = None,
) -> list[Path]:
    """``preview-ID.html`` (and its pictures) in ``folder`` for each of ``entry_ids``: the glossary is
    checked and its notes made once, for all of them (a pull request's changed entries, in CI)."""
    from glossary.errors import DataError

    if not folder.is_dir():
        raise DataError(f"{folder}: no such folder")
    return _write(terms, corpus, {i: folder / f"preview-{i}.html" for i in entry_ids}, png, cache)


def _write(
    terms: Path, corpus: Path, outs: dict[str, Path], png: bool, cache: IndexCache | None
) -> list[Path]:
    from glossary.build import gather
    from glossary.cache import IndexCache
    from glossary.check import check_project
    from glossary.errors import DataError

    cache = cache if cache is not None else IndexCache.from_environment()
    # The rules of the other entries only warn: a preview runs those of its own entries.
    report = check_project(terms, corpus, cache=cache, only=frozenset(outs))
    valid = {e.id for e in report.entries} if report.index is not None else set()
    if missing := [i for i in outs if i not in valid]:
        problems = "\n".join(str(p) for p in report.problems)
        names = ", ".join(repr(i) for i in missing)
        raise DataError(
            f"no valid entry {names} in {terms}" + (f":\n{problems}" if problems else "")
        )
    # A preview stands alone: no reader view beside it for "in the text" to open.
    glossary = gather(report, terms.parent, reader=False, only=frozenset(outs))
    notes = note_specs(glossary, only=frozenset(outs))
    written = []
    pictures: list[tuple[Path, bytes, int]] = []
    for entry_id, out in outs.items():
        html = preview(glossary, entry_id, notes)
        # Renamed over the name, never written through it: a committed ``preview-bi.html`` link
        # (to ~/.ssh/authorized_keys, say) is refused, not followed.
        write_file_atomically(out, html)
        written.append(out)
        if png:
            pictures += [
                (out.parent / name, page, width)
                for name, page, width in png_pages(glossary, entry_id, notes)
            ]
    if pictures:
        from glossary.render.chromium import screenshots

        # One Chromium for every picture of every entry.
        drawn = screenshots([(page, width) for _, page, width in pictures], scale=PNG_SCALE)
        for (path, _, _), data in zip(pictures, drawn):
            write_file_atomically(path, data)
            written.append(path)
    return written
