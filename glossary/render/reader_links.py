"""Where the reader view puts each rite and each cited place: the one home of its file names, for
the reader's renderer (:mod:`glossary.render.reader`) and for the pages that link to it."""

from __future__ import annotations

from glossary.model import Glossary

#: The folder of the reader's pages in the output.
FOLDER = "read"
#: The reader's contents page.
CONTENTS = f"{FOLDER}/index.html"
#: Where a page of the folder finds the web glossary.
GLOSSARY = "../glossary.html"


def page_name(rite_id: str) -> str:
    """The output name of a rite's page."""
    return f"{FOLDER}/{rite_id}.html"


def href(glossary: Glossary, file: str, start: int) -> str | None:
    """The link from ``glossary.html`` to the place of a cited locus (``read/shiyu.html#c14-…``),
    None where the reader does not show it."""
    place = glossary.reader.place(file, start) if glossary.reader else None
    return f"{page_name(place[0])}#{place[1]}" if place else None


def contents(glossary: Glossary) -> str | None:
    """The link from ``glossary.html`` to the reader's contents, None when there is no reader."""
    return CONTENTS if glossary.reader and glossary.reader.rites else None
