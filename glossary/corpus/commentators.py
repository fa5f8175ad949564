"""Who says what in a commentary passage: the speakers of 禮經本義's notes.

A note names its speaker (``郝仲輿曰``, ``敖君善云``, ``鄭康成謂``, ``鄭康成注曰``, ``舊説``);
a note, or the part of one, that names none is the author's own (蔡德晉's, in 禮經本義).
A speaker introduced by 曰 speaks until the next speaker, the author's own 愚按 ("I remark")
or a gap of spaces after the end of a sentence (the editions set the author's own remarks apart that way; a gap inside a
sentence is a lost character, and the speaker goes on). One introduced inside another's
words by 云 or 謂, or the 舊説 quoted there, is a quotation: it runs to the end of its
sentence (the first 也), and then the speaker who quoted him speaks again; the 舊説's words end
sooner where the note goes on to quote a book (喪服小記曰, 禮器曰: ``BOOKS``).

A reference work (儀禮釋宮, 宮室考, 三禮圖集注) is its author's own text: everyone it names, by 曰
as much as by 云, is quoted, to the end of his sentence (the first 也), or to the end of the
paragraph (each new indent of the text; ``breaks``), or to the author's 又案 / 今案, whichever
comes first. Such a work may say whose notes it quotes as 注曰 and 疏曰 (the manifest's
``note_speakers``: 儀禮釋宮's 注 is 鄭玄's, its 疏 賈公彦's).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from glossary.normalize import normalize, normalize_with_map

#: The anonymous "old explanation": a speaker of its own, never the author.
OLD_EXPLANATION = "舊説"
#: A gap of spaces after one of these ends a sentence, and the speaker with it.
SENTENCE_ENDS = "也矣耳焉乎哉歟"
#: Over normalised text: "I remark" (愚按, 愚案, 愚謂): the author speaks again, inside another's note.
AUTHOR_RESUMES = re.compile("愚(?:按|案|谓)")
#: Over normalised text, in a reference work: the author's own remarks after a quotation
#: (又案, 今案, 謹案, and 然案 "yet, note …": 儀禮釋宮 7a answers 賈公彦 with 然案聘禮…).
AUTHOR_REMARKS = re.compile("(?:又|今|谨|然)(?:按|案)")


#: Books a note quotes by title (喪服小記曰, 檀弓云, 記曰, 詩云): the words of the 舊説 that a note
#: quotes stop where the note goes on to quote a book (KR1d0026 卷12 10b: 舊說以爲如冠狀廣一寸, then
#: 鄭玄's own 喪服小記曰…此用麻布爲之). Named men are not stopped so: 賈公彦 writes 經云 in his own
#: words.
BOOKS = (
    "喪服小記 喪大記 喪服四制 三年問 服問 問喪 間傳 奔喪 檀弓 曲禮 雜記 玉藻 郊特牲 禮器 內則 少儀 祭統 祭義 "
    "祭法 曾子問 文王世子 明堂位 月令 王制 大傳 昏義 冠義 鄉飲酒義 射義 燕義 聘義 禮記 周禮 春秋傳 爾雅 論語 "
    "孝經 詩 書 記 傳"
).split()


@lru_cache(maxsize=1)
def _book_quote() -> re.Pattern[str]:
    """Over normalised text: a book's title and the 曰 or 云 that opens its words."""
    titles = sorted({normalize(b) for b in BOOKS}, key=len, reverse=True)
    return re.compile(f"(?:{'|'.join(map(re.escape, titles))})(?:曰|云)")


def _rows() -> list[list[str]]:
    """The rows of the commentators' table: name, who, the name it stands for, other names."""
    text = resources.files("glossary.data").joinpath("commentators.tsv").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            rows.append((line.split("\t") + ["", "", ""])[:4])
    return rows


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    """Every printed form of a name (normalised) → the name it stands for, as printed."""
    return {normalize(name): same_as.strip() or name for name, _, same_as, _ in _rows()}


@lru_cache(maxsize=1)
def _every_name() -> dict[str, str]:
    """Every name of a commentator (normalised): the printed forms, his standard name (鄭玄,
    郝敬) and the other names of the table (Zheng Xuan) → the name it stands for, as printed."""
    names = dict(_table())
    for name, who, same_as, other in _rows():
        standard = re.sub(r"\s*\(.*?\)\s*$", "", who.split(",")[0]).strip()
        for alias in [standard, *other.split(",")]:
            if alias.strip():
                names.setdefault(normalize(alias.strip()), same_as.strip() or name)
    return names


def commentator_names() -> tuple[str, ...]:
    """The known commentators' names (every printed form), normalised, longest first."""
    return tuple(sorted(_table(), key=len, reverse=True))


def every_name() -> tuple[str, ...]:
    """Every name a claim may give a commentator (:func:`_every_name`), normalised, longest first."""
    return tuple(sorted(_every_name(), key=len, reverse=True))


def canonical(name: str) -> str:
    """The name a printed form of a commentator's name stands for (``康成`` → ``鄭康成``)."""
    return _table().get(normalize(name), name)


def person(name: str) -> str:
    """The name any name of a commentator stands for in a claim (``康成``, ``敖繼公``, ``Zheng
    Xuan`` → as the corpus names him): wider than :func:`canonical`, which says who speaks."""
    key = normalize(name)
    return _table().get(key) or _every_name().get(key, name)


@lru_cache(maxsize=1)
def speaker_pattern() -> re.Pattern[str]:
    """Over *normalised* text: a known name, then how his words are introduced (曰 … or 云/謂;
    also 注曰, and 釋<a rite>曰 "explaining the 士喪禮 says": 儀禮釋宮's 賈氏釋士喪禮曰)."""
    names = "|".join(map(re.escape, commentator_names()))
    return re.compile(
        f"(?P<name>{names})(?:注|释[\u3400-\u9fff]{{1,6}}?)?(?P<verb>曰|说|云|谓)"
        f"|(?P<old>{re.escape(normalize(OLD_EXPLANATION))})"
    )


def find_commentators(
    text: str,
    author: str | None = None,
    quoting: bool = False,
    breaks: tuple[int, ...] = (),
    notes: tuple[tuple[str, str], ...] = (),
) -> tuple[tuple[int, str | None], ...]:
    """Where each speaker's words start in a commentary passage: (index into ``text``, name).

    Names are given as the data file names them (``鄭康成`` for ``康成云``); words no one
    is named for are ``author``'s. ``quoting``: the text is a reference work's, whose author
    quotes everyone he names (see the module's docstring); ``breaks``: where its paragraphs
    start (the author speaks there); ``notes``: (word, speaker) for 注曰 and the like.
    """
    norm, index = normalize_with_map(text)
    events: dict[int, tuple[str, str | None]] = {0: ("say", author)}
    if quoting:
        for start in breaks:
            events[start] = ("say", author)
        for match in AUTHOR_REMARKS.finditer(norm):
            events[index[match.start()]] = ("say", author)
        for word, who in notes:
            for match in re.finditer(f"{re.escape(normalize(word))}又?(?:曰|云)", norm):
                events.setdefault(index[match.start()], ("quote", canonical(who)))
    for gap in re.finditer(r"[\s\u3000]+", text):
        if gap.start() and text[gap.start() - 1] in SENTENCE_ENDS:
            events[gap.start()] = ("say", author)
    for match in AUTHOR_RESUMES.finditer(norm):
        events[index[match.start()]] = ("say", author)
    for match in speaker_pattern().finditer(norm):
        start = index[match.start()]
        if match.group("old"):
            events[start] = ("quote" if match.start() else "say", OLD_EXPLANATION)
        else:
            verb = (
                "quote"
                if quoting or (match.group("verb") in ("云", "谓") and match.start())
                else "say"
            )
            events[start] = (verb, canonical(text[start : index[match.end("name") - 1] + 1]))
    if OLD_EXPLANATION in (name for _, name in events.values()):
        for match in _book_quote().finditer(norm):
            events.setdefault(index[match.start()], ("book", None))
    found: dict[int, str | None] = {}
    speaker = author
    quoted: str | None = None  # the 舊説, while a note quotes it
    for start in sorted(events):
        verb, name = events[start]
        if verb == "book":
            if quoted:
                found[start] = speaker  # the quoting speaker quotes the book himself
            quoted = None
            continue
        # Only the 舊説's words end at a book's title (BOOKS).
        quoted = name if verb == "quote" and name == OLD_EXPLANATION != speaker else None
        if verb == "say" or name == speaker:
            speaker = name
            found[start] = name
            continue
        # A quotation inside another's words: to its first 也, then the quoting speaker again.
        found[start] = name
        end = text.find("也", start)
        following = min(
            (s for s, (v, _) in events.items() if s > start and (v != "book" or quoted)),
            default=len(text),
        )
        if end != -1 and end + 1 < following:
            found[end + 1] = speaker
            quoted = None
    return tuple(sorted(found.items()))
