"""``terms.json``: the entries with their resolved citations, for other tools."""
from __future__ import annotations

from glossary import __version__
from glossary.model import Glossary
from glossary.problems import dump_json

ATTRIBUTION = (
    "Corpus texts: Kanseki Repository (kanripo.org), CC BY-SA 4.0; "
    "data derived from them is shared under the same licence."
)


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
        terms.append(
            {
                "id": entry.id,
                "term": entry.term,
                "traditional": entry.traditional,
                "pinyin": entry.pinyin,
                "category": entry.category,
                "rites": list(entry.rites),
                "gloss": entry.gloss,
                "definition": entry.definition,
                "definition_zh": entry.definition_zh,
                "citations": citations,
                "related": list(entry.related),
                "media": list(entry.media),
                "tags": list(entry.tags),
                "concordance": {
                    "total": occurrences.total if occurrences else 0,
                    "by_place": [
                        {"place": place, "layer": layer, "count": count}
                        for (place, layer), count in (occurrences.by_place if occurrences else ())
                    ],
                },
            }
        )
    data = {"generator": f"glossary {__version__}", "attribution": ATTRIBUTION, "terms": terms}
    return {"terms.json": dump_json(data).encode("utf-8")}
