"""The Mandarin readings a Middle Chinese (切韻/廣韻) reading regularly gives.

tshet-uinh describes a reading by its 音韻地位 (母, 呼, 等, 類, 韻, 聲) but derives no
Mandarin from it, so the comparison of an entry's pinyin with a 廣韻 or 經典釋文 reading is
made here, part by part, with the textbook correspondences:

- **tone** from 聲 and the initial's voicing (清濁): 平 of a voiceless initial → 1, of a voiced
  one → 2; 上 → 3, but 4 after a fully voiced (全濁) initial; 去 → 4; 入 → 2 after a fully
  voiced initial (or 4: 或, 獲, 鑊 huò), 4 after a sonorant (次濁), and any tone after a
  voiceless one (the 清入 split has no rule);
- **initial** from 母: fully voiced stops and affricates are aspirated in 平 and plain
  elsewhere (並 → p/b, 定 → t/d …); 幫滂並明 of the C type (輕脣) give f and w; 知莊章 give
  zh ch sh (莊 also z c s); 精 and 見 give z c s / g k h, or j q x before i and ü; 日 gives r
  (and er); 影云以疑 lose the initial (疑 sometimes n, 以 sometimes r);
- **final** from 韻, 呼 and 等, as sets: every final the rhyme regularly gives in Mandarin
  (寒 → an/uan, 陽 → iang/ang/uang, 職 (蒸入) → i/e/ü …).

A syllable is then the product of the three, spelt as pinyin (y/w, ü after j q x) and kept
only if pinyin has it. The sets are generous where Mandarin is irregular, so a mismatch is
worth a look: a wrong reading chosen, or a modern reading that is not the regular one.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache
from importlib import resources
from typing import NamedTuple

#: Tone of a syllable from its mark (5: none, the neutral tone).
_MARKS = {"\u0304": 1, "\u0301": 2, "\u030c": 3, "\u0300": 4}

#: Voicing (清濁) of the initials, as tshet-uinh names them (孃, 羣).
_FULLY_VOICED = set("並定澄從邪崇俟船常羣匣")
_SONORANT = set("明泥孃來日疑云以")

#: 母 → (initials in 平, initials elsewhere); "" is no initial.
_INITIALS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "幫": (("b",), ("b",)),
    "滂": (("p",), ("p",)),
    "並": (("p",), ("b",)),
    "明": (("m",), ("m",)),
    "端": (("d",), ("d",)),
    "透": (("t",), ("t",)),
    "定": (("t",), ("d",)),
    "泥": (("n",), ("n",)),
    "知": (("zh",), ("zh",)),
    "徹": (("ch",), ("ch",)),
    "澄": (("ch",), ("zh",)),
    "孃": (("n",), ("n",)),
    "精": (("z", "j"), ("z", "j")),
    "清": (("c", "q"), ("c", "q")),
    "從": (("c", "q"), ("z", "j")),
    "心": (("s", "x"), ("s", "x")),
    "邪": (("s", "x", "c", "q"), ("s", "x")),
    "莊": (("zh", "z"), ("zh", "z")),
    "初": (("ch", "c"), ("ch", "c")),
    "崇": (("ch", "sh", "c"), ("zh", "sh", "z")),
    "生": (("sh", "s"), ("sh", "s")),
    "俟": (("s", "sh"), ("s", "sh")),
    "章": (("zh",), ("zh",)),
    "昌": (("ch",), ("ch",)),
    "船": (("ch", "sh"), ("sh",)),
    "書": (("sh",), ("sh",)),
    "常": (("ch", "sh"), ("sh",)),
    "日": (("r", ""), ("r", "")),
    "見": (("g", "j"), ("g", "j")),
    "溪": (("k", "q"), ("k", "q")),
    "羣": (("k", "q"), ("g", "j")),
    "疑": (("", "n"), ("", "n")),
    "曉": (("h", "x"), ("h", "x")),
    "匣": (("h", "x", ""), ("h", "x", "")),
    "影": (("",), ("",)),
    "云": (("",), ("",)),
    "以": (("", "r"), ("", "r")),
    "來": (("l",), ("l",)),
}
#: 輕脣 (幫滂並明 of the C type, 非敷奉微): f, and w for 明 (which also keeps m: 夢, 目, 謀).
_LABIODENTAL = {"幫": ("f", "b"), "滂": ("f", "p"), "並": ("f", "b", "p"), "明": ("", "m")}

# Finals by rhyme (tshet-uinh names a rhyme by its 平聲: 東 stands for 東董送屋), for the
# open (開), closed (合) and neutral (None: labial initials and rhymes with no 呼) syllables;
# "*" is used when the rhyme gives the same finals whatever its 呼.
_Finals = dict[str | None, tuple[str, ...]]
_LEVEL: dict[str, _Finals] = {
    "東": {"*": ("ong", "iong", "eng")},
    "冬": {"*": ("ong",)},
    "鍾": {"*": ("ong", "iong", "eng")},
    "江": {"*": ("ang", "iang", "uang")},
    "支": {"開": ("i", "ei", "er"), "合": ("ui", "ei", "i"), None: ("i", "ei")},
    "脂": {"開": ("i", "ei", "er"), "合": ("ui", "ei", "i"), None: ("i", "ei")},
    "之": {"*": ("i", "er")},
    "微": {"開": ("i",), "合": ("ui", "ei"), None: ("ei", "i")},
    "魚": {"*": ("u", "ü", "uo")},
    "虞": {"*": ("u", "ü")},
    "模": {"*": ("u", "o")},
    "齊": {"開": ("i",), "合": ("ui", "ie"), None: ("i",)},
    "祭": {"開": ("i",), "合": ("ui",), None: ("i",)},
    "泰": {"開": ("ai",), "合": ("ui", "uai", "ei"), None: ("ei", "ai")},
    "佳": {"開": ("ai", "ia", "ie", "a"), "合": ("ua", "uai"), None: ("ai", "a")},
    "皆": {"開": ("ai", "ie"), "合": ("uai",), None: ("ai",)},
    "夬": {"開": ("ai",), "合": ("uai", "ua"), None: ("ai",)},
    "灰": {"*": ("ui", "ei")},
    "咍": {"*": ("ai", "ei")},
    "廢": {"開": ("i",), "合": ("ei", "ui"), None: ("ei",)},
    "真": {"開": ("in", "en"), "合": ("un", "ün"), None: ("in",)},
    "臻": {"*": ("en", "in")},
    "文": {"*": ("un", "ün", "en")},
    "殷": {"*": ("in",)},
    "元": {"開": ("ian",), "合": ("üan", "uan", "an"), None: ("an",)},
    "魂": {"*": ("un", "en")},
    "痕": {"*": ("en",)},
    "寒": {"開": ("an",), "合": ("uan", "an"), None: ("an",)},
    "刪": {"開": ("an", "ian"), "合": ("uan",), None: ("an",)},
    "山": {"開": ("an", "ian"), "合": ("uan",), None: ("an",)},
    "仙": {"開": ("ian", "an"), "合": ("üan", "uan", "ian"), None: ("ian",)},
    "先": {"開": ("ian",), "合": ("üan", "ian"), None: ("ian",)},
    "蕭": {"*": ("iao",)},
    "宵": {"*": ("iao", "ao")},
    "肴": {"*": ("ao", "iao")},
    "豪": {"*": ("ao",)},
    "歌": {"開": ("e", "o", "uo", "a", "ie"), "合": ("uo", "o", "e", "üe", "ie"), None: ("o",)},
    "麻": {"開": ("a", "ia", "e", "ie"), "合": ("ua",), None: ("a",)},
    "陽": {"開": ("iang", "ang", "uang"), "合": ("uang",), None: ("ang",)},
    "唐": {"開": ("ang",), "合": ("uang",), None: ("ang",)},
    "庚": {"開": ("eng", "ing", "ang"), "合": ("ong", "eng", "iong", "ing"), None: ("eng", "ing")},
    "耕": {"開": ("eng", "ing"), "合": ("ong", "eng"), None: ("eng",)},
    "清": {"開": ("ing", "eng"), "合": ("iong", "ing"), None: ("ing",)},
    "青": {"開": ("ing",), "合": ("iong", "ing"), None: ("ing",)},
    "蒸": {"*": ("ing", "eng")},
    "登": {"開": ("eng",), "合": ("ong",), None: ("eng",)},
    "尤": {"*": ("iu", "ou", "u")},
    "侯": {"*": ("ou", "u")},
    "幽": {"*": ("iu", "iao")},  # u: labials only
    "侵": {"*": ("in", "en")},
    "覃": {"*": ("an",)},
    "談": {"*": ("an",)},
    "鹽": {"*": ("ian", "an")},
    "添": {"*": ("ian",)},
    "咸": {"*": ("an", "ian")},
    "銜": {"*": ("an", "ian")},
    "嚴": {"*": ("ian",)},
    "凡": {"*": ("an",)},
}
#: The checked (入聲) syllables of the rhymes that have them.
_CHECKED: dict[str, _Finals] = {
    "東": {"*": ("u", "ü", "ou", "iu")},
    "冬": {"*": ("u", "uo", "o")},
    "鍾": {"*": ("u", "ü")},
    "江": {"*": ("uo", "o", "üe", "iao", "e", "ao")},
    "真": {"開": ("i", "e"), "合": ("ü", "u"), None: ("i",)},
    "臻": {"*": ("i", "e")},
    "文": {"*": ("u", "ü", "o")},
    "殷": {"*": ("i",)},
    "元": {"開": ("ie",), "合": ("üe",), None: ("a",)},
    "魂": {"*": ("u", "o", "e")},
    "痕": {"*": ("e",)},
    "寒": {"開": ("a", "e"), "合": ("uo", "o"), None: ("o", "uo")},
    "刪": {"*": ("a", "ia", "ua")},
    "山": {"*": ("a", "ia", "ua")},
    "仙": {"開": ("ie", "e"), "合": ("üe", "uo", "ie"), None: ("ie",)},
    "先": {"開": ("ie",), "合": ("üe", "ie"), None: ("ie",)},
    "陽": {"*": ("üe", "uo", "iao", "ao", "u", "e")},
    "唐": {"*": ("uo", "o", "e", "ao")},
    "庚": {"開": ("o", "e", "ai", "i"), "合": ("uo",), None: ("o", "ai")},
    "耕": {"*": ("ai", "e", "o", "uo", "ua")},
    "清": {"*": ("i", "ü")},
    "青": {"*": ("i", "ü")},
    "蒸": {"*": ("i", "e", "ü", "u")},
    "登": {"*": ("e", "ei", "o", "uo", "ai")},
    "侵": {"*": ("i", "u", "e")},
    "覃": {"*": ("a", "e")},
    "談": {"*": ("a", "e")},
    "鹽": {"*": ("ie", "e")},
    "添": {"*": ("ie", "ia")},
    "咸": {"*": ("ia", "a")},
    "銜": {"*": ("ia", "a")},
    "嚴": {"*": ("ie",)},
    "凡": {"*": ("a",)},
}


#: Checked rhymes of high vowels (質術櫛迄職緝): i, but e after 莊組 (瑟, 色, 澀), u or ü only
#: when closed (術, 域) or, in 緝, after 日 (入).
_HIGH_CHECKED = set("真臻殷蒸侵")
_ZHUANG = set("莊初崇生俟")
_LABIAL = set("幫滂並明")


def _high_checked(地位: Position, finals: tuple[str, ...]) -> tuple[str, ...]:
    kept = []
    for final in finals:
        if final == "e" and 地位.母 not in _ZHUANG:
            continue
        if final in ("u", "ü") and 地位.呼 != "合" and not (地位.韻 == "侵" and 地位.母 == "日"):
            continue
        kept.append(final)
    return tuple(kept) or finals


def split_tone(syllable: str) -> tuple[str, int]:
    """``"jì"`` → ``("ji", 4)``; ``"lǚ"`` → ``("lü", 3)``; no mark is tone 5."""
    tone, base = 5, []
    for ch in unicodedata.normalize("NFD", syllable.strip().lower()):
        if ch in _MARKS:
            tone = _MARKS[ch]
        else:
            base.append(ch)
    return unicodedata.normalize("NFC", "".join(base)).replace("v", "ü"), tone


_ZERO = {
    "i": "yi",
    "in": "yin",
    "ing": "ying",
    "iu": "you",
    "u": "wu",
    "ui": "wei",
    "un": "wen",
    "ong": "weng",
}


def _spell(initial: str, final: str) -> str:
    """Initial and final as pinyin writes them (y/w without an initial, ü as u after j q x)."""
    if not initial:
        if final in _ZERO:
            return _ZERO[final]
        if final.startswith("ü"):
            return "yu" + final[1:]
        if final.startswith("i"):
            return "y" + final[1:]
        if final.startswith("u"):
            return "w" + final[1:]
        return final
    if initial in ("j", "q", "x"):
        # Only i and ü follow j q x (ü written u): a final of u or o cannot.
        return (
            initial + "u" + final[1:]
            if final.startswith("ü")
            else initial + final
            if final.startswith("i")
            else ""
        )
    return initial + final


@lru_cache(maxsize=1)
def _syllables() -> frozenset[str]:
    """Every toneless syllable pinyin has (from pypinyin's character table, as shipped data:
    ``glossary/data/pypinyin_readings.tsv``, so that no check imports pypinyin)."""
    from glossary.enrich.pinyin import valid_syllables

    # split_tone on all of them at once: one decomposition, the tone marks dropped, one composition.
    marked = ",".join(valid_syllables()).lower()
    plain = unicodedata.normalize("NFD", marked).translate(dict.fromkeys(map(ord, _MARKS)))
    return frozenset(unicodedata.normalize("NFC", plain).replace("v", "ü").split(","))


@cache
def modern(char: str) -> tuple[str, ...]:
    """pypinyin's readings of a character (all of them, tone-marked), from its own table (as
    shipped data: ``glossary.enrich.pinyin.pypinyin_readings``)."""
    from glossary.enrich.pinyin import pypinyin_readings

    return pypinyin_readings(char)


def tones(母: str, 聲: str) -> tuple[int, ...]:
    """The Mandarin tones a syllable of this initial and tone category regularly has."""
    if 聲 == "平":
        return (2,) if 母 in _FULLY_VOICED or 母 in _SONORANT else (1,)
    if 聲 == "上":
        return (4,) if 母 in _FULLY_VOICED else (3,)
    if 聲 == "去":
        return (4,)
    if 母 in _FULLY_VOICED:
        return (2, 4)
    if 母 in _SONORANT:
        return (4,)
    return (1, 2, 3, 4)


def tone_known(描述: str) -> bool:
    """Whether the 音韻地位 says which tone it gives (not so the 入聲 of a voiceless initial)."""
    地位 = _position(描述)
    return len(tones(地位.母, 地位.聲)) < 4


@cache
def syllables(描述: str) -> tuple[str, ...]:
    """The toneless pinyin syllables a 音韻地位 (given by its 描述, ``端合一灰平``) regularly gives."""
    地位 = _position(描述)
    level, other = _INITIALS[地位.母]
    initials = level if 地位.聲 == "平" else other
    if 地位.類 == "C" and 地位.母 in _LABIODENTAL:
        initials = _LABIODENTAL[地位.母]
    table = (_CHECKED if 地位.聲 == "入" else _LEVEL)[地位.韻]
    finals = table.get("*") or table.get(地位.呼) or table.get(None) or ()
    if 地位.呼 is None and "*" not in table:
        finals = tuple(dict.fromkeys(finals + table.get("開", ()) + table.get("合", ())))
    if 地位.聲 == "入" and 地位.韻 in _HIGH_CHECKED:
        finals = _high_checked(地位, finals)
    if 地位.聲 != "入" and 地位.韻 in ("尤", "侯") and 地位.母 not in _LABIAL:
        finals = tuple(f for f in finals if f != "u")  # 浮 fú, 母 mǔ, but 州 zhōu, 口 kǒu
    valid = _syllables()
    found = (_spell(i, f) for i in initials for f in finals)
    return tuple(dict.fromkeys(s for s in found if s in valid))


def readings(描述: str) -> tuple[str, ...]:
    """The tone-marked syllables a 音韻地位 regularly gives (``才計`` 從開四齊去 → ``jì``, ``zì`` …)."""
    地位 = _position(描述)
    return tuple(_mark(s, t) for s in syllables(描述) for t in tones(地位.母, 地位.聲))


def fits(syllable: str, 描述: str) -> bool:
    """Whether an entry's syllable is a regular Mandarin descendant of the 音韻地位."""
    base, tone = split_tone(syllable)
    地位 = _position(描述)
    return base in syllables(描述) and tone in tones(地位.母, 地位.聲)


def _mark(base: str, tone: int) -> str:
    """``("ji", 4)`` → ``"jì"``: the mark on a, o or e, else on the last vowel (iu → iù)."""
    if tone not in (1, 2, 3, 4):
        return base
    mark = {1: "\u0304", 2: "\u0301", 3: "\u030c", 4: "\u0300"}[tone]
    at = next((base.index(v) for v in "ae" if v in base), None)
    if at is None:
        at = base.index("o") if "ou" in base or ("o" in base and "io" not in base) else None
    if at is None:
        vowels = [i for i, ch in enumerate(base) if ch in "aeiouü"]
        at = vowels[-1] if vowels else None
    if at is None:
        return base
    return unicodedata.normalize("NFC", base[: at + 1] + mark + base[at + 1 :])


class Position(NamedTuple):
    """The parts of a 音韻地位 that the derivation reads."""

    母: str
    呼: str | None
    等: str
    類: str | None
    韻: str
    聲: str

    @property
    def 攝(self) -> str:
        return _rhyme_groups()[self.韻]


#: tshet-uinh's 廣韻 as shipped data (generated by ``scripts/gen_guangyun.py``); its line ``*``
#: holds tshet-uinh's rhyme → 攝 table (``音韻屬性常量.韻到攝``).
GUANGYUN_TABLE = "guangyun.tsv"


@lru_cache(maxsize=1)
def _rhyme_groups() -> dict[str, str]:
    """Rhyme → 攝 (``東`` → ``通``), from the line ``*`` of the 廣韻 table (read up to that line only)."""
    with (
        resources.files("glossary.data")
        .joinpath(GUANGYUN_TABLE)
        .open("r", encoding="utf-8") as table
    ):
        for line in table:
            if line.startswith("*\t"):
                return {pair[0]: pair[1] for pair in line[2:].split()}
            if not line.startswith("#"):
                break
    raise ValueError(
        f"glossary/data/{GUANGYUN_TABLE}: no line of rhymes; run scripts/gen_guangyun.py"
    )


_DESCRIPTION = re.compile(r"^(.)(開|合)?([一二三四])([ABC])?(.)([平上去入])$")


@cache
def _position(描述: str) -> Position:
    """The parts of a 描述 (``端合一灰平``), read as tshet-uinh writes it.

    The string is read here rather than by tshet-uinh, which also refuses combinations its
    tables do not allow: a 反切 of the 經典釋文 may spell one (毗志反, a 脂韻 word with a 之韻
    下字), and its initial, rhyme and tone still say how it is read.
    """
    match = _DESCRIPTION.match(描述)
    if match is None or match.group(1) not in _INITIALS or match.group(5) not in _LEVEL:
        raise ValueError(f"not a 音韻地位: {描述!r}")
    母, 呼, 等, 類, 韻, 聲 = match.groups()
    return Position(母, 呼, 等, 類, 韻, 聲)


def position(描述: str) -> Position:
    """The parts of a 描述 (``端合一灰平``); ValueError if it is none."""
    return _position(描述)
