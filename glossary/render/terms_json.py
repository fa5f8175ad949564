"""``terms.json``: the entries with their resolved citations, for other tools."""

from __future__ import annotations

from glossary import version
from glossary.corpus.model import Locus
from glossary.model import Declined, Glossary, Sense
from glossary.model_alignment import ALIGNMENT_THRESHOLD
from glossary.problems import dump_json
from glossary.schema import fields_of
from glossary.vocab import Rite

ATTRIBUTION = (
    "Corpus texts: Kanseki Repository (kanripo.org), CC BY-SA 4.0; "
    "data derived from them is shared under the same licence."
)


def _value(value: object) -> object:
    """An entry field's value as JSON: lists for tuples, names for rites, ``rites_declined`` as
    the file writes it (rite → why)."""
    if isinstance(value, tuple) and value and all(isinstance(v, Declined) for v in value):
        return {v.rite.simplified: v.why for v in value if isinstance(v, Declined)}
    if isinstance(value, Sense):
        sense: dict[str, object] = {"rites": _value(value.rites), "gloss": value.gloss}
        if value.definition:
            sense["definition"] = value.definition
        return sense
    if isinstance(value, tuple):
        return [_value(item) for item in value]
    if isinstance(value, Rite):
        return value.simplified
    return value


def locus_json(glossary: Glossary, locus: Locus) -> dict[str, object]:
    """A locus as JSON, with the modern rendering of its passage where the corpus has one: ``modern``
    when the aligner is sure of the pairing (at or above the threshold), ``modern_uncertain`` when not."""
    data = locus.to_json()
    renderings = glossary.renderings(locus, certain=False)
    if sure := [r.text for r in renderings if r.certain]:
        data["modern"] = "\n".join(sure)
    if unsure := [r.text for r in renderings if not r.certain]:
        data["modern_uncertain"] = "\n".join(unsure)
    return data


def render(glossary: Glossary) -> dict[str, bytes]:
    """``terms.json``: the checked glossary with resolved citations and concordance, as stable JSON."""
    terms = []
    for entry in glossary.entries:
        citations = []
        for cited in glossary.cited[entry.id]:
            citation = cited.citation
            item: dict[str, object] = {"quote": citation.quote, **citation.locus_fields()}
            if citation.note:
                item["note"] = citation.note
            if citation.reading:
                item["reading"] = {
                    "follows": citation.reading.follows,
                    "why": citation.reading.why,
                }
            item["loci"] = [locus_json(glossary, locus) for locus in cited.loci]
            citations.append(item)
        occurrences = glossary.concordance.get(entry.id)
        # Every field of the entries' schema, so a new field reaches terms.json without an edit here.
        # (Not `ignore`: which rules of the check an entry waives is the check's, not content.)
        term = {
            name: _value(getattr(entry, name)) for name in fields_of("entry") if name != "ignore"
        }
        term["citations"] = citations
        term["concordance"] = {
            "total": occurrences.total if occurrences else 0,
            "by_place": [
                {"place": place, "layer": layer, "count": count}
                for (place, layer), count in (occurrences.by_place if occurrences else ())
            ],
        }
        # How each headword character was read: its pinyin, the 廣韻 reading chosen, 經典釋文's.
        term["readings"] = [reading.to_json() for reading in glossary.readings.get(entry.id, ())]
        terms.append(term)
    data = {"generator": f"glossary {version()}", "attribution": ATTRIBUTION, "terms": terms}
    if glossary.alignments:
        # Whose the modern renderings of the loci are, and what "modern" promises.
        data["modern_renderings"] = [
            {
                "text": a.text_id,
                "file": a.file,
                "renders": a.original_id,
                "label": a.label,
                "threshold": ALIGNMENT_THRESHOLD,
            }
            for a in glossary.alignments
        ]
    return {"terms.json": dump_json(data).encode("utf-8")}
