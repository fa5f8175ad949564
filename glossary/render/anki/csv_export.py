"""A CSV that Anki's own importer reads, GUIDs included (so it updates notes in place)."""

from __future__ import annotations

import csv
import io

from glossary.render.anki.models import StableModel
from glossary.render.anki.notes import NoteSpec
from glossary.render.anki.package import home_deck

#: A cell starting with one of these is a formula to a spreadsheet (OWASP's CSV injection list).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: str) -> str:
    """A field cell a spreadsheet will not run: its first character written as an HTML character
    reference, which Anki (``#html:true``) shows as the character itself."""
    return f"&#{ord(cell[0])};{cell[1:]}" if cell.startswith(FORMULA_START) else cell


def render(specs: list[NoteSpec], models: dict[str, StableModel]) -> bytes:
    """Header lines for Anki (separator, html, guid/notetype/deck/tags columns), then one row per note."""
    width = max(len(spec.fields) for spec in specs) if specs else 0
    out = io.StringIO()
    out.write("#separator:Comma\n#html:true\n#guid column:1\n#notetype column:2\n#deck column:3\n")
    out.write(f"#tags column:{4 + width}\n")
    # Column names: the term note type's fields (Anki maps a column to the field of that name; the
    # other note types take their fields in order). Anki reads this line since 2.1.55.
    names = [field["name"] for field in models["term"].fields]
    names += [f"field{i}" for i in range(len(names) + 1, width + 1)]
    out.write("#columns:" + ",".join(["guid", "notetype", "deck", *names[:width], "tags"]) + "\n")
    writer = csv.writer(out, lineterminator="\n")
    for spec in specs:
        # A GUID is written as it is, in quotes. As it is: Anki matches the note by it, so a GUID
        # prefixed against spreadsheet formulas would add a second note instead of updating the
        # first (and a GUID is genanki's hash of the id, base91: no contributor writes it, an id
        # chooses at most its first character). In quotes: Anki skips a line that starts with
        # ``#`` as a comment, which would silently drop the note of a GUID like ``#u3Vq…``.
        out.write('"' + spec.guid.replace('"', '""') + '",')
        fields = [neutralise(f) for f in spec.fields] + [""] * (width - len(spec.fields))
        writer.writerow(
            [
                models[spec.kind].name,
                home_deck(spec),
                *fields,
                " ".join(spec.tags),
            ]
        )
    return out.getvalue().encode("utf-8")
