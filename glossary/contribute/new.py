"""`glossary new`: scaffold an entry: next free id, a pinyin suggestion, the locus of a quote."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from glossary.citations import locate
from glossary.corpus.model import Locus
from glossary.enrich.pinyin import RitualReadings
from glossary.enrich.readings import propose
from glossary.errors import GlossaryError
from glossary.files import write_file_atomically
from glossary.index import CorpusIndex
from glossary.model import Entry
from glossary.normalize import normalize
from glossary.vocab import vocabulary


def slug(reading: str) -> str:
    """``shèng shǐ`` → ``sheng-shi`` (ü → v)."""
    bare = unicodedata.normalize("NFD", reading.lower()).replace("u\u0308", "v")
    bare = "".join(c for c in bare if not unicodedata.combining(c)).replace("ü", "v")
    return re.sub(r"[^a-z0-9]+", "-", bare).strip("-") or "entry"


def next_id(reading: str, taken: set[str]) -> str:
    """The pinyin slug, or with -2, -3 … when it is taken (ids never change once published)."""
    base = slug(reading)
    if base not in taken:
        return base
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def best_locus(loci: list[Locus] | tuple[Locus, ...], primary: str | None) -> Locus | None:
    """Prefer the primary text (the whole 禮經本義: it has page ids), then the other texts in corpus order."""
    return min(loci, key=lambda l: (l.work != primary, l.layer != "classic"), default=None)


def scaffold(term: str, category: str, entries: list[Entry], quote: str | None, locus: Locus | None,
             rite: str | None) -> str:
    """A YAML entry to paste into terms.yaml, with TODO where a person must write."""
    reading = RitualReadings(entries).plain(term)
    ident = next_id(reading, {e.id for e in entries})
    same = [e.id for e in entries if normalize(e.term) == normalize(term)]
    known = vocabulary().rite(rite or (locus.rite if locus and locus.rite else "") or "")
    lines = [f"# NOTE: {term} already has an entry ({', '.join(same)}): extend it rather than add another?"] if same else []
    lines += [
        f"- id: {ident}",
        f"  term: {term}",
        f"  pinyin: {reading}  # pypinyin's suggestion in ritual readings: check it",
        f"  guangyun: [{', '.join(f or 'null' for f in propose(term, reading)[0])}]"
        "  # the 廣韻 reading that fits each syllable (tshet-uinh): check it, decide the nulls",
        f"  category: {category}",
        f"  rites: [{known.simplified if known else rite or 'TODO'}]",
        "  gloss: TODO short English gloss",
        "  definition: >-",
        "    TODO: what the cited commentary says (attribute it: 郝仲輿 says …).",
        "  definition_zh: TODO",
        "  citations:",
    ]
    if quote:
        lines.append(f"    - quote: {quote}")
        if locus is not None:
            lines.extend(f"      {name}: {value}" for name, value in locus.citation_fields().items())
    else:
        lines.append("    - quote: TODO a passage that `glossary locate` finds")
    lines.append("  related: []")
    lines.append("  tags: []")
    return "\n".join(lines) + "\n"


def new_entry(term: str, category: str, entries: list[Entry], index: CorpusIndex | None,
              quote: str | None = None, rite: str | None = None, append_to: Path | None = None) -> str:
    """The scaffold of an entry; a quote must stand in the corpus (its nearest passages are named if not).

    With ``append_to``, the scaffold is also appended to that terms file.
    """
    locus = None
    if quote:
        assert index is not None
        found = locate(index, quote)
        if not found.loci:
            raise GlossaryError("the quote is not in the corpus\n" + "\n".join(s.hint() for s in found.suggestions))
        primary = index.corpus.primary
        locus = best_locus(found.loci, primary.id if primary else None)
    text = scaffold(term, category, entries, quote, locus, rite)
    if append_to is not None:
        append(append_to, text)
    return text


def append(terms: Path, text: str) -> None:
    """Append a scaffold to the terms file, after one blank line."""
    original = terms.read_bytes()
    write_file_atomically(terms, original.rstrip(b"\n") + b"\n\n" + text.encode("utf-8"))
