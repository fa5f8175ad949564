"""The renderers: every output family is one function ``(glossary, options) -> Rendered``.

``RENDERERS`` is the registry the build runs; a new output format is one function here
and a module beside this one. Each renderer imports its module when it runs, so asking
for one output (or for a shared helper such as :mod:`glossary.render.markup`) does not
load every other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from glossary.model import Glossary
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE
from glossary.vocab import vocabulary


@dataclass(frozen=True)
class RenderOptions:
    """What to build besides the default outputs."""

    paper: str = "a4"
    #: Rites (any name the vocabulary knows) to write a study sheet for.
    sheets: tuple[str, ...] = ()
    pdf: bool = False


@dataclass(frozen=True)
class Rendered:
    """One renderer's outputs: files for the output folder, and project state files to keep."""

    files: dict[str, bytes]
    #: Files beside terms.yaml that the renderer keeps up to date between builds (name → bytes).
    state: dict[str, bytes] = field(default_factory=dict)


Renderer = Callable[[Glossary, RenderOptions], Rendered]


def _terms_json(glossary: Glossary, options: RenderOptions) -> Rendered:
    from glossary.render import terms_json

    return Rendered(terms_json.render(glossary))


def _stages_json(glossary: Glossary, options: RenderOptions) -> Rendered:
    from glossary.render import stages_json

    return Rendered(stages_json.render(glossary))


def _anki(glossary: Glossary, options: RenderOptions) -> Rendered:
    from glossary.render.anki import render as anki

    files, state = anki.render(glossary)
    return Rendered(files, state)


#: ``--sheet all``: a study sheet for every rite the glossary lists.
ALL_SHEETS = "all"


def _print(glossary: Glossary, options: RenderOptions) -> Rendered:
    from glossary.render import chromium, fonts, printed, sheets

    print_options = printed.PrintOptions(paper=options.paper)
    outputs = {"glossary.html": printed.render_glossary(glossary, print_options)}
    sheet_rites = _sheets(glossary, options.sheets)
    for rite in sheet_rites:
        name, html = sheets.render_sheet(glossary, rite, print_options)
        outputs[name] = html
    printed.check_fonts(glossary, outputs)
    if options.pdf:
        # Before the font subsets a printing needs (seconds each): a missing Chromium fails at once.
        chromium.require_chromium()
        # The book is printed until its page numbers hold; each sheet until its last page is not near-empty.
        # The HTML is then the one the PDF was printed from: the same, with the page numbers filled in.
        chars = printed.font_chars(outputs)
        outputs["glossary.html"], outputs["glossary.pdf"] = printed.print_glossary(
            glossary, print_options, font_chars=chars
        )
        for rite in sheet_rites:
            name, data = sheets.print_sheet(glossary, rite, print_options, chars)
            outputs[name] = data
    # The BabelStone subset the pages inline, as a file with its licence beside it.
    outputs.update(fonts.files_for(fonts.drawn(outputs["glossary.html"].decode("utf-8"))))
    return Rendered(outputs)


def _sheets(glossary: Glossary, asked: tuple[str, ...]) -> tuple[str, ...]:
    """The rites to write sheets for: ``all`` is every rite the glossary lists, in 禮經本義's order."""
    if ALL_SHEETS not in asked:
        return asked
    listed = {rite.id for entry in glossary.entries for rite in entry.rites}
    every = tuple(rite.simplified for rite in vocabulary().rites if rite.id in listed)
    return every + tuple(rite for rite in asked if rite != ALL_SHEETS and rite not in every)


def _read(glossary: Glossary, options: RenderOptions) -> Rendered:
    from glossary.render import reader

    return Rendered(reader.render(glossary))


#: Output family → renderer. Run in name order; their files must not collide.
RENDERERS: dict[str, Renderer] = {
    "terms.json": _terms_json,
    "stages.json": _stages_json,
    "anki": _anki,
    "print": _print,
    "read": _read,
}

#: The project files renderers keep as state (read into ``Glossary.state`` by the build).
STATE_FILES = (LEDGER_FILE,)
