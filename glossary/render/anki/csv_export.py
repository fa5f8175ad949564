"""A CSV that Anki's own importer reads, GUIDs included (so it updates notes in place)."""
from __future__ import annotations

import csv
import io

from glossary.render.anki.models import StableModel
from glossary.render.anki.notes import NoteSpec
from glossary.render.anki.package import deck_name


def render(specs: list[NoteSpec], models: dict[str, StableModel]) -> bytes:
    """Header lines for Anki (separator, html, guid/notetype/deck/tags columns), then one row per note."""
    width = max(len(spec.fields) for spec in specs) if specs else 0
    out = io.StringIO()
    out.write("#separator:Comma\n#html:true\n#guid column:1\n#notetype column:2\n#deck column:3\n")
    out.write(f"#tags column:{4 + width}\n")
    writer = csv.writer(out, lineterminator="\n")
    for spec in specs:
        fields = list(spec.fields) + [""] * (width - len(spec.fields))
        writer.writerow([spec.guid, models[spec.kind].name, deck_name(spec.rites[0], spec.category),
                         *fields, " ".join(spec.tags)])
    return out.getvalue().encode("utf-8")
