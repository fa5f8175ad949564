"""How the headwords were read: the 廣韻 (tshet-uinh) and 經典釋文's 儀禮音義.

**廣韻.** tshet-uinh's data (``資料.query字頭``) gives every reading of a character with its
反切 and 音韻地位. An entry chooses one per headword character in ``guangyun`` (the 反切,
or ``null`` where no 廣韻 reading is the ritual one); the check refuses a 反切 that is not
among the character's readings.

**經典釋文.** The 儀禮音義 (卷十, in the corpus as the text whose manifest entry has
``readings:``) is a run of headwords, each followed by a note: its reading, as a 反切
(``都回反``), a 直音 (``音對``) or ``如字``, often with another's reading after it (``劉音鼻``:
劉昌宗's; ``又…``, ``一音…``: 陸德明's own second reading), then glosses and remarks
(``下同``, ``注同``). :func:`parse_yinyi` reads the headwords and notes of the corpus text
(its reader already knows each passage's rite from its heading), :func:`parse_note` the
readings in a note, and :func:`glossed` which character of a headword the reading is for
(the one whose 廣韻 readings the 反切 or 直音 gives).

An entry's character is then read as the 儀禮音義 reads it in the entry's rites: a note on
the whole headword first, else a note on that character in any headword (the first in the
rite, where 陸德明 glosses a word and says 下同 for the rest). Every reading shown is found
again in the corpus through the index, at its place, so its locus is a verified one.

**The check** (:func:`reading_problems`): an error for a ``guangyun`` list of the wrong
length or a 反切 that is not the character's; a warning where the entry's pinyin is not
what the chosen 廣韻 reading or the 儀禮音義's reading regularly gives in Mandarin
(:mod:`glossary.enrich.mandarin`), unless the entry says why in ``reading_note``.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import product

from glossary.corpus import Corpus, Document
from glossary.corpus.model import Locus
from glossary.enrich import mandarin
from glossary.enrich.pinyin import split_reading
from glossary.model import CharReading, Entry, GuangyunReading, ShiwenReading
from glossary.normalize import fold_char, normalize
from glossary.problems import ERROR, WARNING, Problem
from glossary.vocab import vocabulary

# -- 廣韻 ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Guangyun:
    """One 廣韻 reading of a character: its 反切 (None for a 小韻 without one) and 音韻地位."""

    char: str
    fanqie: str | None
    position: str
    meaning: str

    @property
    def name(self) -> str:
        """How an entry names it in ``guangyun``: the 反切, else the 音韻地位."""
        return self.fanqie or self.position


@lru_cache(maxsize=None)
def guangyun(char: str) -> tuple[Guangyun, ...]:
    """The 廣韻 readings of a character: its own, else those of its traditional standard form
    (𤣥 → 玄, 乗 → 乘, 遥 → 遙, 戸 → 戶).

    Another form is looked up only when the character itself has none: a simplified form can
    be a character of its own in the 廣韻 (干 is not 幹).
    """
    from tshet_uinh import 資料

    found = 資料.query字頭(char)
    if found:
        return tuple(Guangyun(char, r.反切, r.音韻地位.描述, r.釋義) for r in found)
    for form in _forms(char)[1:]:
        if found := 資料.query字頭(form):
            return tuple(Guangyun(form, r.反切, r.音韻地位.描述, r.釋義) for r in found)
    return ()


def _forms(char: str) -> tuple[str, ...]:
    """The character, then its traditional forms (OpenCC's, and Taiwan's: 衆 → 眾), then those of
    its folded form (𤣥 → 玄, 𦵏 → 葬)."""
    folded = fold_char(char) or char
    forms = (char, *(_opencc(name).convert(c) for c in (char, folded) for name in ("s2t", "s2tw")))
    return tuple(dict.fromkeys(form for form in forms if len(form) == 1))


@lru_cache(maxsize=None)
def _opencc(config: str):
    import opencc

    return opencc.OpenCC(config)


def positions_of(reading: Sound) -> tuple[str, ...]:
    """The 音韻地位 (描述) a 反切 or 直音 of the 儀禮音義 gives (none for 如字)."""
    if reading.kind == "zhiyin":
        return tuple(dict.fromkeys(g.position for g in guangyun(reading.value)))
    if reading.kind == "fanqie":
        return _cut(reading.value[0], reading.value[1])
    return ()


@lru_cache(maxsize=None)
def _cut(upper: str, lower: str) -> tuple[str, ...]:
    """Every 音韻地位 the 反切 ``upper lower`` spells (any reading of either character), by tshet-uinh.

    A 反切 spells with characters in their usual reading: of a character with several, only
    those that give its first modern reading are taken (角 in 戸角反 is 古岳, jué/jiǎo, not 盧谷,
    the lù of 角里). Where tshet-uinh finds none (a 反切 across rhymes it keeps apart, 毗志反
    for 脂韻 比), the upper character's initial with the lower's rhyme, division and tone, unchecked
    (an initial of 端透定泥 before a rhyme of the second or third division is read as 知徹澄孃:
    陸德明 still spells 舌上 words with 舌頭 上字, 丁丈反 for 長).
    """
    from tshet_uinh import 執行反切, 音韻地位

    found: dict[str, None] = {}
    for pairs in (list(product(_usual(upper), _usual(lower))), list(product(guangyun(upper), guangyun(lower)))):
        for a, b in pairs:
            try:
                results = 執行反切(音韻地位.from描述(a.position), 音韻地位.from描述(b.position))
            except (ValueError, RuntimeError, KeyError):
                continue
            for result in results:
                found.setdefault(result.描述, None)
        if found:
            return tuple(found)
    for a, b in product(_usual(upper), _usual(lower)):
        up, low = mandarin.position(a.position), mandarin.position(b.position)
        母 = up.母
        if 母 in "端透定泥" and low.等 in "二三":
            母 = "知徹澄孃"["端透定泥".index(母)]  # 類隔: 舌頭 上字 for a 舌上 word (丁丈反 for 長)
        呼 = "" if 母 in "幫滂並明" else (low.呼 or "")
        found.setdefault(f"{母}{呼}{low.等}{low.類 or ''}{low.韻}{low.聲}", None)
    return tuple(found)


def _usual(char: str) -> tuple[Guangyun, ...]:
    """A character's 廣韻 readings that give its first modern (pypinyin) reading, else all."""
    readings = guangyun(char)
    modern = mandarin.modern(_forms(char)[-1]) or mandarin.modern(char)
    usual = tuple(g for g in readings if modern and mandarin.fits(modern[0], g.position))
    return usual or readings


# -- the 儀禮音義 ------------------------------------------------------------------------------

#: Who else a note cites for a reading (as printed → as shown); 陸德明's own are None.
AUTHORITIES = {"劉昌宗": "劉昌宗", "劉": "劉昌宗", "范散騎": "范散騎", "范": "范散騎", "徐": "徐邈",
               "字林": "字林", "舊": "舊音", "沈": "沈重", "禮記": "禮記音義"}
_WHO = "|".join(sorted(map(re.escape, AUTHORITIES), key=len, reverse=True))
_HAN = r"[^\W\d_a-zA-Z]"
#: One reading, with whose it is and whether it is a second reading: 反切, 直音 or 如字.
READING = re.compile(
    rf"(?P<who>{_WHO})?(?P<alt>又|一|或)?(?P<per_notes>依注)?"
    rf"(?:音(?P<cut2>{_HAN}{_HAN})反|(?P<cut>{_HAN}{_HAN})反|(?P<plain>音?如字)|音(?!同)(?P<same>{_HAN}))"
)


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


def parse_note(note: str) -> tuple[Sound, ...]:
    """The readings of a note of the 儀禮音義, in order.

    A reading is taken at the note's start, right after another reading (``依注音墮許恚反``:
    墮, read 許恚反), or anywhere when it names its authority or says it is a second one
    (``劉音鼻``, ``又音域``, ``一音避``); elsewhere two characters before 反 are words, not a 反切
    (``迎精而反``, in a gloss of 鄭玄's).
    """
    sounds: list[Sound] = []
    pos = 0
    free = False  # inside words that are not readings
    while pos < len(note):
        match = READING.match(note, pos)
        if match and (not free or match.group("who") or match.group("alt") or match.group("same") and not sounds):
            if match.group("plain"):
                kind, value = "ruzi", ""
            elif match.group("same"):
                kind, value = "zhiyin", match.group("same")
            else:
                kind, value = "fanqie", match.group("cut") or match.group("cut2")
            who = match.group("who")
            sounds.append(Sound(kind, value, match.group(), match.start(), AUTHORITIES[who] if who else None,
                                bool(match.group("alt")), bool(match.group("per_notes"))))
            pos = match.end()
            free = False
            continue
        free = True
        pos += 1
    return tuple(sounds)


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
        if (self.main.kind == "zhiyin" and following is not None and following.kind == "fanqie"
                and following.start == end and not following.who and not following.alternative):
            end += len(following.text)
        return self.note[self.main.start:end]

    @cached_property
    def target(self) -> int | None:
        """The index of the headword character the reading is for (None if it cannot be told)."""
        return glossed(self.headword, self.sounds)

    @cached_property
    def positions(self) -> tuple[str, ...]:
        """The 音韻地位 of the main reading (a 直音 narrowed to the glossed character's readings)."""
        return reading_positions(self.main, self.headword[self.target] if self.target is not None else None)

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
    音祈); the one that comes nearest (:func:`_score`). Else it cannot be told (None).
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
            score = max((_score(w, _parts(g.position)) for w in wanted for g in guangyun(headword[i])), default=0)
            best[i] = max(best.get(i, 0), score)
    exact = [i for i, score in best.items() if score == 4]
    if len(exact) == 1:
        return exact[0]
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


@lru_cache(maxsize=None)
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
        ((s.offsets[0], s.offsets[len(s.offsets) - 1], i) for i, s in enumerate(document.streams)
         if s.layer == "commentary" and s.text),
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
            glosses.append(Gloss(headword, document.streams[index].text, document.rite_at(start), document,
                                 index, start, text_positions[lo]))
        previous_end = end
    return glosses


# -- an entry's readings ---------------------------------------------------------------------


def headword_chars(entry: Entry) -> str:
    """The headword as the sources write it: the traditional form, else the term."""
    if entry.traditional and len(entry.traditional) == len(entry.term):
        return entry.traditional
    return entry.term


@dataclass(frozen=True, eq=False)
class Yinyi:
    """The 儀禮音義 of a corpus, parsed, with the rites of its glosses resolved."""

    glosses: tuple[Gloss, ...]

    @classmethod
    def of(cls, corpus: Corpus) -> "Yinyi":
        found: list[Gloss] = []
        for document in corpus.documents:
            if document.text_info.readings:
                found.extend(parse_yinyi(document))
        return cls(tuple(found))

    @cached_property
    def order(self) -> list[str]:
        """The rites' ids in the order the book takes them."""
        return list(self.by_rite)

    @cached_property
    def by_rite(self) -> dict[str, list[Gloss]]:
        """Rite id → its glosses that have a reading, in order."""
        vocab = vocabulary()
        rites = {name: vocab.rite(name) for name in {g.rite for g in self.glosses if g.rite}}
        grouped: dict[str, list[Gloss]] = {}
        for gloss in self.glosses:
            rite = rites.get(gloss.rite) if gloss.rite else None
            if rite is not None and gloss.main is not None:
                grouped.setdefault(rite.id, []).append(gloss)
        return grouped

    def _holding(self, rite: str) -> dict[str, list[Gloss]]:
        """Character (folded) → the glosses of a rite whose headword holds it, in order."""
        table = self._tables.get(rite)
        if table is None:
            table = self._tables[rite] = {}
            for gloss in self.by_rite.get(rite, ()):
                for ch in dict.fromkeys(gloss.folded):
                    table.setdefault(ch, []).append(gloss)
        return table

    @cached_property
    def _tables(self) -> dict[str, dict[str, list[Gloss]]]:
        return {}

    def glosses_of(self, entry: Entry, char: str) -> tuple[list[Gloss], list[Gloss]]:
        """The glosses that read ``char`` (folded) where the entry's readings are looked for: those
        of its rites (in the order it lists them), and those of the rites before them whose note
        says that later chapters read so too (堂深 申鴆反 …後放此, in 士冠禮)."""
        ids = [rite.id for rite in entry.rites]
        own = [g for rite in ids for g in self._holding(rite).get(char, ()) if g.target is not None
               and g.folded[g.target] == char]
        last = max((self.order.index(r) for r in ids if r in self.order), default=-1)
        earlier = [g for rite in self.order[:last] if rite not in ids for g in self._holding(rite).get(char, ())
                   if LATER_CHAPTERS.search(g.note) and g.target is not None and g.folded[g.target] == char]
        return own, earlier

    def for_char(self, entry: Entry, i: int) -> Gloss | None:
        """The gloss that reads the entry's ``i``-th headword character.

        Where the entry names the 音義's headword (``yinyi``), the first gloss of its rites on
        that headword that reads this character; ``null`` there, none. Otherwise, first in the
        entry's rites, then in the earlier rites whose note says later chapters read so too: a
        note on the whole headword (挼祭; 堂深 of 士冠禮); on a headword that holds it; on a
        part of it (兩楹 of 兩楹間); and, for a headword of one character, on that character in
        any headword (二敦 音對 reads the vessel 敦). A character of a longer headword is not
        read from a note on another word: 中掩 (丁仲反, "hit") is not the 中 of 中庭, nor 明齊's
        齊 that of 齊衰 (an entry names such a note with ``yinyi`` when it is the same word
        cut apart: 不綏 of 不綏祭).
        """
        word = tuple(key(ch) for ch in headword_chars(entry))
        own, earlier = self.glosses_of(entry, word[i])
        if entry.yinyi is not None:
            named = entry.yinyi[i] if i < len(entry.yinyi) else None
            if named is None:
                return None
            wanted = tuple(key(ch) for ch in named)
            return next((g for g in own + earlier if g.folded == wanted), None)

        def whole(g: Gloss) -> bool:
            return g.folded == word and g.target == i

        def holding(g: Gloss) -> bool:
            at = _find(g.folded, word)
            return at is not None and g.target == at + i

        def part(g: Gloss) -> bool:
            at = _find(word, g.folded)
            return len(g.folded) > 1 and at is not None and at + g.target == i  # type: ignore[operator]

        def alone(g: Gloss) -> bool:
            return len(word) == 1 and g.folded[g.target] == word[0]  # type: ignore[index]

        for pool, tests in ((own, (whole, holding, part, alone)), (earlier, (whole,))):
            for test in tests:
                found = next((g for g in pool if test(g)), None)
                if found is not None:
                    return found
        return None


#: A note that says its reading holds in the chapters after it too: 後放此, 後同, 後皆同, 後乗矢皆同.
LATER_CHAPTERS = re.compile(r"後[^同反音]{0,6}同|後[^反音]{0,6}放此|後[^反音]{0,6}倣此")


def _find(items: tuple[str, ...], part: tuple[str, ...]) -> int | None:
    """Where the list ``part`` first stands in ``items``."""
    for at in range(len(items) - len(part) + 1):
        if items[at : at + len(part)] == part:
            return at
    return None


def reading_locus(index, gloss: Gloss) -> Locus | None:
    """The verified locus of a gloss's reading: found again through the corpus index, at its place."""
    if gloss.main is None:
        return None
    stream = gloss.document.streams[gloss.stream_index]
    start = stream.offsets[gloss.main.start]
    for hit in index.find(normalize(gloss.main_text)):
        locus = index.locus(hit)
        if locus.file == gloss.document.path and locus.start == start:
            return locus
    return None


def entry_readings(entry: Entry, yinyi: Yinyi, index,
                   glosses: Sequence[Gloss | None] | None = None) -> tuple[CharReading, ...]:
    """One reading per headword character: its pinyin, the chosen 廣韻 reading, the 儀禮音義's
    (``glosses``: the notes found for each character, if already looked for)."""
    chars = headword_chars(entry)
    syllables = split_reading(entry.pinyin)
    chosen = list(entry.guangyun) if entry.guangyun is not None else []
    result = []
    for i, char in enumerate(chars):
        pinyin = syllables[i] if i < len(syllables) and len(syllables) == len(chars) else ""
        fanqie = chosen[i] if i < len(chosen) and len(chosen) == len(chars) else None
        reading = next((g for g in guangyun(char) if g.name == fanqie), None) if fanqie else None
        shiwen = None
        if glosses is not None:
            gloss = glosses[i]
        else:
            gloss = yinyi.for_char(entry, i) if fold_char(char) else None
        if gloss is not None and (locus := reading_locus(index, gloss)) is not None:
            shiwen = ShiwenReading(
                text=gloss.main_text, locus=locus, headword=gloss.headword,
                who=gloss.main.who if gloss.main else None,
                others=tuple((s.text, s.who) for s in gloss.others),
                positions=gloss.positions, source=gloss.document.text_info.readings or "",
                sounds_like=gloss.main.value if gloss.main and gloss.main.kind == "zhiyin" else "",
            )
        result.append(CharReading(char, pinyin, GuangyunReading(reading.fanqie, reading.position) if reading else None,
                                  shiwen))
    return tuple(result)


def all_readings(entries: Iterable[Entry], corpus: Corpus, index) -> tuple[Yinyi, dict[str, tuple[CharReading, ...]]]:
    """The corpus' 儀禮音義 and every entry's readings (entry id → one per headword character)."""
    yinyi = Yinyi.of(corpus)
    entries = list(entries)
    found = {entry.id: [yinyi.for_char(entry, i) if fold_char(ch) else None
                        for i, ch in enumerate(headword_chars(entry))] for entry in entries}
    index.prefetch({normalize(g.main_text) for glosses in found.values() for g in glosses if g is not None})
    return yinyi, {entry.id: entry_readings(entry, yinyi, index, found[entry.id]) for entry in entries}


def propose(chars: str, pinyin: str) -> tuple[list[str | None], list[str]]:
    """The 廣韻 reading to choose for each character, from the one that fits its syllable, and what
    a person must decide (several fit, or none: ``null`` is proposed)."""
    chosen: list[str | None] = []
    notes: list[str] = []
    for char, syllable in zip(chars, split_reading(pinyin)):
        readings = guangyun(char)
        fitting = [g for g in readings if mandarin.fits(syllable, g.position)]
        if len(fitting) == 1:
            chosen.append(fitting[0].name)
            continue
        chosen.append(None)
        listed = "; ".join(f"{g.name} {g.position} {'/'.join(mandarin.readings(g.position)[:4])} {g.meaning[:16]}"
                           for g in readings) or "no 廣韻 reading"
        notes.append(f"{char} {syllable}: {'several fit' if fitting else 'none fits'}: {listed}")
    return chosen, notes


# -- the check -------------------------------------------------------------------------------


def guangyun_problems(file: str, entry: Entry) -> list[Problem]:
    """Errors: a ``guangyun`` list whose length is not the headword's, a 反切 not the character's."""
    if entry.guangyun is None:
        return []
    chars = headword_chars(entry)
    line = entry.line_of("guangyun")
    path = f"{entry.id}.guangyun"
    if len(entry.guangyun) != len(chars):
        return [Problem(file, line, path, ERROR,
                        f"{len(entry.guangyun)} reading(s) for the {len(chars)} character(s) of {chars}: "
                        "give one per character (null where the 廣韻 has none that fits)")]
    problems = []
    for i, (char, name) in enumerate(zip(chars, entry.guangyun)):
        if name is None:
            continue
        readings = guangyun(char)
        if not any(g.name == name for g in readings):
            known = "; ".join(f"{g.name} ({g.position}: {'/'.join(mandarin.readings(g.position)[:3]) or '?'})"
                              for g in readings) or "none"
            problems.append(Problem(file, line, f"{path}[{i}]", ERROR,
                                    f"{name} is not a 廣韻 reading of {char} in tshet-uinh's data; its readings: {known}"))
    return problems


def yinyi_problems(file: str, entry: Entry, yinyi: Yinyi) -> list[Problem]:
    """Errors: a ``yinyi`` list whose length is not the headword's, a headword with no note on the character."""
    if entry.yinyi is None:
        return []
    chars = headword_chars(entry)
    line = entry.line_of("yinyi")
    path = f"{entry.id}.yinyi"
    if len(entry.yinyi) != len(chars):
        return [Problem(file, line, path, ERROR,
                        f"{len(entry.yinyi)} headword(s) for the {len(chars)} character(s) of {chars}: "
                        "give one per character (null where no note reads it)")]
    rites = "、".join(rite.simplified for rite in entry.rites)
    return [
        Problem(file, line, f"{path}[{i}]", ERROR,
                f"no note of the 儀禮音義 on the headword {named} reads {chars[i]} in {rites}")
        for i, named in enumerate(entry.yinyi)
        if named is not None and yinyi.for_char(entry, i) is None
    ]


def classical_problems(file: str, entry: Entry, readings: Sequence[CharReading]) -> list[Problem]:
    """Warnings where the entry's pinyin is not what its 廣韻 or 儀禮音義 reading regularly gives,
    unless the entry's ``reading_note`` names the character and so says why."""
    problems = []
    for i, reading in enumerate(readings):
        if not reading.pinyin or explained(entry, i):
            continue
        g = reading.guangyun
        if g is not None and not mandarin.fits(reading.pinyin, g.position):
            problems.append(Problem(
                file, entry.line_of("guangyun"), f"{entry.id}.guangyun[{i}]", WARNING,
                f"{reading.char} {reading.pinyin}: the 廣韻 reading chosen, {g.fanqie or g.position} ({g.position}), "
                f"gives {_gives([g.position])}: choose another, or null, or say why in reading_note"))
        s = reading.shiwen
        if s is not None and s.positions and not any(mandarin.fits(reading.pinyin, p) for p in s.positions):
            whose = f" ({s.who}'s reading, as 陸德明 reports it)" if s.who else ""
            problems.append(Problem(
                file, entry.line_of("pinyin"), f"{entry.id}.pinyin", WARNING,
                f"{reading.char} {reading.pinyin}: 經典釋文 reads {s.headword} {s.text}{whose} in "
                f"{s.locus.rite} [{s.locus.file}:{s.locus.line}], which gives {_gives(s.positions, s.sounds_like)}: "
                "follow it, or say why not in reading_note"))
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
        today = [r for r in mandarin.modern(sounds_like) if any(mandarin.fits(r, p) for p in positions)]
        if today:
            return f"{sounds_like} {'/'.join(today)}"
    found = list(dict.fromkeys(r for p in positions for r in mandarin.readings(p)))
    return "/".join(found[:6]) + ("/…" if len(found) > 6 else "") if found else "no Mandarin syllable"


def sourced(entry: Entry, readings: Sequence[CharReading], message: str) -> bool:
    """Whether pypinyin's warning on a reading (``reading fú of 楅 is not among pypinyin's …``)
    is answered by the classical sources: the 廣韻 reading chosen or the 經典釋文's gives it."""
    for i, (char, syllable) in enumerate(zip(entry.term, split_reading(entry.pinyin))):
        if f"reading {syllable} of {char} " in message and i < len(readings):
            return backed(readings[i])
    return False


def backed(reading: CharReading) -> bool:
    """Whether the classical sources give the entry's syllable itself: a 直音 of 經典釋文 whose
    character is read so today (音福: 福 fú), or a 廣韻 or 釋文 reading that regularly gives it
    with its tone (深 式禁切: shèn). The 入聲 of a voiceless initial gives no tone (哭 空谷切 could
    be kū or kǔ), so it backs no syllable by itself."""
    if not reading.pinyin:
        return False
    shiwen = reading.shiwen
    if shiwen is not None and shiwen.sounds_like and reading.pinyin in mandarin.modern(shiwen.sounds_like):
        return True
    positions = ([reading.guangyun.position] if reading.guangyun else []) + list(shiwen.positions if shiwen else ())
    return any(mandarin.fits(reading.pinyin, p) and mandarin.tone_known(p) for p in positions)
