"""``terms.json``: the entries with their resolved citations, for other tools."""
from __future__ import annotations

from glossary import __version__
from glossary.check import Report
from glossary.problems import dump_json

ATTRIBUTION = (
    "Corpus texts: Kanseki Repository (kanripo.org), CC BY-SA 4.0; "
    "data derived from them is shared under the same licence."
)


def render(report: Report) -> bytes:
    """The checked glossary as stable JSON."""
    terms = []
    for entry in report.entries:
        results = report.results_for(entry.id)
        citations = []
        for citation, result in zip(entry.citations, results):
            item: dict[str, object] = {"quote": citation.quote, **citation.locus_fields()}
            if citation.note:
                item["note"] = citation.note
            item["status"] = result.status
            item["loci"] = [locus.to_json() for locus in result.loci]
            citations.append(item)
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
            }
        )
    data = {"generator": f"glossary {__version__}", "attribution": ATTRIBUTION, "terms": terms}
    return dump_json(data).encode("utf-8")
