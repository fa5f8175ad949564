"""Note contents: every field is escaped text or HTML rendered with autoescaping."""
from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import genanki
import jinja2
from markupsafe import Markup, escape

from glossary.corpus.model import Locus
from glossary.model import CharReading, Entry, Rendering, Retired, Step
from glossary.normalize import normalize_with_map, normalize
from glossary.render.anki.ids import note_guid
from glossary.render.anki.models import SPECS, field_values
from glossary.render.markup import reading_lines, ruby
from glossary.vocab import Rite, vocabulary


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("glossary", "templates/anki"),
        autoescape=True,
        trim_blocks=True,
        finalize=_finalize,
        keep_trailing_newline=False,
    )


def cloze_passage(passage: str, term: str) -> str | None:
    """The printed passage, escaped, with every occurrence of the term as ``{{c1::…}}``."""
    key, index = normalize_with_map(passage)
    target = normalize(term)
    spans = []
    pos = key.find(target)
    while pos != -1 and target:
        spans.append((index[pos], index[pos + len(target) - 1] + 1))
        pos = key.find(target, pos + len(target))
    if not spans:
        return None
    out, last = [], 0
    for start, end in spans:
        out.append(text(passage[last:start]))
        out.append("{{c1::" + text(passage[start:end]) + "}}")
        last = end
    out.append(text(passage[last:]))
    return "".join(out)


#: Besides HTML, Anki reads ``[sound:…]`` / ``[anki:play…]`` in a field as a play button and
#: ``{{…}}`` as template or cloze syntax: in text they are written as character references.
_ANKI_SYNTAX = str.maketrans({"[": "&#91;", "]": "&#93;", "{": "&#123;", "}": "&#125;"})


def text(value: str) -> str:
    """Text as a field's HTML: escaped, so Anki reads it as nothing but text."""
    return html.escape(value).translate(_ANKI_SYNTAX)


def _finalize(value: object) -> object:
    # Every value a card template prints passes here: text is escaped (as Jinja would) and Anki's
    # own syntax neutralised; Markup is HTML already.
    if isinstance(value, str) and not isinstance(value, Markup):
        return Markup(str(escape(value)).translate(_ANKI_SYNTAX))
    return value


@dataclass(frozen=True)
class NoteSpec:
    """One note before packaging: its key in the ledger, model kind, fields, tags, deck."""

    key: str
    guid: str
    kind: str
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    rites: tuple[Rite, ...]
    category: str

    def content(self) -> str:
        """What the ledger hashes: every field and tag."""
        return "\x1f".join(self.fields) + "\x1e" + " ".join(self.tags)


def tags_for(entry: Entry, loci: list[Locus]) -> tuple[str, ...]:
    """Category, rite, layer and the entry's own tags, as hierarchical Anki tags."""
    tags = {f"yili::category::{entry.category}"}
    tags.update(f"yili::rite::{r.simplified}" for r in entry.rites)
    tags.update(f"yili::layer::{locus.layer}" for locus in loci)
    tags.update(f"yili::tag::{t}" for t in entry.tags)
    return tuple(sorted(tags))


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")
SOUND_SUFFIXES = (".mp3", ".ogg", ".wav", ".m4a")


def media_html(names: list[str]) -> str:
    """``<img src>`` for images and ``[sound:…]`` for audio: the only references Anki follows."""
    parts = []
    for name in names:
        if name.lower().endswith(IMAGE_SUFFIXES):
            parts.append(f'<img src="{html.escape(name)}">')
        elif name.lower().endswith(SOUND_SUFFIXES):
            parts.append(f"[sound:{html.escape(name)}]")
    return "".join(parts)


@dataclass(frozen=True)
class PlanCard:
    """The hall plan of a position: media names of the labelled and unlabelled drawings, and sources."""

    labelled: str
    question: str
    loci: tuple[Locus, ...]
    notes: tuple[str | None, ...]


def _citations_html(items: list[tuple[Locus, str | None]],
                    modern: Callable[[Locus], tuple[Rendering, ...]] | None = None) -> str:
    citations = [{"text": locus.text, "note": note, "label": locus.label(with_file=False),
                  "modern": modern(locus) if modern else ()} for locus, note in items]
    return _env().get_template("citations.html").render(citations=citations).strip()


def term_note(entry: Entry, loci_by_citation: list[list[Locus]], occurrences, related: list[Entry],
              plan: PlanCard | None = None, media: list[str] = (),
              readings: tuple[CharReading, ...] = (),
              modern: Callable[[Locus], tuple[Rendering, ...]] | None = None) -> NoteSpec:
    """The recognition/recall (and, for positions on the plan, hall-plan) note of an entry.

    ``modern`` gives the modern renderings of a cited passage (``Glossary.renderings``), shown under it.
    """
    env = _env()
    citations = [(loci[0], c.note) for c, loci in zip(entry.citations, loci_by_citation) if loci]
    places = [
        {"place": place, "layer": layer, "count": count}
        for (place, layer), count in (occurrences.by_place[:6] if occurrences else ())
    ]
    fields = field_values("term", {
        "Term": text(entry.term),
        "Traditional": text(entry.traditional or ""),
        "Pinyin": text(entry.pinyin),
        "Ruby": ruby(entry.term, entry.pinyin),
        "Gloss": text(entry.gloss),
        "Definition": text(entry.definition),
        "DefinitionZh": text(entry.definition_zh or ""),
        "Category": text(vocabulary().category(entry.category).label),
        "Rites": text("、".join(r.simplified for r in entry.rites)),
        "Citations": _citations_html(citations, modern),
        "Concordance": env.get_template("concordance.html").render(places=places).strip(),
        "Related": env.get_template("related.html").render(related=related).strip(),
        "Id": text(entry.id),
        "Plan": f'<img src="{plan.labelled}">' if plan else "",
        "PlanQuestion": f'<img src="{plan.question}">' if plan else "",
        "PlanCitations": _citations_html(list(zip(plan.loci, plan.notes))) if plan else "",
        "Media": media_html(list(media)),
        "Readings": env.get_template("readings.html").render(lines=reading_lines(readings)).strip(),
    })
    flat = [locus for loci in loci_by_citation for locus in loci]
    return NoteSpec(f"note:{entry.id}", note_guid(entry.id), "term", fields, tags_for(entry, flat),
                    entry.rites, entry.category)


def cloze_note(entry: Entry, loci_by_citation: list[list[Locus]]) -> NoteSpec | None:
    """The term blanked in a verified passage (classic preferred), with its locus; None if no passage holds it."""
    candidates = sorted(
        (locus for loci in loci_by_citation for locus in loci[:1]),
        key=lambda locus: (locus.layer != "classic", len(locus.text)),
    )
    for locus in candidates:
        passage = cloze_passage(locus.text, entry.term)
        if passage and len(normalize(locus.text)) > len(normalize(entry.term)):
            fields = field_values("cloze", {
                "Passage": passage,
                "Locus": text(locus.label(with_file=False)),
                "Term": text(entry.term),
                "Ruby": ruby(entry.term, entry.pinyin),
                "Gloss": text(entry.gloss),
                "Id": text(entry.id),
            })
            return NoteSpec(f"cloze:{entry.id}", note_guid(entry.id, "cloze"), "cloze", fields,
                            tags_for(entry, [locus]), entry.rites, entry.category)
    return None


#: What a retired note says on its back: how to be rid of it (Anki's importer never deletes notes).
RETIRED_HOWTO = ("This entry was merged into another; its cards carry on there. To delete the retired "
                 "notes: Browse, search tag:yili::retired, select all, Notes ▸ Delete.")


def retired_notes(retired: Retired, into: Entry) -> list[NoteSpec]:
    """The term and cloze notes of a retired id, rewritten to say which entry holds the concept now.

    Same GUIDs as the notes the id used to key: importing the deck updates them in place
    (reviews kept) into notes that point to the merged entry, tagged ``yili::retired``.
    """
    where = f"{into.term} {into.pinyin} ({into.id})"
    values = {name: "" for name, _ in SPECS["term"][0]}
    values.update({
        "Term": text(retired.term),
        "Gloss": text(f"merged into {where}"),
        "Definition": text(f"{retired.note} {RETIRED_HOWTO}"),
        "Category": "retired",
        "Id": text(retired.id),
    })
    tags = ("yili::retired",)
    cloze = {"Passage": "{{c1::" + text(retired.term) + "}} → " + text(where), "Locus": "", "Term": text(retired.term),
             "Ruby": text(retired.term), "Gloss": text(f"merged into {where}"), "Id": text(retired.id)}
    return [
        NoteSpec(f"note:{retired.id}", note_guid(retired.id), "term", field_values("term", values), tags,
                 into.rites, "retired"),
        NoteSpec(f"cloze:{retired.id}", note_guid(retired.id, "cloze"), "cloze", field_values("cloze", cloze), tags,
                 into.rites, "retired"),
    ]


class StableNote(genanki.Note):
    """A genanki note whose modification time comes from the ledger, not the clock."""

    def __init__(self, *args: object, mod: int = 0, **kwargs: object):
        super().__init__(*args, **kwargs)
        self.mod = mod

    def write_to_db(self, cursor, timestamp: float, deck_id: int, id_gen) -> None:  # type: ignore[override]
        super().write_to_db(cursor, self.mod, deck_id, id_gen)


def sequence_note(step: Step, following: Step | None, preceding: Step | None) -> NoteSpec:
    """"What comes after 〈section〉?" for one section of a rite."""
    locus = f"禮經本義, {step.page_id}" if step.page_id else "禮經本義"
    fields = field_values("sequence", {
        "Key": text(step.key),
        "Rite": text(step.rite.simplified),
        "Number": str(step.number),
        "Section": text(step.name),
        "Next": text(following.name) if following else "(the rite ends)",
        "Previous": text(preceding.name) if preceding else "",
        "Locus": text(locus),
    })
    tags = ("yili::category::sequence", f"yili::rite::{step.rite.simplified}")
    return NoteSpec(f"sequence:{step.key}", note_guid(step.key, "sequence"), "sequence", fields, tags,
                    (step.rite,), "sequence")
