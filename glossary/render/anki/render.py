"""The Anki outputs: the full package, one package per rite, and a CSV for Anki's importer."""
from __future__ import annotations

from glossary.ledger import Ledger
from glossary.model import Glossary
from glossary.normalize import normalize
from glossary.render.anki import csv_export
from glossary.render.anki.models import cloze_model, model_source, term_model
from glossary.render.anki.notes import NoteSpec, cloze_note, term_note
from glossary.render.anki.package import build_decks, write_apkg

RITE_FILES = {"乡射礼": "xiangshe", "士虞礼": "shiyu", "特牲馈食礼": "tesheng"}


def note_specs(glossary: Glossary) -> list[NoteSpec]:
    """Every note, in glossary order (term note, then its cloze)."""
    specs = []
    for entry in glossary.entries:
        loci = [list(c) for c in glossary.loci.get(entry.id, ())]
        related = [r for r in (glossary.entry(i) for i in entry.related) if r is not None]
        specs.append(term_note(entry, loci, glossary.concordance.get(entry.id), related))
        cloze = cloze_note(entry, loci)
        if cloze is not None:
            specs.append(cloze)
    return specs


def stamp(glossary: Glossary) -> tuple[list[NoteSpec], dict[str, int], Ledger]:
    """Notes, their modification times, and the ledger that records them."""
    ledger = glossary.ledger.copy()
    specs = note_specs(glossary)
    mods = {spec.key: ledger.stamp(spec.key, spec.content(), glossary.epoch) for spec in specs}
    for kind in ("term", "cloze"):
        mods[f"notetype:{kind}"] = ledger.stamp(f"notetype:{kind}", model_source(kind), glossary.epoch)
    return specs, mods, ledger


def render(glossary: Glossary) -> dict[str, bytes]:
    """``yili-glossary.apkg``, ``yili-<rite>.apkg`` for the seed rites, ``yili-glossary.csv``."""
    specs, mods, _ = stamp(glossary)
    models = {"term": term_model(mods["notetype:term"]), "cloze": cloze_model(mods["notetype:cloze"])}
    timestamp = max(mods.values(), default=glossary.epoch)
    outputs = {"yili-glossary.apkg": write_apkg(build_decks(specs, models, mods), {}, timestamp)}
    rites = sorted({normalize(r) for spec in specs for r in spec.rites})
    for rite in rites:
        slug = RITE_FILES.get(rite)
        if slug:
            decks = build_decks(specs, models, mods, rite=rite)
            outputs[f"yili-{slug}.apkg"] = write_apkg(decks, {}, timestamp)
    outputs["yili-glossary.csv"] = csv_export.render(specs, models)
    return outputs
