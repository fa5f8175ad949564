"""The Anki outputs: the full package, one package per rite, and a CSV for Anki's importer."""
from __future__ import annotations

from functools import lru_cache
from pathlib import PurePosixPath

from glossary.ledger import Ledger
from glossary.model import Glossary
from glossary.normalize import normalize
from glossary.render.anki import csv_export
from glossary.render.anki.models import SPECS, all_models, model_source
from glossary.render.anki.notes import NoteSpec, PlanCard, cloze_note, sequence_note, term_note
from glossary.render.anki.package import build_decks, write_apkg
from glossary.render.plan_svg import render_svg

RITE_FILES = {"乡射礼": "xiangshe", "士虞礼": "shiyu", "特牲馈食礼": "tesheng"}


def plan_media(glossary: Glossary) -> dict[str, bytes]:
    """The hall-plan drawings the position cards reference: labelled, and with the label hidden."""
    media: dict[str, bytes] = {}
    if glossary.plan is None:
        return media
    for place in glossary.plan.places:
        if place.term is None:
            continue
        title = f"Hall plan: {place.label}"
        media[f"yili-plan-{place.id}.svg"] = render_svg(glossary.plan, place.id, title).encode("utf-8")
        media[f"yili-plan-{place.id}-q.svg"] = render_svg(glossary.plan, place.id, "Hall plan", labels=False).encode("utf-8")
    return media


def note_specs(glossary: Glossary) -> list[NoteSpec]:
    """Every note, in glossary order (term note, then its cloze), then the rites' sequences."""
    specs = []
    for entry in glossary.entries:
        loci = [list(c) for c in glossary.loci.get(entry.id, ())]
        related = [r for r in (glossary.entry(i) for i in entry.related) if r is not None]
        place = glossary.plan.for_term(entry.id) if glossary.plan else None
        plan = None
        if place is not None:
            place_loci = tuple(l[0] for l in glossary.plan_loci.get(place.id, ()) if l)
            plan = PlanCard(f"yili-plan-{place.id}.svg", f"yili-plan-{place.id}-q.svg", place_loci,
                            tuple(c.note for c, l in zip(place.citations, glossary.plan_loci.get(place.id, ())) if l))
        media = [PurePosixPath(m).name for m in entry.media]
        specs.append(term_note(entry, loci, glossary.concordance.get(entry.id), related, plan, media))
        cloze = cloze_note(entry, loci)
        if cloze is not None:
            specs.append(cloze)
    for rite in sorted(glossary.sequences):
        if rite not in RITE_FILES:
            continue
        steps = glossary.sequences[rite]
        for i, step in enumerate(steps):
            following = steps[i + 1] if i + 1 < len(steps) else None
            preceding = steps[i - 1] if i else None
            specs.append(sequence_note(step, following, preceding))
    return specs


@lru_cache(maxsize=1)
def stamp(glossary: Glossary) -> tuple[list[NoteSpec], dict[str, int], Ledger]:
    """Notes, their modification times, and the ledger that records them.

    Cached for the glossary at hand: the build renders the packages and then writes this
    ledger, and must not render every note twice for it.
    """
    ledger = glossary.ledger.copy()
    specs = note_specs(glossary)
    mods = {spec.key: ledger.stamp(spec.key, spec.content(), glossary.epoch) for spec in specs}
    for kind in SPECS:
        mods[f"notetype:{kind}"] = ledger.stamp(f"notetype:{kind}", model_source(kind), glossary.epoch)
    return specs, mods, ledger


def referenced(specs: list[NoteSpec], media: dict[str, bytes]) -> dict[str, bytes]:
    """Only the media files some note's fields refer to."""
    text = "\x1f".join(f for spec in specs for f in spec.fields)
    return {name: data for name, data in media.items() if f'src="{name}"' in text or f"[sound:{name}]" in text}


def render(glossary: Glossary) -> dict[str, bytes]:
    """``yili-glossary.apkg``, ``yili-<rite>.apkg`` for the seed rites, ``yili-glossary.csv``."""
    specs, mods, _ = stamp(glossary)
    models = all_models(mods)
    media = {**glossary.media, **plan_media(glossary)}
    timestamp = max(mods.values(), default=glossary.epoch)
    outputs = {"yili-glossary.apkg": write_apkg(build_decks(specs, models, mods), referenced(specs, media), timestamp)}
    for rite in sorted({normalize(r) for spec in specs for r in spec.rites}):
        slug = RITE_FILES.get(rite)
        if slug:
            rite_specs = [s for s in specs if rite in {normalize(r) for r in s.rites}]
            decks = build_decks(rite_specs, models, mods, rite=rite)
            outputs[f"yili-{slug}.apkg"] = write_apkg(decks, referenced(rite_specs, media), timestamp)
    outputs["yili-glossary.csv"] = csv_export.render(specs, models)
    return outputs
