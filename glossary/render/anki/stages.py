"""The stage-plan notes (issue 29): where an actor stands in a step of a rite, and its reverse.

One note per placement the text states (a carried placement asks nothing new): its front shows
the step drawn on the hall plan with every other actor's mark and asks where the given actor
stands and which way he faces (his mark is not drawn); the back draws the whole step and gives
the place, the facing and the passage that says it. The reverse card marks the place and facing
(a mark labelled ``？``) and asks who stands there in that section; it is made only where the
question has one answer: no other actor of the section stands at that place facing that way.

A note that would ask an earlier note's question again (the same actor at the same place and
facing in the same section) is not made. GUIDs come from (rite, section, step, actor) only.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from glossary.enrich.cited import resolve
from glossary.model import Citation, Cited, Entry, Glossary, Placement, Plan, StageSection
from glossary.normalize import normalize
from glossary.render.anki.ids import note_guid
from glossary.render.anki.models import field_values
from glossary.render.anki.notes import NoteSpec, citations_html, forms_of, masked, text
from glossary.render.markup import bracket_reading
from glossary.render.stage_layout import Figure, Mark, Move, View, figures, points, section_view
from glossary.render.stage_svg import render_step

#: The label of the marked place on a reverse card's front.
ASKED = "？"
#: A facing in English, for the backs.
FACING_EN = {
    "北面": "faces north",
    "南面": "faces south",
    "東面": "faces east",
    "西面": "faces west",
    "東北面": "faces north-east",
    "西北面": "faces north-west",
    "東南面": "faces south-east",
    "西南面": "faces south-west",
}


@dataclass(frozen=True)
class StageCards:
    """The stage notes (in the file's order) and the drawings their fields name."""

    specs: tuple[NoteSpec, ...]
    media: dict[str, bytes]


def stage_key(section: StageSection, step: int, actor: str) -> str:
    """What a stage note's GUID and ledger key hang on: rite, section (and its repeat), step, actor."""
    return f"{section.rite.simplified}/{section.name}/{section.repeat}/{step}/{actor}"


def _media_name(svg: str) -> str:
    """A drawing's file name from its bytes: a changed drawing is a new file (Anki keeps the old
    one under its name) and the note that shows it changes with it."""
    return f"yili-stage-{hashlib.sha256(svg.encode('utf-8')).hexdigest()[:16]}.svg"


def _quiet(mark: Mark) -> Mark:
    """A mark without its passage: a front's drawing carries no text beyond the labels."""
    return replace(mark, quote=None)


def _section_number(glossary: Glossary, section: StageSection) -> int:
    """The section's number in its rite's order (the sequence cards'), else its place in the file."""
    for step in glossary.sequences.get(section.rite.id, ()):
        if step.name == section.name and step.repeat == section.repeat:
            return step.number
    assert glossary.stages is not None
    return glossary.stages.of_rite(section.rite.id).index(section) + 1


#: Plan units a mark takes around its point (its dot and facing arrow), as ``section_view``'s margin.
_REACH = 6.0


def _covering(view: View, plan: Plan, figs: Sequence[Figure]) -> View:
    """``view`` grown to hold every mark of the section with its arrow: ``section_view`` keeps to
    the plan, and a mark outside the outer gate (大門外) stands beyond its edge; ``render_step``
    leaves out a mark its window does not hold, and no card may lose the mark it asks about."""
    x0, y0, w, h = view
    x1, y1 = x0 + w, y0 + h
    for fig in figs:
        for x, y in points(plan, fig.marks, fig.moves):
            x0, y0 = min(x0, math.floor(x - _REACH)), min(y0, math.floor(y - _REACH))
            x1, y1 = max(x1, math.ceil(x + _REACH)), max(y1, math.ceil(y + _REACH))
    return (float(x0), float(y0), float(x1 - x0), float(y1 - y0))


def place_text(plan: Plan, place_id: str, qualifier: str | None) -> str:
    """The place as the back names it: its label, then the qualifier (``阼階 上 當楣``)."""
    label = next((p.label for p in plan.places if p.id == place_id), place_id)
    return f"{label} {qualifier}" if qualifier else label


@lru_cache(maxsize=2)
def stage_cards(glossary: Glossary) -> StageCards:
    """Every stage note of the glossary and the drawings it needs (cached per glossary: the
    notes and the package both ask)."""
    if glossary.stages is None or glossary.plan is None:
        return StageCards((), {})
    plan = glossary.plan
    entries = {entry.id: entry for entry in glossary.entries}
    figs = figures(glossary)
    by_section: dict[int, list[Figure]] = {}
    for fig in figs:
        by_section.setdefault(id(fig.section), []).append(fig)
    media: dict[str, bytes] = {}

    def draw(
        marks: Sequence[Mark], moves: Sequence[Move], title: str, view: View, named: frozenset[str]
    ) -> str:
        svg = render_step(plan, marks, moves, title=title, view=view, named=named)
        name = _media_name(svg)
        media[name] = svg.encode("utf-8")
        return name

    specs: list[NoteSpec] = []
    for section in glossary.stages.sections:
        section_figs = by_section.get(id(section), [])
        if not section_figs:
            continue
        view = _covering(section_view(plan, section_figs), plan, section_figs)
        named = frozenset(
            {m.place for f in section_figs for m in f.marks}
            | {end for f in section_figs for mv in f.moves for end in (mv.origin, mv.to)}
        )
        # (place, facing) → the actors the section shows there, carried marks included.
        standing: dict[tuple[str, str | None], set[str]] = {}
        for fig in section_figs:
            for mark in fig.marks:
                standing.setdefault((mark.place, mark.facing), set()).add(mark.actor)
        asked: set[tuple[str, str, str | None]] = set()
        number = _section_number(glossary, section)
        for fig in section_figs:
            back = None
            for placement, mark in zip(fig.step.placements, fig.marks):
                question = (placement.actor, placement.place, placement.facing)
                if placement.carried or question in asked:
                    continue
                asked.add(question)
                if back is None:
                    back = draw(
                        fig.marks,
                        fig.moves,
                        f"Stage plan: {section.rite.traditional} 〈{section.name}〉 step "
                        f"{fig.step.number}",
                        view,
                        named,
                    )
                others = [_quiet(m) for m in fig.marks if m.actor != placement.actor]
                moves = [mv for mv in fig.moves if mv.actor != placement.actor]
                front = draw(others, moves, "Stage plan", view, named)
                reverse = None
                # A reverse card asks for the actor: none where the rite's name says him
                # (有司 in 有司徹), as no front may give its answer away.
                actor_entry = entries.get(placement.actor)
                named_by_rite = actor_entry is not None and any(
                    normalize(form) in normalize(section.rite.simplified)
                    for form in forms_of(actor_entry)
                )
                if not named_by_rite and standing[(placement.place, placement.facing)] == {
                    placement.actor
                }:
                    shown = [*others, replace(_quiet(mark), label=ASKED, actor="?")]
                    reverse = draw(shown, moves, "Stage plan", view, named)
                specs.append(
                    stage_note(
                        glossary,
                        entries.get(placement.actor),
                        section,
                        number,
                        fig,
                        placement,
                        (front, back, reverse),
                    )
                )
    return StageCards(tuple(specs), media)


def _cited(glossary: Glossary, placement: Placement) -> Cited | None:
    # The placement's passage as its card shows it, with the placement's note.
    locus = glossary.stage_loci.get(placement.path)
    if locus is None:
        return None
    quoted = placement.citation or Citation(locus.text, placement.line)
    return resolve([replace(quoted, note=placement.note)], [(locus,)], glossary.excerpted)[0]


def stage_note(
    glossary: Glossary,
    entry: Entry | None,
    section: StageSection,
    number: int,
    fig: Figure,
    placement: Placement,
    drawings: tuple[str, str, str | None],
) -> NoteSpec:
    """The note of one placement: ``drawings`` are the media names of its front (the others'
    marks), its back (the whole step) and its reverse front (None: no reverse card)."""
    assert glossary.plan is not None
    front, back, reverse = drawings
    rite = section.rite
    label = (entry.traditional or entry.term) if entry is not None else placement.actor
    forms = forms_of(entry) if entry is not None else ()
    cited = _cited(glossary, placement)
    place = next((p for p in glossary.plan.places if p.id == placement.place), None)
    place_entry = glossary.entry(place.term) if place is not None and place.term else None
    fields = field_values(
        "stage",
        {
            "Key": text(
                f"{rite.order:02d} {rite.simplified} {number:03d} {section.name} "
                f"{fig.step.number:02d} {placement.actor}"
            ),
            "Rite": text(rite.simplified),
            "Section": text(section.name),
            "CueSection": masked(section.name, forms) if forms else text(section.name),
            "Step": str(fig.step.number),
            "Steps": str(len(section.steps)),
            "Actor": text(label),
            "Ruby": bracket_reading(entry.term, entry.pinyin) if entry else text(label),
            "Gloss": text(entry.gloss) if entry else "",
            "Place": text(place_text(glossary.plan, placement.place, placement.qualifier)),
            "PlaceGloss": text(place_entry.gloss) if place_entry else "",
            "Facing": text(placement.facing or ""),
            "FacingEn": text(FACING_EN.get(placement.facing or "", "")),
            "Plan": f'<img src="{front}">',
            "PlanAnswer": f'<img src="{back}">',
            "PlanReverse": f'<img src="{reverse}">' if reverse else "",
            "Citation": citations_html([cited]) if cited else "",
            "StepNote": text(fig.step.note or ""),
            "Id": text(placement.actor),
        },
    )
    tags = {"yili::category::stage", f"yili::rite::{rite.simplified}"}
    if cited is not None:
        tags.add(f"yili::layer::{cited.loci[0].layer}")
    key = stage_key(section, fig.step.number, placement.actor)
    return NoteSpec(
        f"stage:{key}",
        note_guid(key, "stage"),
        "stage",
        fields,
        tuple(sorted(tags)),
        (rite,),
        "stage",
    )
