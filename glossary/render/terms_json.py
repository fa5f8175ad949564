"""``terms.json``: the entries with their resolved citations, for other tools."""
from __future__ import annotations

from glossary import __version__
from glossary.model import Glossary
from glossary.problems import dump_json
from glossary.schema import fields_of
from glossary.vocab import Rite

ATTRIBUTION = (
    "Corpus texts: Kanseki Repository (kanripo.org), CC BY-SA 4.0; "
    "data derived from them is shared under the same licence."
)


def _value(value: object) -> object:
    """An entry field's value as JSON: lists for tuples, names for rites."""
    if isinstance(value, tuple):
        return [_value(item) for item in value]
    if isinstance(value, Rite):
        return value.simplified
    return value


def render(glossary: Glossary) -> dict[str, bytes]:
    """``terms.json``: the checked glossary with resolved citations and concordance, as stable JSON."""
    terms = []
    for entry in glossary.entries:
        citations = []
        for citation, loci in zip(entry.citations, glossary.loci[entry.id]):
            item: dict[str, object] = {"quote": citation.quote, **citation.locus_fields()}
            if citation.note:
                item["note"] = citation.note
            item["loci"] = [locus.to_json() for locus in loci]
            citations.append(item)
        occurrences = glossary.concordance.get(entry.id)
        # Every field of the entries' schema, so a new field reaches terms.json without an edit here.
        term = {name: _value(getattr(entry, name)) for name in fields_of("entry")}
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
    data = {"generator": f"glossary {__version__}", "attribution": ATTRIBUTION, "terms": terms}
    return {"terms.json": dump_json(data).encode("utf-8")}
