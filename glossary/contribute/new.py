"""`glossary new`: scaffold an entry: next free id, a pinyin suggestion, the locus of a quote."""
from __future__ import annotations

import re
import unicodedata

from glossary.corpus.model import Locus
from glossary.enrich.pinyin import plain
from glossary.model import Entry
from glossary.normalize import normalize


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


def best_locus(loci: list[Locus]) -> Locus | None:
    """Prefer the full 禮經本義 text (it has page ids), then the other texts in corpus order."""
    return min(loci, key=lambda l: (l.work != "KR1d0044", l.layer != "classic"), default=None)


def scaffold(term: str, category: str, entries: list[Entry], quote: str | None, locus: Locus | None,
             rite: str | None) -> str:
    """A YAML entry to paste into terms.yaml, with TODO where a person must write."""
    reading = plain(term)
    ident = next_id(reading, {e.id for e in entries})
    same = [e.id for e in entries if normalize(e.term) == normalize(term)]
    lines = [f"# NOTE: {term} already has an entry ({', '.join(same)}): extend it rather than add another?"] if same else []
    lines += [
        f"- id: {ident}",
        f"  term: {term}",
        f"  pinyin: {reading}  # pypinyin's suggestion in ritual readings: check it",
        f"  category: {category}",
        f"  rites: [{rite or (normalize(locus.rite) if locus and locus.rite else 'TODO')}]",
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
