"""Note contents: every field is escaped text or HTML rendered with autoescaping."""

from __future__ import annotations

import html
import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import genanki
import jinja2
from markupsafe import Markup

from glossary.corpus.mandoku import PAGE_ID
from glossary.corpus.model import Locus
from glossary.enrich.pinyin import tts_text
from glossary.model import CharReading, Cited, Entry, Occurrences, Retired, Sense, Step
from glossary.model_alignment import Rendering
from glossary.normalize import normalize, normalize_with_map
from glossary.render import glyphs
from glossary.render.anki.ids import note_guid
from glossary.render.anki.models import SPECS, field_values
from glossary.render.anki.modern import citation_lines
from glossary.render.markup import bracket_reading, reading_lines
from glossary.vocab import Rite, vocabulary


@lru_cache(maxsize=1)
def template_env() -> jinja2.Environment:
    """The card and deck templates' environment: autoescaped, Anki's own syntax neutralised."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("glossary", "templates/anki"),
        autoescape=True,
        trim_blocks=True,
        finalize=_finalize,
        keep_trailing_newline=False,
    )


#: What stands for a headword where a front would otherwise show it (Recall cues, masked rite names).
MASK = "～"


def spans(passage: str, forms: tuple[str, ...] | list[str]) -> list[tuple[int, int]]:
    """Where any of ``forms`` stands in ``passage`` (any script, any variant the checker folds), as
    (start, end) in the printed passage, sorted, overlapping ones joined."""
    key, index = normalize_with_map(passage)
    found = []
    for form in forms:
        target = normalize(form)
        pos = key.find(target) if target else -1
        while pos != -1:
            found.append((index[pos], index[pos + len(target) - 1] + 1))
            pos = key.find(target, pos + 1)
    joined: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if joined and start < joined[-1][1]:
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
        else:
            joined.append((start, end))
    return joined


def masked(value: str, forms: tuple[str, ...] | list[str]) -> str:
    """``value`` as field text with every occurrence of ``forms`` written ``～``."""
    out, last = [], 0
    for start, end in spans(value, forms):
        out.append(text(value[last:start]) + MASK)
        last = end
    return "".join(out) + text(value[last:])


def cue_rites(rites: tuple[Rite, ...], forms: tuple[str, ...]) -> str:
    """The rites on a front that asks for the headword: a rite whose name holds the headword is
    named in English, since its name with the headword masked (士～礼 for 虞) gives the answer."""
    return "、".join(
        text(rite.english)
        if spans(rite.simplified, forms) or spans(rite.traditional, forms)
        else text(rite.simplified)
        for rite in rites
    )


def forms_of(entry: Entry) -> tuple[str, ...]:
    """Every headword form of an entry: the term, its traditional form, its variants."""
    return tuple(f for f in (entry.term, entry.traditional, *entry.variants) if f)


#: Besides HTML, Anki reads ``[sound:…]`` / ``[anki:play…]`` in a field as a play button and
#: ``{{…}}`` as template or cloze syntax: in text they are written as character references.
_ANKI_SYNTAX = str.maketrans({"[": "&#91;", "]": "&#93;", "{": "&#123;", "}": "&#125;"})


def text(value: str) -> str:
    """Text as a field's HTML: escaped, so Anki reads it as nothing but text."""
    # quote=False: a field's text is never an attribute, and "guest's" must stay searchable.
    # A glyph entity of the corpus (&KR1152;) is shown as the character it stands for, framed.
    return glyphs.mark_escaped(html.escape(value, quote=False)).translate(_ANKI_SYNTAX)


#: A definition longer than this (characters) shows its first sentences, up to about this many,
#: and keeps the rest behind a "more": a back fits two phone screens (issue 25).
SHOWN_DEFINITION = 700


def definition_html(definition: str) -> str:
    """The definition as a field: whole when short; else its first sentences, then the rest in a
    closed ``details`` (the sense in the other rites, mostly)."""
    if len(definition) <= SHOWN_DEFINITION:
        return text(definition)
    cut = 0
    for match in re.finditer(r"(?<=[.;])\s+(?=\S)", definition):
        if match.start() > SHOWN_DEFINITION:
            break
        cut = match.end()
    if cut == 0 or len(definition) - cut < 80:
        return text(definition)
    return (
        f"{text(definition[:cut].rstrip())}"
        f'<details class="more"><summary lang="en">The rest of the definition</summary>'
        f"{text(definition[cut:])}</details>"
    )


def senses_html(senses: Sequence[Sense]) -> str:
    """The senses by rite, under the definition: ``乡射礼 · 大射仪: gloss``, each sense's own
    definition behind a closed "more" (two senses of several rites would fill a phone screen)."""
    if not senses:
        return ""
    items = "".join(
        f'<li><span class="sense-rites" lang="zh-Hans">'
        f"{text(' · '.join(rite.simplified for rite in sense.rites))}</span>: {text(sense.gloss)}"
        + (
            f'<details class="more"><summary lang="en">In these rites</summary>'
            f"{text(sense.definition)}</details>"
            if sense.definition
            else ""
        )
        + "</li>"
        for sense in senses
    )
    return f'<ul class="senses">{items}</ul>'


def _finalize(value: object) -> object:
    # Every value a card template prints passes here: text is escaped (as Jinja would) and Anki's
    # own syntax neutralised; Markup is HTML already.
    if isinstance(value, str) and not isinstance(value, Markup):
        # Values go into text, never into attributes (tests/render/test_anki.py checks the templates):
        # quotes stay as they are, so Anki's search finds "guest's".
        return Markup(text(value))
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
    #: The place's sources, resolved (those found).
    cited: tuple[Cited, ...]


#: The passages a back shows open; the rest are behind a "more" (a back fits two phone screens).
SHOWN_CITATIONS = 2


def citations_html(
    items: Sequence[Cited],
    modern: Callable[[Locus], tuple[Rendering, ...]] | None = None,
) -> str:
    """The passages of a back (each found citation's quoted place, note, label and rendering)."""
    found = [c for c in items if c.found]
    shown = citation_lines((c.loci[0].text, modern(c.loci[0]) if modern else ()) for c in found)
    citations = [
        {"text": c.loci[0].text, "note": c.citation.note, "label": c.label, "modern": lines}
        for c, lines in zip(found, shown)
    ]
    return (
        template_env()
        .get_template("citations.html")
        .render(citations=citations, shown=SHOWN_CITATIONS)
        .strip()
    )


def term_note(
    entry: Entry,
    cited: Sequence[Cited],
    occurrences: Occurrences | None,
    related: list[Entry],
    plan: PlanCard | None = None,
    media: Sequence[str] = (),
    readings: tuple[CharReading, ...] = (),
    modern: Callable[[Locus], tuple[Rendering, ...]] | None = None,
) -> NoteSpec:
    """The recognition/recall (and, for positions on the plan, hall-plan) note of an entry.

    ``modern`` gives the modern renderings of a cited passage (``Glossary.renderings``), shown under it.
    Nothing in it depends on another entry's gloss or definition: an edit touches its own notes only.
    """
    env = template_env()
    places = [
        {"place": place, "layer": layer, "count": count}
        for (place, layer), count in (occurrences.by_place[:6] if occurrences else ())
    ]
    forms = forms_of(entry)
    fields = field_values(
        "term",
        {
            "Term": text(entry.term),
            "Traditional": text(entry.traditional or ""),
            "Pinyin": text(entry.pinyin),
            "Ruby": bracket_reading(entry.term, entry.pinyin),
            "Gloss": text(entry.gloss),
            "Definition": definition_html(entry.definition) + senses_html(entry.senses),
            "DefinitionZh": text(entry.definition_zh or ""),
            "Category": text(vocabulary().category(entry.category).label),
            "Rites": text("、".join(r.simplified for r in entry.rites)),
            "Citations": citations_html(cited, modern),
            "Concordance": env.get_template("concordance.html").render(places=places).strip(),
            "Related": env.get_template("related.html").render(related=related).strip(),
            "Id": text(entry.id),
            "Plan": f'<img src="{plan.labelled}">' if plan else "",
            "PlanQuestion": f'<img src="{plan.question}">' if plan else "",
            "PlanCitations": citations_html(plan.cited) if plan else "",
            "Media": media_html(list(media)),
            "Readings": env.get_template("readings.html")
            .render(lines=reading_lines(readings))
            .strip(),
            # The fronts that ask for the headword show these: the headword masked in every form.
            "CueGloss": masked(entry.gloss, forms),
            "CueRites": cue_rites(entry.rites, forms),
            "TTS": text(tts_text(entry)),
        },
    )
    flat = [locus for c in cited for locus in c.places]
    return NoteSpec(
        f"note:{entry.id}",
        note_guid(entry.id),
        "term",
        fields,
        tags_for(entry, flat),
        entry.rites,
        entry.category,
    )


#: What the old note of a passage card that moved says on its back.
MOVED_HOWTO = (
    "Its card carries on in that note; this one can be deleted: Browse, search tag:yili::retired, "
    "select all, Notes ▸ Delete."
)


def moved_cloze_note(entry: Entry, now_in: str | None) -> NoteSpec:
    """The note an entry's passage card used to be, once the card lives in another note: it says
    where, so the old card can be deleted (Anki's importer never deletes a note)."""
    where = (
        f"now asked in the passage note of {now_in}" if now_in else "no longer asked in a passage"
    )
    # The gloss as the cloze's hint: no two of these old cards ask the same question.
    cloze = {
        "Passage": f"{{{{c1::{text(entry.term)}::{text(entry.gloss)}}}}} " + text(f"({where})"),
        "Locus": "",
        "Term": text(entry.term),
        "Ruby": bracket_reading(entry.term, entry.pinyin),
        "Gloss": text(f"{where}. {MOVED_HOWTO}"),
        "Id": text(entry.id),
        "TTS": "",
    }
    return NoteSpec(
        f"cloze:{entry.id}",
        note_guid(entry.id, "cloze"),
        "cloze",
        field_values("cloze", cloze),
        ("yili::retired",),
        entry.rites,
        "retired",
    )


#: What a retired note says on its back: how to be rid of it (Anki's importer never deletes notes).
RETIRED_HOWTO = (
    "This entry was merged into another; its cards carry on there. To delete the retired "
    "notes: Browse, search tag:yili::retired, select all, Notes ▸ Delete."
)


def retired_notes(retired: Retired, into: Entry) -> list[NoteSpec]:
    """The term and cloze notes of a retired id, rewritten to say which entry holds the concept now.

    Same GUIDs as the notes the id used to key: importing the deck updates them in place
    (reviews kept) into notes that point to the merged entry, tagged ``yili::retired``.
    """
    where = f"{into.term} {into.pinyin} ({into.id})"
    values = {name: "" for name, _ in SPECS["term"][0]}
    values.update(
        {
            "Term": text(retired.term),
            "Gloss": text(f"merged into {where}"),
            "Definition": text(f"{retired.note} {RETIRED_HOWTO}"),
            "Category": "retired",
            "Id": text(retired.id),
            "CueGloss": text(f"merged into {where}"),
        }
    )
    tags = ("yili::retired",)
    cloze = {
        "Passage": "{{c1::" + text(retired.term) + "}} → " + text(where),
        "Locus": "",
        "Term": text(retired.term),
        "Ruby": text(retired.term),
        "Gloss": text(f"merged into {where}"),
        "Id": text(retired.id),
        "TTS": "",
    }
    return [
        NoteSpec(
            f"note:{retired.id}",
            note_guid(retired.id),
            "term",
            field_values("term", values),
            tags,
            into.rites,
            "retired",
        ),
        NoteSpec(
            f"cloze:{retired.id}",
            note_guid(retired.id, "cloze"),
            "cloze",
            field_values("cloze", cloze),
            tags,
            into.rites,
            "retired",
        ),
    ]


class StableNote(genanki.Note):
    """A genanki note whose modification time comes from the ledger, not the clock."""

    def __init__(
        self, *args: object, mod: int = 0, positions: dict[int, int] | None = None, **kwargs: object
    ):
        super().__init__(*args, **kwargs)
        self.mod = mod
        #: Card ord → its ``due`` as a new card (genanki gives every card of a note the note's).
        self.positions = positions or {}

    def write_to_db(
        self, cursor: sqlite3.Cursor, timestamp: float, deck_id: int, id_gen: Iterator[int]
    ) -> None:
        super().write_to_db(cursor, self.mod, deck_id, id_gen)
        if self.positions:
            (nid,) = cursor.execute("select id from notes where guid = ?", (self.guid,)).fetchone()
            cursor.executemany(
                "update cards set due = ? where nid = ? and ord = ?",
                [(due, nid, ord_) for ord_, due in sorted(self.positions.items())],
            )


def sequence_note(step: Step, following: Step | None, before: list[Step]) -> NoteSpec:
    """ "What comes after 〈section〉?" for one section of a rite; ``before``: the sections just before
    it that the front shows, so that a name the rite has twice asks two different questions."""
    leaf = PAGE_ID.search(step.page_id) if step.page_id else None
    # 卷 and leaf as a reader finds them (禮經本義 卷1 p.4a), not the Kanripo page id.
    locus = f"禮經本義 卷{int(leaf.group(1))} p.{leaf.group(2)}" if leaf else "禮經本義"
    fields = field_values(
        "sequence",
        {
            # The sort field: the rite in 禮經本義's order, then the step, zero-padded.
            "Key": text(
                f"{step.rite.order:02d} {step.rite.simplified} {step.number:03d} {step.name}"
            ),
            "Rite": text(step.rite.simplified),
            "Number": str(step.number),
            "Section": text(step.name),
            "Next": text(following.name) if following else "",
            "Previous": text(" → ".join(f"〈{s.name}〉" for s in before)),
            "Locus": text(locus),
            "Grades": "grades" if step.rite.sections == "grades" else "",
        },
    )
    tags = ("yili::category::sequence", f"yili::rite::{step.rite.simplified}")
    return NoteSpec(
        f"sequence:{step.key}",
        note_guid(step.key, "sequence"),
        "sequence",
        fields,
        tags,
        (step.rite,),
        "sequence",
    )


def sequence_notes(steps: tuple[Step, ...] | list[Step]) -> list[NoteSpec]:
    """The "what comes next" notes of one rite: each front shows the section and as many sections
    before it as make the question the rite's only one of its kind (at least the one just before)."""
    steps = list(steps)
    specs = []
    for i, step in enumerate(steps):
        size = 1
        while size < i:
            chain = [s.name for s in steps[i - size : i + 1]]
            if (
                sum(
                    1
                    for j in range(len(steps))
                    if [s.name for s in steps[max(0, j - size) : j + 1]] == chain
                )
                == 1
            ):
                break
            size += 1
        specs.append(
            sequence_note(
                step, steps[i + 1] if i + 1 < len(steps) else None, steps[max(0, i - size) : i]
            )
        )
    return specs
