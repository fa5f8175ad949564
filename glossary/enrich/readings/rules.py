"""The checks of an entry's readings: its ``guangyun`` and ``yinyi`` lists, its pinyin.

An error for a ``guangyun`` list of the wrong length or a 反切 that is not the character's; a
warning where the entry's pinyin is not what the chosen 廣韻 reading or the 儀禮音義's reading
regularly gives in Mandarin (:mod:`glossary.enrich.mandarin`), unless the entry says why in
``reading_note``; a warning where a note of the entry's rites reads a character in another
headword or graph and no ``yinyi`` carries it (Y412), or where the pinyin reads a phrase as the
note that excepts it does (Y413: 除決拾以外皆同).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from glossary.enrich import mandarin
from glossary.enrich.pinyin import split_reading
from glossary.enrich.readings.guangyun import guangyun
from glossary.enrich.readings.lookup import Yinyi, excepts, headword_chars
from glossary.enrich.readings.yinyi import Gloss, key
from glossary.model import CharReading, Entry
from glossary.normalize import fold_char
from glossary.problems import ERROR, WARNING, Problem


def _one_per_char(
    file: str, entry: Entry, field: str, items: str, null_means: str
) -> list[Problem]:
    """An error when a per-character list (``guangyun``, ``yinyi``) is not as long as the headword."""
    values, chars = getattr(entry, field), headword_chars(entry)
    if len(values) == len(chars):
        return []
    return [
        Problem(
            file,
            entry.line_of(field),
            f"{entry.id}.{field}",
            ERROR,
            f"{len(values)} {items} for the {len(chars)} character(s) of {chars}: "
            f"give one per character (null {null_means})",
            code="Y405" if field == "guangyun" else "Y407",
        )
    ]


def guangyun_problems(file: str, entry: Entry) -> list[Problem]:
    """Errors: a ``guangyun`` list whose length is not the headword's, a 反切 not the character's."""
    if entry.guangyun is None:
        return []
    chars, line, path = headword_chars(entry), entry.line_of("guangyun"), f"{entry.id}.guangyun"
    if wrong := _one_per_char(
        file, entry, "guangyun", "reading(s)", "where the 廣韻 has none that fits"
    ):
        return wrong
    problems = []
    for i, (char, name) in enumerate(zip(chars, entry.guangyun)):
        if name is None:
            continue
        readings = guangyun(char)
        if not any(g.name == name for g in readings):
            known = (
                "; ".join(
                    f"{g.name} ({g.position}: {'/'.join(mandarin.readings(g.position)[:3]) or '?'})"
                    for g in readings
                )
                or "none"
            )
            problems.append(
                Problem(
                    file,
                    line,
                    f"{path}[{i}]",
                    ERROR,
                    f"{name} is not a 廣韻 reading of {char} in tshet-uinh's data; its readings: {known}",
                    code="Y406",
                )
            )
    return problems


def yinyi_problems(file: str, entry: Entry, yinyi: Yinyi) -> list[Problem]:
    """Errors: a ``yinyi`` list whose length is not the headword's, a headword with no note on the character."""
    if entry.yinyi is None:
        return []
    chars, line, path = headword_chars(entry), entry.line_of("yinyi"), f"{entry.id}.yinyi"
    if wrong := _one_per_char(file, entry, "yinyi", "headword(s)", "where no note reads it"):
        return wrong
    rites = "、".join(rite.simplified for rite in entry.rites)
    return [
        Problem(
            file,
            line,
            f"{path}[{i}]",
            ERROR,
            f"no note of the 儀禮音義 on the headword {named} reads {chars[i]} in {rites}"
            + _excepting(entry, yinyi, i, named),
            code="Y408",
        )
        for i, named in enumerate(entry.yinyi)
        if named is not None and yinyi.for_char(entry, i) is None
    ]


def _excepting(entry: Entry, yinyi: Yinyi, i: int, named: str) -> str:
    """Why a named note does not read the character, when its exception is the entry's phrase."""
    word = tuple(key(ch) for ch in headword_chars(entry))
    wanted = tuple(key(ch) for ch in named)
    for gloss in (g for pool in yinyi.glosses_of(entry, word[i]) for g in pool):
        if gloss.folded == wanted and excepts(gloss, word, i):
            phrases = "、".join(gloss.excepted)
            return (
                f": its note ({gloss.note}) excepts {phrases}, so {headword_chars(entry)} reads it "
                "otherwise (null, and the reading in reading_note)"
            )
    return ""


def missing_problems(
    file: str, entry: Entry, yinyi: Yinyi, readings: Sequence[CharReading]
) -> list[Problem]:
    """Warnings (Y412) where a headword character has no 儀禮音義 reading, though a note of the
    entry's rites reads it in another headword (a longer one, one of that character alone, one
    of another graph: :meth:`Yinyi.unread`) and the entry has no ``yinyi`` list to say which."""
    if entry.yinyi is not None:
        return []
    chars = headword_chars(entry)
    found = [
        (i, gloss)
        for i, ch in enumerate(chars)
        if fold_char(ch)
        and (i >= len(readings) or readings[i].shiwen is None)
        and (gloss := next(iter(yinyi.unread(entry, i)), None)) is not None
    ]
    if not found:
        return []
    named = dict(found)
    fix = [
        named[i].headword
        if i in named
        else (r.shiwen.headword if i < len(readings) and (r := readings[i]).shiwen else "null")
        for i in range(len(chars))
    ]
    problems = []
    for i, gloss in found:
        locus = reading_locus_text(gloss)
        problems.append(
            Problem(
                file,
                entry.line,
                f"{entry.id}.yinyi",
                WARNING,
                f"{chars[i]} has no 經典釋文 reading, but the 儀禮音義 reads it at {gloss.headword} "
                f"({gloss.note}) in {gloss.rite} [{locus}]: add yinyi: [{', '.join(fix)}] (null for "
                "a character whose word there is another), then follow its reading in pinyin or "
                "say why not in reading_note",
                code="Y412",
            )
        )
    return problems


def excepted_problems(file: str, entry: Entry, yinyi: Yinyi) -> list[Problem]:
    """Warnings (Y413) where the pinyin reads a character as a note of the entry's rites does that
    excepts the entry's phrase (弓矢拾 其劫反 … 除決拾以外皆同: 決拾 read jué jiè), unless the
    entry's ``reading_note`` names the character."""
    chars, syllables = headword_chars(entry), split_reading(entry.pinyin)
    if len(syllables) != len(chars):
        return []
    word = tuple(key(ch) for ch in chars)
    problems = []
    for i, syllable in enumerate(syllables):
        if not fold_char(chars[i]) or explained(entry, i):
            continue
        own, earlier = yinyi.glosses_of(entry, word[i])
        gloss = next(
            (
                g
                for g in own + earlier
                if excepts(g, word, i) and any(mandarin.fits(syllable, p) for p in g.positions)
            ),
            None,
        )
        if gloss is None:
            continue
        phrases = "、".join(gloss.excepted)
        problems.append(
            Problem(
                file,
                entry.line_of("pinyin"),
                f"{entry.id}.pinyin",
                WARNING,
                f"{chars[i]} {syllable}: the 儀禮音義 reads {chars[i]} {gloss.main_text} at "
                f"{gloss.headword} ({gloss.note}) in {gloss.rite} [{reading_locus_text(gloss)}] "
                f"but for {phrases}, the entry's phrase: read it otherwise (as the character, or "
                "as another note of the rites reads it), or say why in reading_note",
                code="Y413",
            )
        )
    return problems


def reading_locus_text(gloss: Gloss) -> str:
    """Where a note stands, as ``file:line`` of the corpus."""
    return f"{gloss.document.path}:{gloss.document.line_at(gloss.start)}"


def classical_problems(file: str, entry: Entry, readings: Sequence[CharReading]) -> list[Problem]:
    """Warnings where the entry's pinyin is not what its 廣韻 or 儀禮音義 reading regularly gives,
    unless the entry's ``reading_note`` names the character and so says why."""
    problems = []
    for i, reading in enumerate(readings):
        if not reading.pinyin or explained(entry, i):
            continue
        g = reading.guangyun
        if g is not None and not mandarin.fits(reading.pinyin, g.position):
            problems.append(
                Problem(
                    file,
                    entry.line_of("guangyun"),
                    f"{entry.id}.guangyun[{i}]",
                    WARNING,
                    f"{reading.char} {reading.pinyin}: the 廣韻 reading chosen, {g.fanqie or g.position} ({g.position}), "
                    f"gives {_gives([g.position])}: choose another, or null, or say why in reading_note",
                    code="Y409",
                )
            )
        s = reading.shiwen
        if (
            s is not None
            and s.positions
            and not any(mandarin.fits(reading.pinyin, p) for p in s.positions)
        ):
            whose = f" ({s.who}'s reading, as 陸德明 reports it)" if s.who else ""
            problems.append(
                Problem(
                    file,
                    entry.line_of("pinyin"),
                    f"{entry.id}.pinyin",
                    WARNING,
                    f"{reading.char} {reading.pinyin}: 經典釋文 reads {s.headword} {s.text}{whose} in "
                    f"{s.locus.rite} [{s.locus.file}:{s.locus.line}], which gives {_gives(s.positions, s.sounds_like)}: "
                    "follow it, or say why not in reading_note",
                    code="Y410",
                )
            )
    return problems


def explained(entry: Entry, i: int) -> bool:
    """Whether the entry's ``reading_note`` names its ``i``-th headword character (in either script)."""
    note = entry.reading_note or ""
    forms = {headword_chars(entry)[i]} | ({entry.term[i]} if i < len(entry.term) else set())
    return any(form in note for form in forms)


def _gives(positions: Iterable[str], sounds_like: str = "") -> str:
    """The Mandarin of some 音韻地位, for messages: a 直音's character as read today where that
    fits (音福: 福 fú), else the regular syllables (``jì/zì``), the first six."""
    positions = list(positions)
    if sounds_like:
        today = [
            r for r in mandarin.modern(sounds_like) if any(mandarin.fits(r, p) for p in positions)
        ]
        if today:
            return f"{sounds_like} {'/'.join(today)}"
    found = list(dict.fromkeys(r for p in positions for r in mandarin.readings(p)))
    return (
        "/".join(found[:6]) + ("/…" if len(found) > 6 else "") if found else "no Mandarin syllable"
    )


def backed(reading: CharReading) -> bool:
    """Whether the classical sources give the entry's syllable itself: a 直音 of 經典釋文 whose
    character is read so today (音福: 福 fú), or a 廣韻 or 釋文 reading that regularly gives it
    with its tone (深 式禁切: shèn). The 入聲 of a voiceless initial gives no tone (哭 空谷切 could
    be kū or kǔ), so it backs no syllable by itself."""
    if not reading.pinyin:
        return False
    shiwen = reading.shiwen
    if (
        shiwen is not None
        and shiwen.sounds_like
        and reading.pinyin in mandarin.modern(shiwen.sounds_like)
    ):
        return True
    positions = ([reading.guangyun.position] if reading.guangyun else []) + list(
        shiwen.positions if shiwen else ()
    )
    return any(mandarin.fits(reading.pinyin, p) and mandarin.tone_known(p) for p in positions)
