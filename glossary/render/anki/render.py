"""The Anki outputs: the full package, one package per rite, and a CSV for Anki's importer."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from glossary.model import Entry, Glossary, Place, Plan
from glossary.render import fonts
from glossary.render.anki import csv_export
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE
from glossary.render.anki.ledger import Ledger, parse_ledger
from glossary.render.anki.models import SPECS, all_models, model_source
from glossary.render.anki.notes import (
    NoteSpec,
    PlanCard,
    forms_of,
    moved_cloze_note,
    retired_notes,
    sequence_notes,
    spans,
    term_note,
)
from glossary.render.anki.package import build_decks, home_rite, write_apkg
from glossary.render.anki.passages import choose_passages, cloze_note
from glossary.render.anki.stages import stage_cards
from glossary.render.plan_svg import render_svg

#: East and west in the plan's names: the front that hides a place's name hides its twin's too
#: (東楹 marked and 西楹 labelled would give the answer away by symmetry).
_EAST_WEST = str.maketrans({"東": "西", "西": "東", "东": "西"})
_STAIRS = {"阼階": "西階", "西階": "阼階", "阼阶": "西阶", "西阶": "阼阶"}


def mirror_twin(plan: Plan, place: Place) -> str | None:
    """The id of the place that mirrors ``place`` east–west (西序 for 東序, 阼階 for 西階), if any."""
    names = {_STAIRS.get(place.label), place.label.translate(_EAST_WEST)} - {place.label, None}
    return next((p.id for p in plan.places if p.label in names and p.id != place.id), None)


def names_the_place(place: Place, entry: Entry) -> bool:
    """Whether a hall-plan card of ``entry`` may mark ``place``: not when the place is a specific
    one of the kind the headword names (東楹 for 楹, 廟門 for 門), whose name would be the answer."""
    found = spans(place.label, forms_of(entry))
    return not found or found == [(0, len(place.label))] or len(place.label) <= len(entry.term)


def plan_media(glossary: Glossary) -> dict[str, bytes]:
    """The hall-plan drawings the position cards reference: labelled, and on the front with the
    marked place's label and its mirror twin's left out."""
    media: dict[str, bytes] = {}
    if glossary.plan is None:
        return media
    for place in glossary.plan.places:
        if place.term is None:
            continue
        title = f"Hall plan: {place.label}"
        media[f"yili-plan-{place.id}.svg"] = render_svg(glossary.plan, place.id, title).encode(
            "utf-8"
        )
        twin = mirror_twin(glossary.plan, place)
        media[f"yili-plan-{place.id}-q.svg"] = render_svg(
            glossary.plan,
            place.id,
            "Hall plan",
            labels=False,
            unlabelled=frozenset({twin} if twin else ()),
        ).encode("utf-8")
    return media


def note_specs(
    glossary: Glossary, ledger: Ledger | None = None, *, only: frozenset[str] | None = None
) -> list[NoteSpec]:
    """Every note: the entries' term notes (glossary order), their passage notes, the notes of
    retired ids and of passage cards now in another note, the rites' sequences, then the stage
    plans' notes (stages.yaml's order).

    ``ledger`` keeps the cloze numbers of passage notes from build to build (and learns new ones);
    without one (a preview) they are numbered afresh. ``only`` (a preview of these entries): their
    term notes and the passage notes that ask them (every passage is still chosen, since entries
    share them), none of the rest.
    """
    ledger = ledger if ledger is not None else parse_ledger(glossary.state.get(LEDGER_FILE))
    specs = []

    for entry in glossary.entries:
        if only is not None and entry.id not in only:
            continue
        related = [r for r in (glossary.entry(i) for i in entry.related) if r is not None]
        place = glossary.plan.for_term(entry.id) if glossary.plan else None
        plan = None
        if place is not None and glossary.plan is not None and names_the_place(place, entry):
            plan = PlanCard(
                f"yili-plan-{place.id}.svg",
                f"yili-plan-{place.id}-q.svg",
                tuple(c for c in glossary.plan_cited.get(place.id, ()) if c.found),
            )
        media = [PurePosixPath(m).name for m in entry.media]
        specs.append(
            term_note(
                entry,
                glossary.cited.get(entry.id, ()),
                glossary.concordance.get(entry.id),
                related,
                plan,
                media,
                glossary.readings.get(entry.id, ()),
                modern=glossary.renderings,
            )
        )
    # Passage notes: one per passage, one cloze per headword it asks.
    asked_in: dict[str, str] = {}
    for passage in choose_passages(list(glossary.entries), glossary.cited):
        if only is not None and not any(member.id in only for member in passage.members):
            continue  # a preview shows the passage notes that ask its entries, no others
        cloze = cloze_note(passage, ledger.cloze_order)
        if cloze is not None:
            specs.append(cloze)
            owner = cloze.key.split(":", 1)[1]
            for entry_id in cloze.fields[[n for n, _ in SPECS["cloze"][0]].index("Id")].split():
                asked_in[entry_id] = owner
    if only is not None:
        return specs
    by_id = {entry.id: entry for entry in glossary.entries}
    for retired in glossary.retired:
        specs.extend(retired_notes(retired, by_id[retired.merged_into]))
    # A passage card that a release put in a note of its own and that now lives in another note
    # (or nowhere): its old note says so, since Anki's importer never deletes a note.
    made = {spec.key for spec in specs}
    for key in sorted(k for k in ledger.stamps if k.startswith("cloze:") and k not in made):
        moved = by_id.get(key.split(":", 1)[1])
        if moved is not None:
            now = by_id.get(asked_in.get(moved.id, ""))
            specs.append(moved_cloze_note(moved, f"{now.term} ({now.id})" if now else None))
    # The order of the rites the glossary covers (by name, as the ledger's keys were first made).
    covered = {rite.id: rite for entry in glossary.entries for rite in entry.rites}
    for rite in sorted(covered.values(), key=lambda r: r.simplified):
        specs.extend(sequence_notes(glossary.sequences.get(rite.id, ())))
    specs.extend(stage_cards(glossary).specs)
    return specs


def stamp(glossary: Glossary) -> tuple[list[NoteSpec], dict[str, int], Ledger]:
    """Notes, their modification times, and the ledger that records them."""
    ledger = parse_ledger(glossary.state.get(LEDGER_FILE))
    specs = note_specs(glossary, ledger)
    mods = {spec.key: ledger.stamp(spec.key, spec.content(), glossary.epoch) for spec in specs}
    for kind in SPECS:
        mods[f"notetype:{kind}"] = ledger.stamp(
            f"notetype:{kind}", model_source(kind), glossary.epoch
        )
    return specs, mods, ledger


#: How many words' Recognition cards come between a word's Recognition card and its Recall card
#: (and again before its Hall plan card, and before its passage cards) among new cards.
SPACING = 24


def cloze_ords(spec: NoteSpec) -> list[tuple[int, str]]:
    """A passage note's cards: (card ord, the entry id its cloze asks). The ``Id`` field and the
    glosses' ``cN`` labels list them in one order (a number the ledger keeps unused is in neither)."""
    names = [name for name, _ in SPECS["cloze"][0]]
    ids = spec.fields[names.index("Id")].split()
    numbers = [
        int(n) - 1
        for n in re.findall(r'<span class="n">c(\d+)</span>', spec.fields[names.index("Gloss")])
    ]
    return list(zip(numbers, ids)) if len(numbers) == len(ids) else list(enumerate(ids))


def stage_ords(spec: NoteSpec) -> list[int]:
    """A stage note's cards: "place and facing" (0), and "who stands here" (1) where it is made."""
    names = [name for name, _ in SPECS["stage"][0]]
    return [0, 1] if spec.fields[names.index("PlanReverse")] else [0]


def positions(specs: list[NoteSpec]) -> dict[str, dict[int, int]]:
    """Each card's place among new cards (note key → card ord → ``due``), the same in every package.

    The words in 禮經本義's order (by the earliest rite they occur in, then in the glossary's
    order); word *i*'s Recognition card at *i*, its Recall card at *i* + ``SPACING``, its Hall plan
    card at *i* + 2 × ``SPACING``, the cloze asking it at *i* + 3 × ``SPACING``; a rite's section
    cards after the passages of its last word, then its stage-plan cards (every "place and
    facing" card of the rite, then every "who stands here"). So a learner meets the book's first
    rite first and never gets a word's two cards close together, whatever the daily limit.
    """
    words = [s for s in specs if s.kind == "term" and s.category != "retired"]
    words.sort(key=lambda s: home_rite(s).order)  # stable: the glossary's order within a rite
    index = {spec.key.split(":", 1)[1]: i for i, spec in enumerate(words)}
    last = {home_rite(s).id: i for i, s in enumerate(words)}
    keys: list[tuple[int, int, int, str, int]] = []
    for n, spec in enumerate(specs):
        if spec.category == "retired":
            continue
        if spec.kind == "term":
            i = index[spec.key.split(":", 1)[1]]
            keys.extend((i + t * SPACING, t, n, spec.key, t) for t in range(3))
        elif spec.kind == "cloze":
            for ord_, entry_id in cloze_ords(spec):
                i = index.get(entry_id, last.get(spec.rites[0].id, len(words)))
                keys.append((i + 3 * SPACING, 3, n, spec.key, ord_))
        elif spec.kind == "stage":
            i = last.get(spec.rites[0].id, len(words))
            keys.extend((i + 3 * SPACING, 5 + ord_, n, spec.key, ord_) for ord_ in stage_ords(spec))
        else:
            i = last.get(spec.rites[0].id, len(words))
            keys.append((i + 3 * SPACING, 4, n, spec.key, 0))
    result: dict[str, dict[int, int]] = {}
    for due, (*_, key, ord_) in enumerate(sorted(keys)):
        result.setdefault(key, {})[ord_] = due
    return result


def referenced(specs: list[NoteSpec], media: dict[str, bytes]) -> dict[str, bytes]:
    """Only the media files some note's fields refer to."""
    text = "\x1f".join(f for spec in specs for f in spec.fields)
    return {
        name: data
        for name, data in media.items()
        if f'src="{name}"' in text or f"[sound:{name}]" in text
    }


def _with(media: dict[str, bytes], extra: dict[str, bytes]) -> dict[str, bytes]:
    return {**media, **extra}


def font_media(specs: list[NoteSpec], lines: dict[str, int] | None = None) -> dict[str, bytes]:
    """The BabelStone subset the card CSS names (``fonts.EXTRA_FONT_FILE``) for the characters of
    the notes that the Noto CJK faces lack, with its licence; the build fails, naming the notes,
    if some character has no glyph at all."""
    texts = {spec.key: "\x1f".join(spec.fields) for spec in specs}
    chars = fonts.drawn("\x1f".join(texts.values()))
    if lacking := fonts.missing(chars):
        lines = lines or {}
        fonts.check_drawn(
            {
                f"Anki note {key} (terms.yaml:{lines.get(key.partition(':')[2], 0)})": text
                for key, text in texts.items()
                if any(ch in text for ch in lacking)
            }
        )
    return fonts.files_for(chars)


def render(glossary: Glossary) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The outputs (``yili-glossary.apkg``, ``yili-<rite id>.apkg`` for every rite the glossary
    covers, ``yili-retired.apkg``, ``yili-glossary.csv``) and the project state to keep (the
    updated ledger).

    The notes of retired ids and moved passage cards are only in ``yili-retired.apkg``, for those
    who had an earlier release: Anki's importer makes every imported card a new, unsuspended card
    unless "Import any learning progress" is ticked, so in a fresh install they would be studied.
    """
    specs, mods, ledger = stamp(glossary)
    models = all_models(mods)
    media = {**glossary.media, **plan_media(glossary), **stage_cards(glossary).media}
    extra = font_media(specs, {entry.id: entry.line for entry in glossary.entries})
    timestamp = max(mods.values(), default=glossary.epoch)
    places = positions(specs)
    live = [s for s in specs if s.category != "retired"]
    credit = "; ".join(
        f"{text.title} ({text.edition}): {text.rendered_by}"
        for text in glossary.texts
        if text.rendering_of and text.rendered_by
    )
    outputs = {
        "yili-glossary.apkg": write_apkg(
            build_decks(live, models, mods, places, credit, glossary.release),
            _with(referenced(live, media), extra),
            timestamp,
        )
    }
    for rite in {r.id: r for spec in live for r in spec.rites}.values():
        rite_specs = [s for s in live if rite in s.rites]
        decks = build_decks(rite_specs, models, mods, places, credit, glossary.release)
        outputs[f"yili-{rite.id}.apkg"] = write_apkg(
            decks, _with(referenced(rite_specs, media), extra), timestamp
        )
    retired = [s for s in specs if s.category == "retired"]
    if retired:
        outputs["yili-retired.apkg"] = write_apkg(
            build_decks(retired, models, mods, {}, credit, glossary.release),
            _with(referenced(retired, media), extra),
            timestamp,
            suspended=True,
        )
    outputs["yili-glossary.csv"] = csv_export.render(live, models)
    return outputs, {LEDGER_FILE: ledger.to_bytes()}
