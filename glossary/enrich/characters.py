"""The characters of the headwords: Kangxi radical and strokes (``data/radicals.tsv``, from
Unihan), and, for a character a learner will not have met, what it is built of and the standard
form it is a variant of (``data/variants.tsv``): the breakdown the cards and the book print beside
its readings.

"Rare" is a character that neither everyday character set holds, GB 2312 (simplified) nor Big5
(traditional): one that is not standard in :mod:`glossary.standard`'s sense (𤣥, 𦵏, 韠, 衆 and a
few more among the headwords).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from glossary.model import CharForm

#: The first Kangxi radical number of each stroke count (1 stroke: radicals 1–6, 2 strokes: 7–29 …).
RADICAL_STROKES_START = (
    1,
    7,
    30,
    61,
    95,
    118,
    147,
    167,
    176,
    187,
    195,
    201,
    205,
    209,
    211,
    212,
    214,
)


@dataclass(frozen=True)
class Radical:
    """A character's Kangxi radical (number and character), strokes beyond it, and total strokes."""

    number: int
    radical: str
    residual: int
    strokes: int

    @property
    def ideograph(self) -> str:
        """The radical as an ordinary ideograph (⼈ → 人): text copied from the page finds it."""
        return unicodedata.normalize("NFKC", self.radical)

    @property
    def radical_strokes(self) -> int:
        """Strokes of the Kangxi radical itself, from its number (the radicals are ordered by strokes)."""
        return sum(1 for start in RADICAL_STROKES_START if start <= self.number)

    @property
    def kangxi_strokes(self) -> int:
        """Radical strokes + residual strokes: the total that agrees with the residual printed."""
        return self.radical_strokes + self.residual


@lru_cache(maxsize=1)
def radicals() -> dict[str, Radical]:
    """char → radical and strokes (``data/radicals.tsv``, generated from Unihan)."""
    table = {}
    text = resources.files("glossary.data").joinpath("radicals.tsv").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            char, number, radical, residual, strokes = line.split("\t")
            table[char] = Radical(int(number), radical, int(residual or 0), int(strokes))
    return table


#: Where a variant row comes from (``data/variants.tsv``), as a reader is told it.
VARIANT_SOURCES = {
    "yitizi": "yitizi",
    "unihan": "Unihan",
    "curated": "the glossary's variant table",
}


def rare(ch: str) -> bool:
    """Whether ``ch`` is a CJK character outside both GB 2312 and Big5."""
    from glossary.standard import is_standard

    return unicodedata.category(ch) == "Lo" and not is_standard(ch)


def char_form(ch: str) -> CharForm | None:
    """The breakdown of a rare character (None for any other, or one Unihan does not list)."""
    if not rare(ch):
        return None
    info = radicals().get(ch)
    if info is None:
        return None
    from glossary.normalize import SOURCES, VARIANTS

    standard = VARIANTS.get(ch)
    return CharForm(
        char=ch,
        radical=info.ideograph,
        number=info.number,
        residual=info.residual,
        strokes=info.kangxi_strokes,
        standard=standard if standard and standard != ch else None,
        source=VARIANT_SOURCES.get(SOURCES.get(ch, ""), "") if standard else "",
    )
