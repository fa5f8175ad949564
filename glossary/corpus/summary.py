"""`glossary corpus`: the corpus texts, their layers and sections, and defects of the text itself."""
from __future__ import annotations

from glossary.corpus import Corpus


def summary(corpus: Corpus) -> dict[str, list]:
    """``{"texts": [one row per text], "warnings": [defects of the corpus text]}``."""
    rows = []
    for info in corpus.texts:
        docs = [d for d in corpus.documents if d.text_info is info]
        layers: dict[str, int] = {}
        for doc in docs:
            for stream in doc.streams:
                layers[stream.layer] = layers.get(stream.layer, 0) + len(stream.text)
        rows.append({"id": info.id, "title": info.title, "author": info.author, "edition": info.edition,
                     "script": info.script, "format": info.format, "files": len(docs),
                     "characters": layers, "sections": sum(len(d.sections) for d in docs)})
    return {"texts": rows, "warnings": [str(w) for w in corpus.warnings]}


def text_lines(data: dict[str, list]) -> list[str]:
    """The summary as lines for a terminal."""
    lines = []
    for row in data["texts"]:
        chars = ", ".join(f"{k} {v:,}" for k, v in sorted(row["characters"].items()))
        lines.append(f"{row['id']:14} {row['title']} ({row['author']}): {row['files']} file(s), "
                     f"{row['sections']} sections; {chars}")
    lines.extend(f"corpus warning: {warning}" for warning in data["warnings"])
    return lines
