"""The 儀禮音義 of 經典釋文: its headwords and notes, a note's readings, the character it reads.

The 儀禮音義 (卷十, in the corpus as the text whose manifest entry has
``readings:``) is a run of headwords, each followed by a note: its reading, as a 反切
(``都回反``), a 直音 (``音對``) or ``如字``, often with another's reading after it (``劉音鼻``:
劉昌宗's; ``又…``, ``一音…``: 陸德明's own second reading), then glosses and remarks
(``下同``, ``注同``). :func:`parse_yinyi` reads the headwords and notes of the corpus text
(its reader already knows each passage's rite from its heading), :func:`parse_note` the
readings in a note, and :func:`glossed` which character of a headword the reading is for
(the one whose 廣韻 readings the 反切 or 直音 gives).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

from glossary.corpus import Document
from glossary.enrich import mandarin
from glossary.enrich.readings.guangyun import guangyun, spelled
from glossary.normalize import fold_char

#: Who else a note cites for a reading (as printed → as shown); 陸德明's own are None.
AUTHORITIES = {
    "劉昌宗": "劉昌宗",
    "劉": "劉昌宗",
    "范散騎": "范散騎",
    "范": "范散騎",
    "徐": "徐邈",
    "字林": "字林",
    "舊": "舊音",
    "沈": "沈重",
    "禮記": "禮記音義",
}
_WHO = "|".join(sorted(map(re.escape, AUTHORITIES), key=len, reverse=True))
_HAN = r"[^\W\d_a-zA-Z]"
#: One reading, with whose it is and whether it is a second reading: 反切, 直音 or 如字.
READING = re.compile(
    rf"(?P<who>{_WHO})?(?P<alt>又|一|或)?(?P<per_notes>依注)?"
    rf"(?:音(?P<cut2>{_HAN}{_HAN})反|(?P<cut>{_HAN}{_HAN})反|(?P<plain>音?如字)|音(?!同)(?P<same>{_HAN}))"
)

#: A note's exception to the reach of its reading: ``除X`` with what follows it in the 音義 (以外,
#: 一字, 之類; then 皆同, 同, 可以意求之): 除決拾以外皆同 (拾, not 決拾's), 下除勞倦一字皆同,
#: 除之朝一字皆同, 注下除相見皆同, 後除適人之類可以意求之.
EXCEPT = re.compile(
    rf"除(?P<phrase>{_HAN}{{2,4}}?)(?:以外|一字|之類)?(?:皆同|竝同|並同|同|可以意求之)"
)

#: A note that starts with the reading of the headword's first character: 上以證反, 上於僞反.
FIRST_OF_TWO = re.compile(rf"上(?:{_HAN}{_HAN}反|音(?!同){_HAN})")
#: A character the Kanseki Repository cannot encode, written as an entity (``&KR1377;``).
ENTITY = re.compile(r"&[A-Za-z0-9]+;")


@dataclass(frozen=True)
class Sound:
    """One reading in a note: ``kind`` fanqie (``value`` the two characters), zhiyin (the character
    it sounds like) or ruzi (as the character); ``who`` the authority (None: 陸德明's own)."""

    kind: str
    value: str
    text: str
    start: int
    who: str | None = None
    alternative: bool = False
    per_notes: bool = False


@lru_cache(maxsize=1 << 15)  # a pure function of the note; the 音義 has about 9,000
def parse_note(note: str) -> tuple[Sound, ...]:
    """The readings of a note of the 儀禮音義, in order.

    A reading is taken at the note's start, right after another reading (``依注音墮許恚反``:
    墮, read 許恚反), or anywhere when it names its authority or says it is a second one
    (``劉音鼻``, ``又音域``, ``一音避``); elsewhere two characters before 反 are words, not a 反切
    (``迎精而反``, in a gloss of 鄭玄's).
    """
    sounds: list[Sound] = []
    # 上以證反: the reading of the headword's first character (媵觚, 委積), said so; its 下 is
    # left alone, since a headword of one repeated character (祝祝 下之又反) would take it.
    pos = 1 if FIRST_OF_TWO.match(note) else 0
    free = False  # inside words that are not readings
    while pos < len(note):
        match = READING.match(note, pos)
        if match and (
            not free
            or match.group("who")
            or match.group("alt")
            or match.group("same")
            and not sounds
        ):
            if match.group("plain"):
                kind, value = "ruzi", ""
            elif match.group("same"):
                kind, value = "zhiyin", match.group("same")
            else:
                kind, value = "fanqie", match.group("cut") or match.group("cut2")
            who = match.group("who")
            sounds.append(
                Sound(
                    kind,
                    value,
                    match.group(),
                    match.start(),
                    AUTHORITIES[who] if who else None,
                    bool(match.group("alt")),
                    bool(match.group("per_notes")),
                )
            )
            pos = match.end()
            free = False
            continue
        free = True
        pos += 1
    return tuple(sounds)


def positions_of(reading: Sound) -> tuple[str, ...]:
    """The 音韻地位 (描述) a 反切 or 直音 of the 儀禮音義 gives (none for 如字)."""
    if reading.kind == "zhiyin":
        return tuple(dict.fromkeys(g.position for g in guangyun(reading.value)))
    if reading.kind == "fanqie":
        return spelled(reading.value[0], reading.value[1])
    return ()


@dataclass(frozen=True, eq=False)
class Gloss:
    """A headword of the 儀禮音義 and its note, where they stand."""

    headword: str
    note: str
    rite: str | None
    document: Document
    #: The note's stream and, for each character of the note, its position in the file.
    stream_index: int
    #: Position in the file of the note's first character and of the headword's.
    start: int
    headword_start: int

    @cached_property
    def folded(self) -> tuple[str, ...]:
        """The headword's characters, each folded (script and variants) as matching folds them."""
        return tuple(key(ch) for ch in self.headword)

    @cached_property
    def sounds(self) -> tuple[Sound, ...]:
        return parse_note(self.note)

    @cached_property
    def main(self) -> Sound | None:
        """The note's reading: the first one (陸德明's own, or the one he reports, as 劉昌宗's)."""
        return self.sounds[0] if self.sounds else None

    @cached_property
    def main_text(self) -> str:
        """The reading as printed, with the 反切 that spells a 直音's character (``依注音墮許恚反``)."""
        if self.main is None:
            return ""
        end = self.main.start + len(self.main.text)
        following = self.sounds[1] if len(self.sounds) > 1 else None
        if (
            self.main.kind == "zhiyin"
            and following is not None
            and following.kind == "fanqie"
            and following.start == end
            and not following.who
            and not following.alternative
        ):
            end += len(following.text)
        return self.note[self.main.start : end]

    @cached_property
    def target(self) -> int | None:
        """The index of the headword character the reading is for (None if it cannot be told)."""
        return glossed(self.headword, self.sounds)

    @cached_property
    def positions(self) -> tuple[str, ...]:
        """The 音韻地位 of the main reading (a 直音 narrowed to the glossed character's readings)."""
        return reading_positions(
            self.main, self.headword[self.target] if self.target is not None else None
        )

    @cached_property
    def excepted(self) -> tuple[str, ...]:
        """The phrases the note says its reading does not hold in (:data:`EXCEPT`): 決拾 of
        弓矢拾's 其劫反 ``除決拾以外皆同``, 相見 of 壻見's ``注下除相見皆同``."""
        return tuple(m.group("phrase") for m in EXCEPT.finditer(self.note))

    @property
    def others(self) -> tuple[Sound, ...]:
        """The second readings and others' readings after the main one."""
        return tuple(s for s in self.sounds[1:] if s.who or s.alternative)


def reading_positions(sound: Sound | None, char: str | None) -> tuple[str, ...]:
    """The 音韻地位 a reading gives, narrowed to the character's own 廣韻 readings where they meet."""
    if sound is None:
        return ()
    found = positions_of(sound)
    if char is not None:
        own = {g.position for g in guangyun(char)}
        if own & set(found):
            return tuple(p for p in found if p in own)
    return found


def glossed(headword: str, sounds: Sequence[Sound]) -> int | None:
    """Which character of ``headword`` the note's readings are for.

    A headword of one character (or one repeated, 膴膴) is that character, unless no reading
    of the note comes near any of its own (弓 蒲比反, a slip of the text). Otherwise, in turn:
    the one character that has the reading's very 音韻地位 in the 廣韻; the one whose modern
    readings (pypinyin's) hold what the reading gives in Mandarin (齊衰 音咨: 齊 zī; 臂臑
    乃報反: 臑 nào); the one the 廣韻 does not have (the 音義 glosses rare characters: 肵俎
    音祈); the one that comes nearest (:func:`_score`). Else it cannot be told (None). In a
    headword with a character the edition cannot encode (``&KR1377;人``), only the first test.
    """
    chars = [i for i, ch in enumerate(headword) if fold_char(ch)]
    if len({key(headword[i]) for i in chars}) <= 1:
        if chars and not _unrelated(headword[chars[0]], sounds):
            return chars[0]
        return None
    readable = [s for s in sounds[:3] if positions_of(s)]
    if not readable:
        return None
    best: dict[int, int] = {}
    for sound in readable:
        wanted = [_parts(p) for p in positions_of(sound)]
        for i in chars:
            score = max(
                (_score(w, _parts(g.position)) for w in wanted for g in guangyun(headword[i])),
                default=0,
            )
            best[i] = max(best.get(i, 0), score)
    exact = [i for i, score in best.items() if score == 4]
    if len(exact) == 1:
        return exact[0]
    if ENTITY.search(headword):
        return None  # a character the edition cannot encode (&KR1377;人, 閽人): likely the one read
    spoken = {r for s in readable for p in positions_of(s) for r in mandarin.readings(p)}
    modern = [i for i in chars if spoken & set(mandarin.modern(headword[i]))]
    if len(modern) == 1:
        return modern[0]
    unknown = [i for i in chars if not guangyun(headword[i])]
    if len(unknown) == 1:
        return unknown[0]
    top = max(best.values(), default=0)
    leaders = [i for i, score in best.items() if score == top]
    return leaders[0] if top and len(leaders) == 1 else None


def key(char: str) -> str:
    """A character as matching the 音義's headwords with an entry's compares it: its standard
    traditional form (乗 → 乘, 郷 → 鄉), never simplified (幹, 乾 and 干 stay apart)."""
    from glossary.normalize import VARIANTS

    seen = {char}
    while (standard := VARIANTS.get(char, char)) not in seen:
        seen.add(standard)
        char = standard
    return char


def _unrelated(char: str, sounds: Sequence[Sound]) -> bool:
    """Whether no reading of the note comes near any 廣韻 reading of ``char`` (which has some),
    and none says it reads another word (依注音墮: 綏 read as 墮)."""
    own = [_parts(g.position) for g in guangyun(char)]
    readable = [s for s in sounds[:3] if positions_of(s)]
    if not own or not readable or any(s.per_notes for s in sounds):
        return False
    return all(_score(_parts(p), o) == 0 for s in readable for p in positions_of(s) for o in own)


def _score(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """How near two readings are: the same 音韻地位 4; initial, rhyme and tone 3; rhyme and tone,
    or initial and rhyme, or initial, tone and 攝 2; the initial, or 攝 and tone, or both
    checked 1; else 0."""
    if a == b:
        return 4
    母a, 韻a, 聲a, 攝a = a[:4]
    母b, 韻b, 聲b, 攝b = b[:4]
    if (母a, 韻a, 聲a) == (母b, 韻b, 聲b):
        return 3
    if (韻a, 聲a) == (韻b, 聲b) or (母a, 韻a) == (母b, 韻b) or (母a, 聲a, 攝a) == (母b, 聲b, 攝b):
        return 2
    if 母a == 母b or (攝a, 聲a) == (攝b, 聲b) or 聲a == 聲b == "入":
        return 1
    return 0


@cache
def _parts(描述: str) -> tuple[str, ...]:
    p = mandarin.position(描述)
    return (p.母, p.韻, p.聲, p.攝, p.呼 or "", p.等, p.類 or "")


def parse_yinyi(document: Document) -> list[Gloss]:
    """The headwords and notes of a book of readings, in order, from the first rite's heading on.

    A headword is the main text between one note and the next (it may run over a line end);
    the front matter before the first rite is left out.
    """
    main = next((s for s in document.streams if s.layer == document.text_info.main_layer), None)
    if main is None or not document.rites:
        return []
    begin = document.rites[0][0]
    text_positions = list(main.offsets)
    notes = sorted(
        (
            (s.offsets[0], s.offsets[len(s.offsets) - 1], i)
            for i, s in enumerate(document.streams)
            if s.layer == "commentary" and s.text
        ),
    )
    glosses = []
    previous_end = begin
    for start, end, index in notes:
        if start < begin:
            previous_end = max(previous_end, end)
            continue
        lo = bisect_left(text_positions, previous_end)
        hi = bisect_left(text_positions, start)
        headword = main.text[lo:hi]
        if headword:
            glosses.append(
                Gloss(
                    headword,
                    document.streams[index].text,
                    document.rite_at(start),
                    document,
                    index,
                    start,
                    text_positions[lo],
                )
            )
        previous_end = end
    return glosses
