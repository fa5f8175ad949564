"""The Anki outputs: the full package, one package per rite, and a CSV for Anki's importer."""

from __future__ import annotations

from pathlib import PurePosixPath

from glossary.model import Glossary
from glossary.render.anki import csv_export
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE
from glossary.render.anki.ledger import Ledger, parse_ledger
from glossary.render.anki.models import SPECS, all_models, model_source
from glossary.render.anki.notes import (
    NoteSpec,
    PlanCard,
    choose_passages,
    cloze_note,
    moved_cloze_note,
    retired_notes,
    sequence_notes,
    term_note,
)
from glossary.render.anki.package import build_decks, write_apkg
from glossary.render.plan_svg import render_svg


def plan_media(glossary: Glossary) -> dict[str, bytes]:
    """The hall-plan drawings the position cards reference: labelled, and with the label hidden."""
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
        media[f"yili-plan-{place.id}-q.svg"] = render_svg(
            glossary.plan, place.id, "Hall plan", labels=False
        ).encode("utf-8")
    return media


def note_specs(glossary: Glossary, ledger: Ledger | None = None) -> list[NoteSpec]:
    """Every note: the entries' term notes (glossary order), their passage notes, the notes of
    retired ids and of passage cards now in another note, then the rites' sequences.

    ``ledger`` keeps the cloze numbers of passage notes from build to build (and learns new ones);
    without one (a preview) they are numbered afresh.
    """
    ledger = ledger if ledger is not None else parse_ledger(glossary.state.get(LEDGER_FILE))
    specs = []
    loci_by_entry = {
        entry.id: [list(c) for c in glossary.loci.get(entry.id, ())] for entry in glossary.entries
    }
    for entry in glossary.entries:
        loci = loci_by_entry[entry.id]
        related = [r for r in (glossary.entry(i) for i in entry.related) if r is not None]
        place = glossary.plan.for_term(entry.id) if glossary.plan else None
        plan = None
        if place is not None:
            place_loci = tuple(l[0] for l in glossary.plan_loci.get(place.id, ()) if l)
            plan = PlanCard(
                f"yili-plan-{place.id}.svg",
                f"yili-plan-{place.id}-q.svg",
                place_loci,
                tuple(
                    c.note
                    for c, l in zip(place.citations, glossary.plan_loci.get(place.id, ()))
                    if l
                ),
            )
        media = [PurePosixPath(m).name for m in entry.media]
        specs.append(
            term_note(
                entry,
                loci,
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
    for passage in choose_passages(list(glossary.entries), loci_by_entry):
        cloze = cloze_note(passage, ledger.cloze_order)
        if cloze is not None:
            specs.append(cloze)
            owner = cloze.key.split(":", 1)[1]
            for entry_id in cloze.fields[[n for n, _ in SPECS["cloze"][0]].index("Id")].split():
                asked_in[entry_id] = owner
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


def referenced(specs: list[NoteSpec], media: dict[str, bytes]) -> dict[str, bytes]:
    """Only the media files some note's fields refer to."""
    text = "\x1f".join(f for spec in specs for f in spec.fields)
    return {
        name: data
        for name, data in media.items()
        if f'src="{name}"' in text or f"[sound:{name}]" in text
    }


def render(glossary: Glossary) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """The outputs (``yili-glossary.apkg``, ``yili-<rite id>.apkg`` for every rite the glossary
    covers, ``yili-glossary.csv``) and the project state to keep (the updated ledger)."""
    specs, mods, ledger = stamp(glossary)
    models = all_models(mods)
    media = {**glossary.media, **plan_media(glossary)}
    timestamp = max(mods.values(), default=glossary.epoch)
    outputs = {
        "yili-glossary.apkg": write_apkg(
            build_decks(specs, models, mods), referenced(specs, media), timestamp
        )
    }
    for rite in {r.id: r for spec in specs for r in spec.rites}.values():
        rite_specs = [s for s in specs if rite in s.rites]
        decks = build_decks(rite_specs, models, mods)
        outputs[f"yili-{rite.id}.apkg"] = write_apkg(
            decks, referenced(rite_specs, media), timestamp
        )
    outputs["yili-glossary.csv"] = csv_export.render(specs, models)
    return outputs, {LEDGER_FILE: ledger.to_bytes()}
