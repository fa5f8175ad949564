"""What the web page's search finds an entry or a rite by, computed at build time.

The page's search (``templates/print/search.js``) is MiniSearch, vendored under
``templates/print/vendor/`` with its licence and checksum (see ARCHITECTURE.md). The browser
knows neither OpenCC nor pinyin, so the build gives it, per entry, the keys it cannot make: the
headword's forms folded to the matching key (simplified, variants folded), its pinyin with tone
marks, with tone numbers and without tones (syllables apart and joined), and the § number; per
rite, its names in both scripts, its pinyin and its English name. The texts shown on the page
(gloss, definitions, quotations) are read from the page itself, folded through ``folds``: every
character of the indexed texts whose matching key differs from it, the same table for a query.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping
from hashlib import sha256
from importlib import resources

from markupsafe import Markup

from glossary.enrich.pinyin import ritual_pinyin, split_reading
from glossary.model import Cited, Entry
from glossary.normalize import fold_char
from glossary.vocab import Rite

#: Tone marks (combining) → tone number.
TONES = {"\u0304": "1", "\u0301": "2", "\u030c": "3", "\u0300": "4"}
#: The vendored scripts, in the order the page runs them, and their checksums' file.
VENDORED = ("stemmer.js", "minisearch.js")
SUMS = "SHA256SUMS"
#: English words the search takes for one another.
SYNONYMS = "search_synonyms.tsv"


def synonyms() -> list[list[str]]:
    """The groups of :data:`SYNONYMS` (comment lines skipped)."""
    text = (resources.files("glossary") / "data" / SYNONYMS).read_text("utf-8")
    return [
        line.split("\t") for line in text.splitlines() if line.strip() and not line.startswith("#")
    ]


def syllable_forms(syllable: str) -> list[str]:
    """``jiē`` → ``jiē``, ``jie1``, ``jie``; ``lǚ`` → ``lǚ``, ``lv3``, ``lu3``, ``lv``, ``lu``."""
    decomposed = unicodedata.normalize("NFD", syllable.lower())
    tone = next((TONES[c] for c in decomposed if c in TONES), "5")
    bare = "".join(c for c in decomposed if c not in TONES)
    bare = unicodedata.normalize("NFC", bare)
    plains = [bare.replace("ü", "v"), bare.replace("ü", "u")] if "ü" in bare else [bare]
    marked = unicodedata.normalize("NFC", syllable.lower())
    return list(dict.fromkeys([marked, *(p + tone for p in plains), *plains]))


def pinyin_keys(reading: str) -> str:
    """Every way a reader may type ``reading``: tone marks, tone numbers or none, syllables
    apart or joined (``zuò jiē zuo4 jie1 zuo jie zuòjiē zuo4jie1 zuojie``)."""
    syllables = split_reading(reading)
    forms = [syllable_forms(s) for s in syllables]
    apart = [form for options in forms for form in options]
    joined = ["".join(options[i] for options in forms) for i in range(3)] if forms else []
    return " ".join(dict.fromkeys(apart + (joined if len(syllables) > 1 else [])))


def fold(text: str) -> str:
    """``text`` by matching key, character by character (punctuation kept, as a separator)."""
    return "".join(fold_char(c) or c for c in text)


def entry_document(entry: Entry, number: int) -> dict[str, object]:
    """The keys of one entry the page cannot compute (its texts it reads from the page)."""
    forms = [entry.term, entry.traditional or "", *entry.variants]
    heads = list(dict.fromkeys(fold(f) for f in forms if f))
    return {
        "id": entry.id,
        "n": number,
        "h": " ".join(heads),
        "p": pinyin_keys(entry.pinyin),
        "t": entry.term,
        "r": entry.pinyin,
    }


def rite_document(rite: Rite, count: int, entries: Iterable[Entry]) -> dict[str, object]:
    """A rite as a search result: its names in every form, leading to its part of the book."""
    names = [rite.simplified, rite.traditional, *rite.aliases]
    reading = ritual_pinyin(rite.simplified, entries, plain_syllables=True)
    return {
        "id": f"rite-{rite.id}",
        "h": " ".join(dict.fromkeys(fold(n) for n in names)),
        "p": pinyin_keys(reading) + " " + rite.id,
        "e": rite.english,
        "t": rite.simplified,
        "r": reading,
        "c": count,
    }


def folds(texts: Iterable[str]) -> dict[str, str]:
    """Character → its matching key, for every character of ``texts`` whose key differs."""
    table: dict[str, str] = {}
    for text in texts:
        for ch in set(text) - table.keys():
            key = fold_char(ch)
            if key and key != ch:
                table[ch] = key
    return dict(sorted(table.items()))


def entry_texts(entry: Entry, cited: Iterable[Cited]) -> Iterable[str]:
    """The texts of an entry the page shows and the search reads (for the fold table)."""
    yield from (entry.term, entry.traditional or "", *entry.variants)
    yield entry.gloss
    yield entry.definition
    yield entry.definition_zh or ""
    for each in cited:
        if each.found:
            yield each.loci[0].text


def search_data(
    entries: Iterable[Entry],
    numbers: Mapping[str, int],
    rites: Iterable[tuple[Rite, int]],
    cited: Mapping[str, tuple[Cited, ...]],
) -> Markup:
    """The page's search data as a JSON script element's content (every ``<`` escaped, so no
    text can end the element or open a comment in it)."""
    entries = list(entries)
    texts = [t for e in entries for t in entry_texts(e, cited.get(e.id, ()))]
    rite_list = list(rites)
    texts += [
        n for rite, _ in rite_list for n in (rite.simplified, rite.traditional, *rite.aliases)
    ]
    data = {
        "entries": [entry_document(e, numbers[e.id]) for e in entries if e.id in numbers],
        "rites": [rite_document(r, count, entries) for r, count in rite_list],
        "folds": folds(texts),
        "synonyms": synonyms(),
    }
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return Markup(text.replace("<", "\\u003c"))


def vendored_scripts() -> Markup:
    """MiniSearch and the Porter stemmer, checked against their pinned checksums.

    stemmer 2.0.1 is an ES module: its one ``export`` is dropped and the function kept in a
    closure, so it runs inline on a page opened from disk (modules do not load from file://).
    """
    folder = resources.files("glossary") / "templates" / "print" / "vendor"
    sums: dict[str, str] = {}
    for line in (folder / SUMS).read_text("utf-8").splitlines():
        if line.strip():
            digest, name = line.split()
            sums[name] = digest
    parts = []
    for name in VENDORED:
        data = (folder / name).read_bytes()
        if sha256(data).hexdigest() != sums.get(name):
            raise RuntimeError(f"the vendored {name} does not match its checksum in {SUMS}")
        text = data.decode("utf-8")
        if name == "stemmer.js":
            assert text.count("export function stemmer") == 1
            text = (
                "var stemmer = (function () {\n"
                + text.replace("export function stemmer", "function stemmer")
                + "\nreturn stemmer;\n}());"
            )
        # No source map: the page asks for nothing but itself.
        text = "\n".join(
            line for line in text.splitlines() if not line.startswith("//# sourceMappingURL")
        )
        parts.append(f"// {name} (vendored, see templates/print/vendor/SHA256SUMS)\n{text}")
    return Markup("\n".join(parts).replace("</script", "<\\/script"))
