"""`glossary new`: scaffold an entry: next free id, a pinyin suggestion, the locus of a quote."""

from __future__ import annotations

import re
import unicodedata
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
from glossary.index import CorpusIndex
from glossary.load import MAX_BYTES, load_bytes
from glossary.model import Entry
from glossary.normalize import normalize
from glossary.problems import printable
from glossary.suggest import Suggestion
from glossary.textcheck import SCAFFOLD
from glossary.vocab import Rite, vocabulary


def slug(reading: str) -> str:
    """``shèng shǐ`` → ``sheng-shi`` (ü → v)."""
    bare = unicodedata.normalize("NFD", reading.lower()).replace("u\u0308", "v")
    bare = "".join(c for c in bare if not unicodedata.combining(c)).replace("ü", "v")
    return re.sub(r"[^a-z0-9]+", "-", bare).strip("-") or "entry"


def next_id(reading: str, taken: set[str], words: tuple[str, ...] = ()) -> str:
    """The pinyin slug; when another entry has it, the slug and a word that tells them apart
    (``fu-object``: the guide's rule, ``shi-zhu`` beside ``shi``), never a bare number."""
    base = slug(reading)
    if base not in taken:
        return base
    for word in words:
        if (candidate := f"{base}-{slug(word)}") not in taken:
            return candidate
    # Every word taken too: the words together (fu-object-shiyu).
    candidate = "-".join([base, *(slug(w) for w in words)])
    n = 2
    while candidate in taken:
        candidate = "-".join([base, *(slug(w) for w in words), slug(str(n))])
        n += 1
    return candidate


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
) -> str:
    """A YAML entry to paste into terms.yaml, with the placeholders (TODO) a person must replace.

    The quote is written as the corpus prints the chosen occurrence, whatever form was pasted.
    """
    reading = RitualReadings(entries).plain(term)
    known = vocabulary().rite(rite or (locus.rite if locus and locus.rite else "") or "")
    taken = {e.id: e for e in entries}
    ident = next_id(reading, set(taken), (category, *((known.id,) if known else ())))
    same = [e.id for e in entries if normalize(e.term) == normalize(term)]
    lines = (
        [
            f"# NOTE: {printable(term)} already has an entry ({', '.join(same)}): "
            "extend it rather than add another?"
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
) -> Scaffold:
    """The scaffold of an entry; a quote must stand in the corpus (its nearest passages are named if not).

    ``occurrence`` (1-based, in corpus order) picks the occurrence of the quote to cite; by
    default the primary text's, the classic first. With ``append_to``, the scaffold is also
    appended to that terms file. ``yinyi``: the corpus' 儀禮音義, whose notes on the headword's
    characters in the rite fill in ``yinyi`` (default: read from the index's corpus, if any).
    """
    if yinyi is None and index is not None:
        yinyi = Yinyi.of(index.corpus)
    if rite is not None and vocabulary().rite(rite) is None:
        raise GlossaryError(
            f"unknown rite {rite!r}; the rites are: {', '.join(vocabulary().rite_names)}"
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
    text = scaffold(term, category, entries, quote, locus, rite, yinyi)
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
