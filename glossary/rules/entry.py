"""The checks of one entry, after its citations are verified: each a function of one signature,
``(EntryContext) -> Iterable[Problem]``, in :data:`ENTRY_CHECKS` (beancount's validators).

To add one: write the function here (or import it), give every problem it reports a code of
:mod:`glossary.rules.codes` (a new line there, naming this function), and list it in
:data:`ENTRY_CHECKS`. A check reads only its context: no files, no other check's messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from glossary.model import CharReading, CitationResult, Entry
from glossary.normalize import normalize, script_char
from glossary.problems import ERROR, WARNING, Problem
from glossary.rules.parentheses import parenthesised_fields
from glossary.vocab import Rite

if TYPE_CHECKING:
    from glossary.apparatus import Authorities
    from glossary.corpus import Locus
    from glossary.enrich.readings.lookup import Yinyi
    from glossary.index import CorpusIndex, Origin


@dataclass(frozen=True)
class EntryContext:
    """What the checks of one entry may read: the entry, its verified citations (``results``,
    their passages as ``origins``), the index, the authorities, the readings found, and the
    headwords of the file (:func:`headwords`)."""

    file: str
    entry: Entry
    results: Sequence[CitationResult]
    origins: Sequence[Origin | Locus]
    index: CorpusIndex
    authorities: Authorities
    yinyi: Yinyi
    readings: Sequence[CharReading]
    headwords: Mapping[str, Entry]
    #: The entry of each ``variants`` form of the file, simplified (:func:`variant_owners`).
    variants: Mapping[str, Entry] = field(default_factory=dict)

    def problem(self, field: str, severity: str, code: str, message: str) -> Problem:
        """A problem at one of the entry's fields (``term`` at the entry's first line)."""
        line = self.entry.line if field == "term" else self.entry.line_of(field)
        return Problem(self.file, line, f"{self.entry.id}.{field}", severity, message, code=code)


EntryCheck = Callable[[EntryContext], Iterable[Problem]]


def simplified(text: str) -> str:
    """``text`` with each traditional character simplified: one OpenCC's forms table gives as a
    traditional form (not 旂, which OpenCC's t2s alone turns into 旗) whose simplified form is
    a GB2312 character (not 繶, whose 𫄷 the standard lacks)."""
    from glossary.enrich.readings.guangyun import traditional_forms
    from glossary.standard import is_gb2312

    forms = traditional_forms()
    return "".join(
        plain if ch in forms and (plain := script_char(ch)) != ch and is_gb2312(plain) else ch
        for ch in text
    )


def headwords(entries: Iterable[Entry]) -> dict[str, Entry]:
    """The first entry of each headword, keyed by its simplified form (OpenCC's table)."""
    found: dict[str, Entry] = {}
    for entry in entries:
        found.setdefault(simplified(entry.term), entry)
    return found


def variant_owners(entries: Iterable[Entry]) -> dict[str, Entry]:
    """The first entry that lists each ``variants`` form, keyed by its simplified form."""
    found: dict[str, Entry] = {}
    for entry in entries:
        for form in entry.variants:
            found.setdefault(simplified(form), entry)
    return found


def rites_cited(ctx: EntryContext) -> Iterable[Problem]:
    """Y302: every rite listed has a citation located in it."""
    from glossary.apparatus import rite_problems

    entry = ctx.entry
    return rite_problems(ctx.file, entry.id, entry.rites, entry.line_of("rites"), ctx.origins)


def authorities_cited(ctx: EntryContext) -> Iterable[Problem]:
    """Y301: an authority a claim names speaks in a cited passage, or is the cited work."""
    from glossary.apparatus import claim_problems

    return claim_problems(ctx.file, ctx.entry, ctx.origins, ctx.authorities)


def received_reading(ctx: EntryContext) -> Iterable[Problem]:
    """Y303: a quote of the classic the received text reads otherwise says which it follows."""
    from glossary.enrich import witness_rules

    return witness_rules.reading_problems(ctx.file, ctx.entry, ctx.results, ctx.index)


def repeats_zheng(ctx: EntryContext) -> Iterable[Problem]:
    """Y304: words credited to the author that repeat 鄭玄's note."""
    from glossary.enrich import witness_rules

    return witness_rules.repeat_problems(
        ctx.file, ctx.entry, ctx.results, ctx.index, ctx.authorities
    )


def repeats_zheng_here(ctx: EntryContext) -> Iterable[Problem]:
    """Y309: a cited note of the author's repeats words of 鄭玄's note on the same passage."""
    from glossary.enrich import witness_rules

    return witness_rules.local_repeat_problems(
        ctx.file, ctx.entry, ctx.results, ctx.index, ctx.authorities
    )


def received_gap(ctx: EntryContext) -> Iterable[Problem]:
    """Y311: a quote of the classic the received text reads with a character more or fewer."""
    from glossary.enrich import witness_rules

    return witness_rules.gap_problems(ctx.file, ctx.entry, ctx.results, ctx.index)


def classic_not_received(ctx: EntryContext) -> Iterable[Problem]:
    """Y310: a quoted passage of the classic that the received text has nowhere, unannotated."""
    from glossary.enrich import witness_rules

    return witness_rules.unreceived_problems(ctx.file, ctx.entry, ctx.results, ctx.index)


def headword_quoted(ctx: EntryContext) -> Iterable[Problem]:
    """Y305: some form of the headword occurs in a quote."""
    from glossary.citations import headword_problem

    found = headword_problem(ctx.file, ctx.entry)
    return [] if found is None else [found]


def variants_quoted(ctx: EntryContext) -> Iterable[Problem]:
    """Y306: each ``variants`` form occurs in one of the entry's quotes."""
    quotes = [normalize(c.quote) for c in ctx.entry.citations]
    return [
        ctx.problem(
            "variants",
            WARNING,
            "Y306",
            f"the variant {form} occurs in none of the entry's quotes: cite a passage that "
            "writes it, or leave it out",
        )
        for form in ctx.entry.variants
        if (key := normalize(form)) and not any(key in quote for quote in quotes)
    ]


def pinyin(ctx: EntryContext) -> Iterable[Problem]:
    """Y401–Y403: syllables with tone marks, one per character, a reading pypinyin knows or the
    classical sources give (a reading they back is not warned about)."""
    from glossary.enrich.pinyin import reading_problems
    from glossary.enrich.readings.rules import backed

    found = []
    for severity, code, message, i in reading_problems(ctx.entry):
        if i is not None and i < len(ctx.readings) and backed(ctx.readings[i]):
            continue  # pypinyin lacks it, but the 廣韻 or 經典釋文 gives it: looked at twice
        found.append(ctx.problem("pinyin", severity, code, message))
    return found


def tts(ctx: EntryContext) -> Iterable[Problem]:
    """Y404: the ``tts`` homophones read as the pinyin."""
    from glossary.enrich.pinyin import tts_problems

    return [ctx.problem("tts", ERROR, "Y404", message) for message in tts_problems(ctx.entry)]


def guangyun(ctx: EntryContext) -> Iterable[Problem]:
    """Y405, Y406: one 廣韻 reading per character, each the character's."""
    from glossary.enrich.readings.rules import guangyun_problems

    return guangyun_problems(ctx.file, ctx.entry)


def guangyun_missing(ctx: EntryContext) -> Iterable[Problem]:
    """Y411: an entry gives its 廣韻 readings (the guide requires them)."""
    from glossary.enrich.readings.guangyun import guangyun as readings_of
    from glossary.enrich.readings.lookup import headword_chars

    if ctx.entry.guangyun is not None:
        return []
    chars = headword_chars(ctx.entry)
    shown = "; ".join(
        f"{ch}: {'/'.join(g.name for g in readings_of(ch)[:4]) or 'none'}" for ch in chars
    )
    return [
        ctx.problem(
            "term",
            WARNING,
            "Y411",
            f"no guangyun: give the 廣韻 reading of each character of {chars} ({shown}), null "
            "where none is the ritual one (glossary new proposes them)",
        )
    ]


def yinyi(ctx: EntryContext) -> Iterable[Problem]:
    """Y407, Y408: one 音義 headword per character, each a note that reads it."""
    from glossary.enrich.readings.rules import yinyi_problems

    return yinyi_problems(ctx.file, ctx.entry, ctx.yinyi)


def yinyi_missing(ctx: EntryContext) -> Iterable[Problem]:
    """Y412: a headword character the 儀禮音義 reads in the entry's rites, in another headword or
    graph, has that note named in ``yinyi`` (or null)."""
    from glossary.enrich.readings.rules import missing_problems

    return missing_problems(ctx.file, ctx.entry, ctx.yinyi, ctx.readings)


def yinyi_excepted(ctx: EntryContext) -> Iterable[Problem]:
    """Y413: the pinyin does not read a character as a note whose exception is the entry's phrase."""
    from glossary.enrich.readings.rules import excepted_problems

    return excepted_problems(ctx.file, ctx.entry, ctx.yinyi)


def classical(ctx: EntryContext) -> Iterable[Problem]:
    """Y409, Y410: the pinyin is what the 廣韻 or 音義 reading regularly gives."""
    from glossary.enrich.readings.rules import classical_problems

    return classical_problems(ctx.file, ctx.entry, ctx.readings)


def headword_scripts(ctx: EntryContext) -> Iterable[Problem]:
    """Y501: no second entry for a headword another entry writes in the other script."""
    entry = ctx.entry
    first = ctx.headwords.get(simplified(entry.term))
    if first is None or first is entry or first.term == entry.term:
        return []  # the same characters twice are two words (fu-object): their ids differ
    return [
        ctx.problem(
            "term",
            ERROR,
            "Y501",
            f"{entry.term} is the headword of {first.id} (line {first.line}) in the other "
            f"script ({first.term}): merge the two entries",
        )
    ]


def headword_a_variant(ctx: EntryContext) -> Iterable[Problem]:
    """Y504: no entry for a headword that another entry lists among its ``variants``."""
    entry = ctx.entry
    owner = ctx.variants.get(simplified(entry.term))
    if owner is None or owner is entry:
        return []
    return [
        ctx.problem(
            "term",
            ERROR,
            "Y504",
            f"{entry.term} is a variant of {owner.id} ({owner.term}, line {owner.line}): add what "
            f"this entry says to {owner.id} rather than a second entry",
        )
    ]


def term_script(ctx: EntryContext) -> Iterable[Problem]:
    """Y502, Y503: ``term`` simplified (:func:`simplified`), and ``traditional`` given where a
    character of it is a simplified form only (not in the 廣韻) that OpenCC's table writes
    otherwise."""
    from glossary.enrich.readings.guangyun import has_readings, traditional_form

    entry = ctx.entry
    if (plain := simplified(entry.term)) != entry.term:
        return [
            ctx.problem(
                "term",
                ERROR,
                "Y502",
                f"term {entry.term} is written in traditional script: write term: {plain} and "
                f"traditional: {entry.term}",
            )
        ]
    # A simplified character the 廣韻 has readings of is a character of its own (尸, 几, 干):
    # only one it lacks (龙, 奥, 内) must have its traditional form written.
    full = "".join(ch if has_readings(ch) else traditional_form(ch) for ch in entry.term)
    if entry.traditional is None and full != entry.term:
        return [
            ctx.problem(
                "term",
                WARNING,
                "Y503",
                f"no traditional: {entry.term} is {full} in traditional script (OpenCC); add "
                f"traditional: {full}",
            )
        ]
    return []


#: Every check of one entry, in the order their problems are found (the report sorts them).
def senses(ctx: EntryContext) -> Iterable[Problem]:
    """A sense names only rites the entry lists (Y125), each rite in one sense at most (Y126)."""
    listed, seen = set(ctx.entry.rites), dict[Rite, int]()
    for i, sense in enumerate(ctx.entry.senses):
        where = f"{ctx.entry.id}.senses[{i}].rites"
        for rite in sense.rites:
            if rite not in listed:
                yield Problem(
                    ctx.file,
                    sense.line,
                    where,
                    ERROR,
                    f"{rite.simplified} is not among the entry's rites: list it in `rites` "
                    "(with a citation from it), or leave it out of the sense",
                    code="Y125",
                )
            elif rite in seen:
                yield Problem(
                    ctx.file,
                    sense.line,
                    where,
                    ERROR,
                    f"{rite.simplified} is in senses[{seen[rite]}] already: a rite has one sense "
                    "of the word (split the entry if it has two there)",
                    code="Y126",
                )
            else:
                seen[rite] = i


#: In Chinese that a gloss or definition gives in parentheses (the words a claim rests on, as the
#: entries write them: "nocks to the north (弟子取矢北面坐委于楅北括)"): its runs of characters.
_RUN = re.compile("[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f]{4,}")
#: The name of what 蔡德晉 appends (附記三章, 右事畢附, 右祖奠附記), not a passage.
_CHAPTERS = re.compile("^(?:附記|右)?.{0,12}?(?:[一二三四五六七八九十]+章|附記?)$")


def inline_quoted(ctx: EntryContext) -> Iterable[Problem]:
    """Y312: the Chinese a gloss or definition gives in parentheses stands in one of its quotes."""
    quotes = [normalize(c.quote) for c in ctx.entry.citations]
    names = _names(ctx.index)
    found = []
    for name, _, inner in parenthesised_fields(ctx.entry):
        for run in _RUN.findall(inner.group(1)):
            key = normalize(run)
            if key in names or _CHAPTERS.match(run) or any(key in q for q in quotes):
                continue
            where = "" if ctx.index.occurs(key) else " (and stands nowhere in the corpus)"
            found.append(
                ctx.problem(
                    name,
                    WARNING,
                    "Y312",
                    f"{run} is in none of the entry's quotes{where}: a claim resting on it rests "
                    "on words not cited; lengthen the quote that has it, cite its passage, or cut it",
                )
            )
    return found


def modals_rendered(ctx: EntryContext) -> Iterable[Problem]:
    """Y313: each modal in parenthesised Chinese is carried by the English of its sentence."""
    from glossary.rules.modals import unrendered

    return [
        ctx.problem(
            name,
            WARNING,
            "Y313",
            f"({chinese[:40]}) holds a modal ({says}) that the English of its sentence does not "
            "render: render it, or, where another sentence does, waive it with its reason "
            "(ignore: Y313)",
        )
        for name, value, run in parenthesised_fields(ctx.entry)
        for chinese, says in unrendered(value, run)
    ]


def _names(index: CorpusIndex) -> frozenset[str]:
    """What Chinese in parentheses may be besides a passage: a rite's, a work's, a section's or
    a commentator's name, or a book's title (normalised)."""
    from glossary.corpus.commentators import BOOKS, every_name
    from glossary.vocab import vocabulary

    cached = _NAMES.get(index)
    if cached is not None:
        return cached
    names = set(every_name()) | {normalize(b) for b in BOOKS}
    for rite in vocabulary().rites:
        names |= {normalize(rite.simplified), normalize(rite.traditional)}
        names |= {normalize(rite.simplified) + suffix for suffix in ("上", "下")}
    for doc in index.corpus.documents:
        names.add(normalize(doc.text_info.title))
        for _, section in doc.sections:
            # A section is named as it is, as "the rite of" it, and by its marker (右主人獻賔; the
            # markers as printed are added below, but a wrapped one is printed in two pieces).
            key = normalize(section)
            names |= {key, key + "之禮", "右" + key}
        names |= {normalize(marker) for _, marker in doc.markers}
    frozen = _NAMES[index] = frozenset(names)
    return frozen


#: The names of each index's corpus, made once a run (every entry asks).
_NAMES: WeakKeyDictionary[CorpusIndex, frozenset[str]] = WeakKeyDictionary()


ENTRY_CHECKS: tuple[EntryCheck, ...] = (
    rites_cited,
    senses,
    authorities_cited,
    received_reading,
    repeats_zheng,
    repeats_zheng_here,
    classic_not_received,
    received_gap,
    headword_quoted,
    variants_quoted,
    pinyin,
    tts,
    guangyun,
    guangyun_missing,
    yinyi,
    yinyi_missing,
    yinyi_excepted,
    classical,
    headword_scripts,
    headword_a_variant,
    term_script,
    inline_quoted,
    modals_rendered,
)
