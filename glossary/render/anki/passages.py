"""Passage notes: a passage of the classic or a commentary with each of its headwords as a cloze.

The window a front shows is the commentary's sense units around the passage (glossary.index: the
classic between the notes that cut it), one unit more where a blank would open or close it, so that
every blank has words to be read by on both sides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from glossary.corpus.model import Locus
from glossary.enrich.pinyin import split_reading, tts_text
from glossary.model import Cited, Entry
from glossary.normalize import normalize
from glossary.render.anki.ids import note_guid
from glossary.render.anki.models import field_values
from glossary.render.anki.notes import (
    NoteSpec,
    forms_of,
    spans,
    tags_for,
    template_env,
    text,
)
from glossary.render.markup import bracket_reading, tone
from glossary.vocab import vocabulary

#: A passage card keeps at least this many characters of the passage besides its terms.
MIN_CONTEXT = 8
#: The longest window of sense units a front shows (characters); a longer unit is shown as the quote
#: and the characters around it, as where the commentary leaves a long run of the classic whole.
MAX_WINDOW = 60


@dataclass
class _Passage:
    """A passage chosen for cloze cards: its locus, the entries it asks, and the window shown."""

    locus: Locus
    members: list[Entry]
    context: str
    start: int
    end: int
    #: The citation it was chosen from, resolved (its label is the place the card names).
    cited: Cited | None = None

    #: Where the commentary's sense units meet in ``context`` (its start and end included); empty
    #: where the locus has none, and the window then grows by characters.
    edges: tuple[int, ...] = ()

    def grow(self, step: int, left: bool = True, right: bool = True) -> bool:
        """Widen the window by ``step`` characters each side (``left``, ``right``), as far as the
        context goes; where the context has sense units, by a whole unit instead."""
        start, end = self.start, self.end
        unit_start = max((e for e in self.edges if e < start), default=start) if left else start
        unit_end = min((e for e in self.edges if e > end), default=end) if right else end
        if self.edges and unit_end - unit_start <= MAX_WINDOW:
            start, end = unit_start, unit_end
        else:  # no units, or whole units would make the front too long to read at a glance
            start = max(0, start - step) if left else start
            end = min(len(self.context), end + step) if right else end
        changed = (start, end) != (self.start, self.end)
        self.start, self.end = start, end
        return changed

    def by_characters(self) -> None:
        """Show the quote in the index's context (the layer's text 16 characters either side,
        across the notes that cut it) instead of its sense units; the window grows by characters."""
        context, text = self.locus.context, self.locus.text
        at = 16 if context[16 : 16 + len(text)] == text else context.find(text)
        if at >= 0:
            self.context, self.start, self.end, self.edges = context, at, at + len(text), ()

    def blanks(self) -> list[tuple[int, int]]:
        """Every blank of the window (each member's headword spans), as window positions."""
        return [place for _, places in self.clozes() for place in places]

    def thinner_side_is_left(self) -> bool:
        """Whether fewer characters stand before the first blank than after the last."""
        places = self.blanks()
        if not places:
            return True
        return min(s for s, _ in places) <= self.end - self.start - max(e for _, e in places)

    def blanked_edges(self) -> tuple[bool, bool]:
        """Whether a blank stands at the window's start, and at its end (nothing to read it by)."""
        places = self.blanks()
        size = self.end - self.start
        return any(s == 0 for s, _ in places), any(e == size for _, e in places)

    def window(self) -> str:
        return self.context[self.start : self.end]

    def clozes(self) -> list[tuple[Entry, list[tuple[int, int]]]]:
        """Each member with the spans of its headword in the window; a longer headword's span wins
        over a shorter one inside it (乘矢 over 矢)."""
        window = self.window()
        found = [(entry, spans(window, forms_of(entry))) for entry in self.members]
        taken: list[tuple[int, int]] = []
        result: list[tuple[Entry, list[tuple[int, int]]]] = []
        for entry, places in sorted(
            found, key=lambda item: -max((e - s for s, e in item[1]), default=0)
        ):
            # A headword that stands inside a longer one here (矢 in 乘矢) would be shown by that
            # one's card: it is not asked in this passage at all.
            if any(not (e <= a or s >= b) for s, e in places for a, b in taken):
                result.append((entry, []))
                continue
            taken.extend(places)
            result.append((entry, _joined(places)))
        order = {id(entry): i for i, entry in enumerate(self.members)}
        return sorted(result, key=lambda item: order[id(item[0])])

    def outside(self) -> int:
        """Characters of the window that no cloze covers (punctuation is not in the stream text)."""
        covered = sum(e - s for s, e in self.blanks())
        return len(self.window()) - covered

    def fronts(self) -> dict[str, str]:
        """The front each member's card shows (its headword blanked), by entry id."""
        window, result = self.window(), {}
        for entry, places in self.clozes():
            if not places:
                continue
            out, last = [], 0
            for s, e in places:
                out.append(window[last:s] + "[...]")
                last = e
            result[entry.id] = "".join(out) + window[last:]
        return result


def _joined(places: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans with those that touch joined: a headword twice in a row (小史小史) is one blank, never
    two side by side."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(places):
        if out and out[-1][1] == s:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def _place_in_context(locus: Locus) -> tuple[str, int, int, tuple[int, ...]]:
    """The locus' context, where its text stands in it, and where sense units meet in it.

    With sense units (glossary.index: the classic between the notes that cut it), the context is
    the units and the window starts as the units that hold the text; else the index's context
    (16 characters either side) and the text itself.
    """
    if locus.units and len(locus.text) <= MAX_WINDOW:
        context = "".join(locus.units)
        edges = [0]
        for unit in locus.units:
            edges.append(edges[-1] + len(unit))
        at, end = locus.units_at, locus.units_at + len(locus.text)
        if context[at:end] == locus.text:
            start = max(e for e in edges if e <= at)
            stop = min(e for e in edges if e >= end)
            if stop - start <= MAX_WINDOW:
                return context, start, stop, tuple(edges)
    context, size = locus.context or locus.text, len(locus.text)
    at = 16 if context[16 : 16 + size] == locus.text else context.find(locus.text)
    if at < 0:
        return locus.text, 0, size, ()
    return context, at, at + size, ()


def _doubled(locus: Locus, forms: tuple[str, ...]) -> bool:
    """Whether the headword stands twice in a row in the locus' text or the units around it."""
    around = "".join(locus.units) or locus.context or locus.text
    found = spans(around, forms)
    return any(e == s for (_, e), (s, _) in zip(found, found[1:]))


def _no_room(locus: Locus) -> bool:
    """Whether all the text there is around the locus leaves fewer than MIN_CONTEXT characters
    besides the quote (a note of 鄭玄's that the index holds without its neighbours)."""
    around = "".join(locus.units) or locus.context or locus.text
    return len(around) - len(locus.text) < MIN_CONTEXT


def _undrawn(locus: Locus) -> bool:
    """Whether the text around the locus holds a character that no font of the outputs draws."""
    from glossary.render.fonts import missing

    around = "".join(locus.units) + (locus.context or locus.text)
    return bool(missing(ch for ch in set(around) if ord(ch) > 0x3400))


def choose_passages(entries: list[Entry], cited: Mapping[str, Sequence[Cited]]) -> list[_Passage]:
    """One passage per entry that has one (the classic preferred, then the shortest quote); entries
    whose chosen passages are the same place share it. Each window keeps at least MIN_CONTEXT
    characters besides the blanks, and windows that would ask the same question with different
    answers are widened until they differ."""
    by_place: dict[tuple[str, int, int], _Passage] = {}
    for entry in entries:
        candidates = sorted(
            ((c.loci[0], c) for c in cited.get(entry.id, ()) if c.found),
            key=lambda item: (item[0].layer != "classic", len(item[0].text)),
        )
        # A place where the headword stands twice in a row (葵菹菹以西) would show two blanks side
        # by side: another of the entry's passages is asked instead, where it has one.
        # And a place whose words hold a character no font draws (a graph of 餕 in 鄭玄's notes)
        # would print a box on the card: any other passage first.
        if len(candidates) > 1:  # the keys cost a normalisation of the text around each place
            forms = forms_of(entry)
            candidates.sort(
                key=lambda item: (_undrawn(item[0]), _no_room(item[0]), _doubled(item[0], forms))
            )
        for locus, chosen in candidates:
            if spans(locus.text, forms_of(entry)) and len(normalize(locus.text)) > len(
                normalize(entry.term)
            ):
                place = (locus.file, locus.start, locus.end)
                if place not in by_place:
                    context, start, end, edges = _place_in_context(locus)
                    by_place[place] = _Passage(
                        locus, [], context, start, end, cited=chosen, edges=edges
                    )
                by_place[place].members.append(entry)
                break
    passages = list(by_place.values())
    for passage in passages:
        # A blank that opens or closes the window has nothing on that side to be read by: show
        # the unit (or a few characters) before it, and after it.
        at_start, at_end = passage.blanked_edges()
        if at_start or at_end:
            passage.grow(4, left=at_start, right=at_end)
        if any(passage.blanked_edges()) and passage.edges:
            # The units end at the blank (工人士, 司射 open the classic between two notes): the
            # classic's own stream around it, by characters. (Another passage of the entry would
            # move it into another entry's note, and its own note, with its reviews, would retire.)
            passage.by_characters()
            passage.grow(4, *passage.blanked_edges())
        for _ in range(2):
            while passage.outside() < MIN_CONTEXT:
                # By units, the thinner side first (so a unit is not added where none is needed).
                left = passage.thinner_side_is_left()
                if not (passage.grow(1, left, not left) or passage.grow(1, not left, left)):
                    break
            if passage.outside() >= MIN_CONTEXT or not passage.edges:
                break
            # All the units there are still too few words (君父為長子為人後者, between two notes):
            # the classic's stream around them, by characters.
            passage.by_characters()
    passages = _merged(passages)
    for _ in range(16):
        asked: dict[str, list[tuple[_Passage, str]]] = {}
        for passage in passages:
            for entry_id, front in passage.fronts().items():
                answer = normalize(next(e.term for e in passage.members if e.id == entry_id))
                asked.setdefault(normalize(front), []).append((passage, answer))
        clashing = {
            id(p): p for cards in asked.values() if len({a for _, a in cards}) > 1 for p, _ in cards
        }
        if not clashing or not any([p.grow(2) for p in clashing.values()]):
            break
    return _merged(passages)


def _merged(passages: list[_Passage]) -> list[_Passage]:
    """Passages whose windows came to show the same text (two quotes in one sense unit: 匴 and 坫
    in 爵弁皮弁緇布冠各一匴執以待于西坫南; or one passage in two editions' scripts) as one note,
    its members in order."""
    shown: dict[str, _Passage] = {}
    out = []
    for passage in passages:
        key = normalize(passage.window())
        if key in shown:
            shown[key].members.extend(m for m in passage.members if m not in shown[key].members)
            continue
        shown[key] = passage
        out.append(passage)
    return out


def _cloze_ruby(printed: str, entry: Entry) -> str:
    """A blanked headword as printed, with its reading as ruby, each character in its tone class."""
    syllables = split_reading(entry.pinyin)
    if len(syllables) != len(printed):
        return text(printed)
    return "".join(
        f'<span class="tone{tone(s)}"><ruby>{text(ch)}<rt>{text(s)}</rt></ruby></span>'
        for ch, s in zip(printed, syllables)
    )


def cloze_note(passage: _Passage, order: Callable[[str, list[str]], list[str]]) -> NoteSpec | None:
    """The passage with each member's headword as a cloze (one card per headword), the locus on the back.

    ``order(key, ids)`` gives the cloze numbers: the ids in the order the ledger recorded for the
    note (a number, once given, always asks the same headword), new ones after.
    """
    clozes = [(entry, places) for entry, places in passage.clozes() if places]
    if not clozes:
        return None
    key_entry = clozes[0][0]
    key = f"cloze:{key_entry.id}"
    numbered = order(key, [entry.id for entry, _ in clozes])
    number = {entry_id: i + 1 for i, entry_id in enumerate(numbered)}
    window = passage.window()
    marks = sorted((s, e, entry) for entry, places in clozes for s, e in places)
    out, last = [], 0
    for s, e, entry in marks:
        out.append(text(window[last:s]))
        out.append(f"{{{{c{number[entry.id]}::{_cloze_ruby(window[s:e], entry)}}}}}")
        last = e
    out.append(text(window[last:]))
    members = sorted((entry for entry, _ in clozes), key=lambda entry: number[entry.id])
    glosses = (
        template_env()
        .get_template("cloze_glosses.html")
        .render(
            members=[
                {
                    "n": number[e.id],
                    "term": e.term,
                    "traditional": e.traditional,
                    "pinyin": e.pinyin,
                    "gloss": e.gloss,
                }
                for e in members
            ]
        )
        .strip()
    )
    tts = "".join(
        f"{{{{c{number[e.id]}::{text(spoken)}}}}}" for e in members if (spoken := tts_text(e))
    )
    locus = passage.locus
    fields = field_values(
        "cloze",
        {
            "Passage": "".join(out),
            "Locus": text(passage.cited.label if passage.cited else locus.label(with_file=False)),
            "Term": text(" · ".join(e.term for e in members)),
            "Ruby": " · ".join(bracket_reading(e.term, e.pinyin) for e in members),
            "Gloss": glosses,
            "Id": text(" ".join(e.id for e in members)),
            "TTS": tts,
        },
    )
    home = vocabulary().rite(locus.rite) if locus.rite else None
    rites = tuple(
        dict.fromkeys([home or members[0].rites[0], *(r for e in members for r in e.rites)])
    )
    tags = tuple(
        sorted({t for e in members for t in tags_for(e, [locus])} | {"yili::category::passage"})
    )
    return NoteSpec(key, note_guid(key_entry.id, "cloze"), "cloze", fields, tags, rites, "passage")
