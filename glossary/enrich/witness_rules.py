"""The check's rules over the received text as a second witness (glossary.enrich.witness).

- **Another reading.** A quote of the primary text's classic that holds a character the
  received text reads otherwise (beyond script, variant forms and edition variants) is a
  warning naming both readings, unless the citation says which it follows
  (``reading: {follows: print|received, why: …}``).
- **Repeated notes.** A definition that gives 蔡德晉's words, where the note it cites of his
  repeats a note of 鄭玄's, is a warning unless it names 鄭玄 too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from glossary.apparatus import CLAIM_FIELDS, Authorities
from glossary.corpus.commentators import canonical
from glossary.corpus.model import Reading, Witness
from glossary.index import CorpusIndex, Hit
from glossary.model import Citation, CitationResult, Entry
from glossary.normalize import normalize
from glossary.problems import WARNING, Problem


def _spans(index: CorpusIndex, result: CitationResult) -> list[tuple[int, int]]:
    return result.spans if result.spans else []


#: A substitution of more characters than this is an arrangement (蔡德晉 gathers the 記's sentences
#: from several places), or an alignment that went astray, not another reading of a word.
MAX_READING = 2


def _reading(reading: Reading) -> bool:
    """Whether a difference is another reading of the same words: a character or two for others."""
    return bool(reading.printed and reading.received) and len(reading.printed) <= MAX_READING


def _quote_warning(
    file: str, entry_id: str, i: int, citation: Citation, message: str, code: str
) -> Problem:
    """A warning at a citation's quote (Y303, Y310, Y311 all point there)."""
    return Problem(
        file,
        citation.line_of("quote"),
        f"{entry_id}.citations[{i}].quote",
        WARNING,
        message,
        code=code,
    )


#: What Y303 and Y311 ask for: the citation says which reading the entry follows.
SAY_WHICH = "say which reading the entry follows (reading: {follows: print|received, why: …})"


def _gap(reading: Reading, size: int) -> bool:
    """Whether a difference is a character or two the print drops or adds inside the passage
    (``size`` characters): at its ends the aligned stretch may simply run on."""
    if bool(reading.printed) == bool(reading.received):
        return False
    extra = reading.printed or reading.received
    end = reading.at + len(reading.printed)
    return len(extra) <= MAX_READING and 0 < reading.at and end < size


def other_reading(
    index: CorpusIndex,
    citation: Citation,
    result: CitationResult,
    kind: Callable[[Reading, int], bool] = lambda reading, size: _reading(reading),
) -> tuple[Witness, tuple[Reading, ...]] | None:
    """The received text's passage and the characters it reads otherwise (``kind``: which
    differences count; another character by default), where every agreeing occurrence of the
    quote in the primary's classic has such a difference (None otherwise)."""
    annotator = index.annotator
    witnessing = getattr(annotator, "witnessing", None)
    if witnessing is None or not result.verified or citation.reading is not None:
        return None
    found = None
    for start, end in _spans(index, result):
        where = index.where(start)
        if where.work != witnessing.primary or where.layer != "classic":
            return None
        received = witnessing.received(index, start, end)
        size = len(index.text[start:end])
        changed = (
            tuple(r for r in received.readings if kind(r, size)) if received is not None else ()
        )
        if received is None or not changed:
            return None
        found = found or (received, changed)
    return found


def unreceived_problems(
    file: str, entry: Entry, results: Sequence[CitationResult], index: CorpusIndex
) -> list[Problem]:
    """A warning at each quote of the primary's classic that the received text has at no place
    (no span of it aligns), where the citation says nothing of it (no ``note``, no ``reading``):
    an item the author appends (附記, 條附補 …), or a page the received copy lacks."""
    annotator = index.annotator
    witnessing = getattr(annotator, "witnessing", None)
    if witnessing is None:
        return []
    problems = []
    for i, (citation, result) in enumerate(zip(entry.citations, results)):
        spans = _spans(index, result) if result.verified else []
        if not spans or citation.note or citation.reading is not None:
            continue
        if all(
            index.where(start).work == witnessing.primary
            and index.where(start).layer == "classic"
            and witnessing.counterpart(index, start, end) is None
            and not _received_elsewhere(index, witnessing.witness, start, end)
            for start, end in spans
        ):
            problems.append(
                _quote_warning(
                    file,
                    entry.id,
                    i,
                    citation,
                    "the received text (儀禮, KR1d0026) has this passage of the classic at no "
                    "place: say in the citation's note what it is (an item 蔡德晉 appends, a 記 he "
                    "places elsewhere, or a page the received copy lacks: `glossary corpus` lists "
                    "them), and do not give it as the received classic",
                    "Y310",
                )
            )
    return problems


#: The alignment pairs the two classics rite by rite, in order: a passage it pairs with nothing
#: may still stand in the received text, where 蔡德晉 moved it (a 記 set in the running text) or
#: where a graph differs inside it (於/于, 脱/說). It is the received text's where a run of at least
#: this share of its characters (and MIN_RUN) stands in the received classic.
RECEIVED_SHARE = 2 / 3
MIN_RUN = 4


def _received_elsewhere(index: CorpusIndex, witness: str, start: int, end: int) -> bool:
    return received_has(index, witness, index.text[start:end])


def received_has(index: CorpusIndex, witness: str, key: str) -> bool:
    """Whether the received text's classic (``witness``) has most of the normalised passage
    ``key`` somewhere: a run of :data:`RECEIVED_SHARE` of its characters, :data:`MIN_RUN` or more."""
    need = max(MIN_RUN, math.ceil(len(key) * RECEIVED_SHARE))
    for size in range(len(key), need - 1, -1):  # the longest run first
        for i in range(len(key) - size + 1):
            for hit in index.find(key[i : i + size]):
                where = index.where(hit.start)
                if where.work == witness and where.layer == "classic":
                    return True
    return False


def reading_problem(
    file: str,
    entry_id: str,
    i: int,
    citation: Citation,
    received: Witness,
    changed: Sequence[Reading],
) -> Problem:
    """The warning for a quote the received text reads otherwise: both readings, and the fix."""
    both = "; ".join(f"{r.printed} where the received text reads {r.received}" for r in changed)
    message = f"the print has {both} ({received.label()}: 「{received.text}」): {SAY_WHICH}"
    return _quote_warning(file, entry_id, i, citation, message, "Y303")


def reading_problems(
    file: str, entry: Entry, results: Sequence[CitationResult], index: CorpusIndex
) -> list[Problem]:
    """A warning for each quote of the classic the received text reads otherwise."""
    problems = []
    for i, (citation, result) in enumerate(zip(entry.citations, results)):
        if (found := other_reading(index, citation, result)) is not None:
            problems.append(reading_problem(file, entry.id, i, citation, *found))
    return problems


def gap_problems(
    file: str, entry: Entry, results: Sequence[CitationResult], index: CorpusIndex
) -> list[Problem]:
    """Y311: a quote of the classic where the received text has a character or two more or
    fewer inside it (來日卜葬 printed for the received 來日某卜葬), the citation silent on it."""
    problems = []
    for i, (citation, result) in enumerate(zip(entry.citations, results)):
        if (found := other_reading(index, citation, result, _gap)) is None:
            continue
        received, changed = found
        both = "; ".join(
            f"the received text has {r.received} after 「{_before(index, result, r)}」, the print not"
            if r.received
            else f"the print has {r.printed}, the received text not"
            for r in changed
        )
        message = f"{both} ({received.label()}: 「{received.text}」): {SAY_WHICH}"
        problems.append(_quote_warning(file, entry.id, i, citation, message, "Y311"))
    return problems


def _before(index: CorpusIndex, result: CitationResult, reading: Reading) -> str:
    # The printed characters just before a gap, to say where it falls.
    start, _ = _spans(index, result)[0]
    return index.printed(start + max(0, reading.at - 3), start + reading.at)


def repeated(index: CorpusIndex, results: Sequence[CitationResult]) -> Witness | None:
    """The first note of 鄭玄's that a cited note of the primary text's author repeats."""
    from glossary.enrich.witness import Annotator

    annotator = index.annotator
    if not isinstance(annotator, Annotator) or annotator.witnessing is None:
        return None
    for result in results:
        if not result.verified:
            continue
        for start, end in _spans(index, result):
            origin = index.origin(start, end)
            if origin.work == annotator.primary and annotator.author in origin.speakers:
                locus = index.locus(Hit(start, end))
                if locus.repeats is not None:
                    return locus.repeats
    return None


def repeat_problem(file: str, entry: Entry, field: str, author: str, note: Witness) -> Problem:
    """The warning for words given as ``author``'s that repeat 鄭玄's note."""
    return Problem(
        file,
        entry.line_of(field),
        f"{entry.id}.{field}",
        WARNING,
        f"gives as {author}'s words a note of his that repeats 鄭玄's ({note.label()}: "
        f"「{note.common}」): say that he follows 鄭玄, and cite 鄭玄's note",
        code="Y304",
    )


def _named(entry: Entry, field: str, authorities: Authorities) -> set[str]:
    """The people a claim field of the entry names, each by his canonical name, normalised."""
    return {normalize(canonical(n)) for n in authorities.named(getattr(entry, field) or "")}


def repeat_problems(
    file: str,
    entry: Entry,
    results: Sequence[CitationResult],
    index: CorpusIndex,
    authorities: Authorities,
) -> list[Problem]:
    """A warning for each claim field naming the primary text's author, not 鄭玄, whose cited note
    of the author's repeats one of 鄭玄's."""
    annotator = index.annotator
    author = getattr(annotator, "author", None)
    if not author:
        return []
    zheng = normalize(canonical("鄭玄"))
    fields = []
    for field in CLAIM_FIELDS:
        named = _named(entry, field, authorities)
        if normalize(author) in named and zheng not in named:
            fields.append(field)
    if not fields or (note := repeated(index, results)) is None:
        return []
    return [repeat_problem(file, entry, field, author, note) for field in fields]


def local_repeat_problems(
    file: str,
    entry: Entry,
    results: Sequence[CitationResult],
    index: CorpusIndex,
    authorities: Authorities,
) -> list[Problem]:
    """A warning at each cited note of the primary text's author that repeats words of 鄭玄's
    note on the same passage (:mod:`glossary.enrich.local_repeats`), where the entry neither
    cites a note of 鄭玄's nor names him."""
    from glossary.enrich.local_repeats import local_repeat
    from glossary.enrich.witness import Annotator

    annotator = index.annotator
    if not isinstance(annotator, Annotator) or annotator.places is None or not annotator.author:
        return []
    zheng = normalize(canonical("鄭玄"))
    if any(zheng in _named(entry, field, authorities) for field in CLAIM_FIELDS):
        return []
    witness = annotator.places.witnessing.witness
    spans = [
        (result, span) for result in results if result.verified for span in _spans(index, result)
    ]
    if any(
        index.origin(*span).work == witness and index.where(span[0]).layer == "commentary"
        for _, span in spans
    ):
        return []
    problems = []
    for result, (start, end) in spans:
        origin = index.origin(start, end)
        if origin.work != annotator.primary or annotator.author not in origin.speakers:
            continue
        found = local_repeat(index, annotator.places, start, end, annotator.author)
        if found is None:
            continue
        path = f"{entry.id}.citations[{result.index}].quote"
        citation = entry.citations[result.index]
        message = (
            f"{annotator.author}'s note repeats 鄭玄's note on the same passage "
            f"({found.label()}: 「{found.common}」): say that he follows 鄭玄, and "
            "cite 鄭玄's note (work: 儀禮, layer: commentary)"
        )
        problems.append(
            Problem(file, citation.line_of("quote"), path, WARNING, message, code="Y309")
        )
    return problems
