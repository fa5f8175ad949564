"""`glossary new`: scaffold an entry: next free id, a pinyin suggestion, the locus of a quote."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from glossary.citations import locate
from glossary.corpus.model import Locus
from glossary.enrich.pinyin import RitualReadings
from glossary.enrich.readings.guangyun import propose
from glossary.enrich.readings.lookup import Yinyi, propose_yinyi
from glossary.errors import GlossaryError
from glossary.files import UnreadableFile, read_bounded, write_file_atomically
from glossary.ids import next_id, slug
from glossary.index import CorpusIndex
from glossary.load import MAX_BYTES, load_bytes
from glossary.model import Entry, Retired
from glossary.problems import ERROR, Problem, printable
from glossary.suggest import Suggestion
from glossary.textcheck import SCAFFOLD
from glossary.vocab import Rite, vocabulary


def best_locus(loci: list[Locus] | tuple[Locus, ...], primary: str | None) -> Locus | None:
    """Prefer the primary text (the whole 禮經本義: it has page ids), then the other texts in corpus order."""
    return min(loci, key=lambda l: (l.work != primary, l.layer != "classic"), default=None)


def scaffold(
    term: str,
    category: str,
    entries: list[Entry],
    quote: str | None,
    locus: Locus | None,
    rite: str | None,
    yinyi: Yinyi | None = None,
    retired: Sequence[Retired] = (),
    retired_file: str = "retired.yaml",
) -> str:
    """A YAML entry to paste into terms.yaml, with the placeholders (TODO) a person must replace.

    The quote is written as the corpus prints the chosen occurrence, whatever form was pasted.
    The id is one no entry has and no retired id had.
    """
    reading = RitualReadings(entries).plain(term)
    known = vocabulary().rite(rite or (locus.rite if locus and locus.rite else "") or "")
    taken = {e.id: e for e in entries}
    gone = {r.id: r for r in retired}
    ident = next_id(reading, set(taken) | set(gone), (category, *((known.id,) if known else ())))
    same = [e for e in entries if e.term == term]
    lines = (
        [
            f"# NOTE: {printable(term)} already has an entry "
            f"({', '.join(f'{e.id}, line {e.line}' for e in same)}): extend it rather than add another?"
        ]
        if same
        else []
    )
    base = slug(reading)
    note = ""
    if ident != base and base in taken:
        other = taken[base]
        note = (
            f"  # {base} is {printable(other.term)} ({other.category}): the id adds a word that tells them apart; "
            "choose a better one now (ids never change once merged)"
        )
    elif ident != base and base in gone:
        was = gone[base]
        note = (
            f"  # {base} is a retired id ({retired_file}:{was.line}: {printable(was.term)}, merged "
            f"into {was.merged_into}), never used again: the id adds a word; choose a better one "
            "now (ids never change once merged)"
        )
    lines += [
        f"- id: {ident}{note}",
        f"  term: {yaml_text(term)}",
        f"  pinyin: {yaml_text(reading)}  # pypinyin's suggestion in ritual readings: check it",
        f"  guangyun: [{', '.join(f or 'null' for f in propose(term, reading)[0])}]"
        "  # the 廣韻 reading that fits each syllable (tshet-uinh): check it, decide the nulls",
        *_yinyi_line(term, reading, category, known, yinyi),
        f"  category: {category}",
        f"  rites: [{known.simplified if known else SCAFFOLD['rite']}]",
        f"  gloss: {SCAFFOLD['gloss']}",
        "  definition: >-",
        f"    {SCAFFOLD['definition']}",
        f"  definition_zh: {SCAFFOLD['definition_zh']}",
        "  citations:",
    ]
    if quote:
        lines.append(f"    - quote: {yaml_text(locus.text if locus is not None else quote)}")
        if locus is not None:
            lines.extend(
                f"      {name}: {value}" for name, value in locus.citation_fields().items()
            )
    else:
        lines.append(f"    - quote: {SCAFFOLD['quote']}")
    lines.append("  related: []")
    lines.append("  tags: []")
    text = "\n".join(lines) + "\n"
    # Whatever the term holds (a quote mark, a newline, '- id: x'), the scaffold is one entry of it.
    data = load_bytes(text.encode("utf-8"), "scaffold").data
    if not (
        isinstance(data, list)
        and len(data) == 1
        and isinstance(data[0], dict)
        and data[0].get("term") == term
    ):
        raise GlossaryError(
            f"{printable(term)!r}: cannot be written as a term (please report this)"
        )
    return text


def _yinyi_line(
    term: str, reading: str, category: str, rite: Rite | None, yinyi: Yinyi | None
) -> list[str]:
    """The scaffold's ``yinyi`` line: the 儀禮音義's headword whose note reads each character in
    the rite (none without a rite, or where no note reads any)."""
    if rite is None or yinyi is None:
        return []
    draft = Entry("new", term, reading, category, "", "", 0, rites=(rite,))
    chosen, notes = propose_yinyi(yinyi, draft)
    if not chosen:
        return []
    items = ", ".join(yaml_text(h) if h else "null" for h in chosen)
    return [
        f"  yinyi: [{items}]  # 經典釋文's 儀禮音義: {printable('; '.join(notes))}: "
        "null where its word is another; follow its reading in pinyin or say why not in reading_note"
    ]


#: Occurrences listed by number; glossary locate lists them all.
LISTED = 12


@dataclass(frozen=True)
class Scaffold:
    """A scaffold, and every occurrence of its quote (the one it cites is ``chosen``, 1-based)."""

    text: str
    occurrences: tuple[Locus, ...] = ()
    chosen: int = 0

    def listing(self) -> list[str]:
        """The occurrences numbered as ``glossary locate`` numbers them, the chosen one marked."""
        if len(self.occurrences) < 2:
            return []
        lines = [
            f"the quote stands in {len(self.occurrences)} places; the scaffold cites {self.chosen} "
            "(choose another with --occurrence N):"
        ]
        for number, locus in enumerate(self.occurrences, 1):
            if number > LISTED and number != self.chosen:
                continue
            mark = "*" if number == self.chosen else " "
            lines.append(f"{mark} {number}. {locus.label()}")
            lines.append(f"     …{locus.context}…")
        if len(self.occurrences) > LISTED:
            lines.append(
                f"  … {len(self.occurrences) - LISTED} more: glossary locate lists them all"
            )
        return lines


def known_word(
    term: str,
    entries: Sequence[Entry],
    retired: Sequence[Retired],
    terms_file: str = "terms.yaml",
    retired_file: str = "retired.yaml",
) -> list[Problem]:
    """Where the glossary has ``term`` already, other than as a headword in the same script (a
    second sense, which the scaffold notes): another entry's headword in the other script (Y501),
    one of its ``variants`` (Y504), or a retired entry's headword (Y807), each at its line."""
    from glossary.rules.entry import simplified

    word = simplified(term)
    found = []
    home = {entry.id: entry for entry in entries}
    for was in retired:
        if simplified(was.term) == word and (into := home.get(was.merged_into)) is not None:
            found.append(
                Problem(
                    retired_file,
                    was.line,
                    f"{was.id}.term",
                    ERROR,
                    f"{printable(was.term)} was merged into {into.id} ({printable(into.term)}, "
                    f"{terms_file}:{into.line}), and its id {was.id} retired: add what you would "
                    f"write to {into.id} rather than a new entry",
                    code="Y807",
                )
            )
    for entry in entries:
        if entry.term != term and simplified(entry.term) == word:
            found.append(
                Problem(
                    terms_file,
                    entry.line,
                    f"{entry.id}.term",
                    ERROR,
                    f"{printable(term)} is the headword of {entry.id} in the other script "
                    f"({printable(entry.term)}): add what you would write to {entry.id} rather "
                    "than a new entry",
                    code="Y501",
                )
            )
        for i, form in enumerate(entry.variants):
            if simplified(form) == word:
                found.append(
                    Problem(
                        terms_file,
                        entry.line_of("variants"),
                        f"{entry.id}.variants[{i}]",
                        ERROR,
                        f"{printable(term)} is a variant of {entry.id} ({printable(entry.term)}): "
                        f"add what you would write to {entry.id} rather than a new entry",
                        code="Y504",
                    )
                )
    return found


def new_entry(
    term: str,
    category: str,
    entries: list[Entry],
    index: CorpusIndex | None,
    quote: str | None = None,
    rite: str | None = None,
    append_to: Path | None = None,
    occurrence: int | None = None,
    yinyi: Yinyi | None = None,
    retired: Sequence[Retired] = (),
    files: tuple[str, str] = ("terms.yaml", "retired.yaml"),
) -> Scaffold:
    """The scaffold of an entry; a quote must stand in the corpus (its nearest passages are named if not).

    ``occurrence`` (1-based, in corpus order) picks the occurrence of the quote to cite; by
    default the primary text's, the classic first. With ``append_to``, the scaffold is also
    appended to that terms file. ``yinyi``: the corpus' 儀禮音義, whose notes on the headword's
    characters in the rite fill in ``yinyi`` (default: read from the index's corpus, if any).
    A word the glossary has under another entry (:func:`known_word`) is refused, naming the
    entry; ``files`` are the terms and retired files' names as said.
    """
    if known := known_word(term, entries, retired, *files):
        raise GlossaryError(
            f"{printable(term)} is in the glossary already; no scaffold written:\n"
            + "\n".join(str(problem) for problem in known)
        )
    if yinyi is None and index is not None:
        yinyi = Yinyi.of(index.corpus)
    if rite is not None and vocabulary().rite(rite) is None:
        raise GlossaryError(
            f"unknown rite {rite!r}; the rites (either script, or English): "
            f"{vocabulary().rite_list()}"
        )
    locus: Locus | None = None
    loci: tuple[Locus, ...] = ()
    chosen = 0
    if quote:
        assert index is not None
        found = locate(index, quote)
        if not found.loci:
            raise GlossaryError(
                "the quote is not in the corpus\n"
                + "\n".join(s.hint() for s in found.suggestions)
                + ready_line(found.suggestions)
            )
        loci = found.loci
        if occurrence is not None:
            if not 1 <= occurrence <= len(loci):
                raise GlossaryError(
                    f"--occurrence {occurrence}: the quote stands in {len(loci)} place(s) "
                    "(glossary locate lists them)"
                )
            chosen = occurrence
        else:
            primary = index.corpus.primary
            chosen = loci.index(best_locus(loci, primary.id if primary else None)) + 1
        locus = loci[chosen - 1]
    text = scaffold(term, category, entries, quote, locus, rite, yinyi, retired, files[1])
    if append_to is not None:
        append(append_to, text)
    return Scaffold(text, tuple(loci), chosen)


def ready_line(suggestions: Sequence[Suggestion]) -> str:
    """The nearest passage as a ``- quote:`` line to paste in place of the quote ('' without one)."""
    return f"\n    - quote: {yaml_text(suggestions[0].locus.text)}" if suggestions else ""


def yaml_text(text: str) -> str:
    """``text`` as a YAML value on one line: plain where YAML reads it back as the same text."""
    import json

    import yaml

    try:
        if yaml.safe_load(f"k: {text}") == {"k": text}:
            return text
    except yaml.YAMLError:
        pass
    return json.dumps(text, ensure_ascii=False)


def append(terms: Path, text: str) -> None:
    """Append a scaffold to the terms file, after one blank line (not through a link; refused if
    the file changes meanwhile)."""
    try:
        original = read_bounded(terms, MAX_BYTES, links=False)
    except (OSError, UnreadableFile) as exc:
        raise GlossaryError(
            f"{terms}: cannot read: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    write_file_atomically(
        terms, original.rstrip(b"\n") + b"\n\n" + text.encode("utf-8"), expect=original
    )
