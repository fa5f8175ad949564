"""Locating citations: is each quote in the corpus, at the place it names?"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from glossary.corpus import Corpus, Locus
from glossary.errors import GlossaryError
from glossary.folds import (
    Fold,
    Form,
    differences,
    edition_alternatives,
    edition_warning,
    explain,
    form,
    kept,
    unique,
)
from glossary.index import CorpusIndex, Hit, Where
from glossary.matching import readings
from glossary.model import Citation, CitationResult, Entry
from glossary.normalize import PLACEHOLDER, normalize, normalize_with_map, tabled
from glossary.problems import ERROR, WARNING, Problem, did_you_mean
from glossary.suggest import Suggestion, chunk_votes, suggest

#: Longer quotes are not looked for: a citation quotes a passage, not a chapter (and very long
#: search words make Aho–Corasick automatons and alignments slow or unsafe).
MAX_QUOTE = 2000
#: Near misses, and readings through edition variants, are looked for only for quotes up to this
#: length (alignment and checking cost grows with it).
MAX_SUGGEST = 300
#: The occurrences of a quote compared with it as printed (a word may stand a thousand times).
MAX_FORMS = 64
#: A quote must have this many characters of its own (placeholders 〇 not counted): 〇 alone
#: matches every character of the corpus. Three is the shortest gloss of the commentaries
#: (搢插也, 奠置也), which the shipped glossary cites.
MIN_CHARACTERS = 3
#: The most places a quote may match where its citation says it stands: more names no passage a
#: reader can find (and every place is carried to the outputs).
MAX_PLACES = 50
#: The most occurrences looked at to find those that agree with the place a citation names.
MAX_SCAN = 10_000


def own_characters(key: str) -> int:
    """The characters of a normalised quote that are its own: ideographs, not placeholders."""
    return sum(1 for ch in key if _ideograph(ch))


def _ideograph(ch: str) -> bool:
    o = ord(ch)
    # CJK unified ideographs (the extensions included) and compatibility ideographs; 〇 is none.
    return 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x3FFFF


def quote_size_problem(key: str) -> str | None:
    """Why a normalised quote is too short to name a passage, or None."""
    own = own_characters(key)
    if own >= MIN_CHARACTERS:
        return None
    placeholders = key.count(PLACEHOLDER)
    besides = f" (and {placeholders} 〇, which match any character)" if placeholders else ""
    return (
        f"the quote has only {own} character(s) of its own{besides}: quote at least "
        f"{MIN_CHARACTERS} characters of the passage"
    )


def too_many_places(count: int) -> str:
    """The message for a quote found at ``count`` places (more than :data:`MAX_PLACES`)."""
    shown = f"more than {MAX_SCAN:,}" if count > MAX_SCAN else f"{count:,}"
    return (
        f"the quote matches {shown} places, more than the {MAX_PLACES} a reader can use: "
        "quote a longer passage (or name its juan, page or section)"
    )


@lru_cache(maxsize=4096)
def _key(value: object) -> str:
    # Work and section names: a few dozen, compared for every citation and occurrence.
    return normalize(str(value)).lower()


class CitationChecker:
    """Checks citations against one corpus index."""

    def __init__(self, index: CorpusIndex):
        self.index = index
        corpus: Corpus = index.corpus
        self._works: dict[str, set[str]] = {}
        for info in corpus.texts:
            for name in (info.id, info.title, info.work):
                self._works.setdefault(_key(name), set()).add(info.id)
        self.work_names = sorted({n for info in corpus.texts for n in (info.id, info.title)})
        self.sections = {_key(name) for doc in corpus.documents for _, name in doc.sections}
        #: Near-miss votes computed for many quotes at once (see :meth:`prepare`).
        self._votes: dict = {}
        #: Quotes with placeholders, counted and found once however often they are cited (each is
        #: a scan of the whole corpus; exact quotes are found in advance, see :meth:`prepare`).
        self._scanned: dict[str, tuple[int, list[Hit] | None]] = {}

    def _count(self, key: str) -> int:
        if PLACEHOLDER not in key:
            return self.index.count(key, MAX_SCAN)
        if key not in self._scanned:
            self._scanned[key] = (self.index.count(key, MAX_SCAN), None)
        return self._scanned[key][0]

    def _find(self, key: str) -> list[Hit]:
        if PLACEHOLDER not in key:
            return self.index.find(key)
        count, hits = self._scanned.get(key, (-1, None))
        if hits is None:
            hits = self.index.find(key)
            self._scanned[key] = (count, hits)
        return hits

    def prepare(self, citations: list[Citation]) -> None:
        """Search all quotes in one pass; in another, the near misses of those not found and their
        readings through edition variants (壹 for 一), see :meth:`CorpusIndex.find_alternatives`."""
        keys = [
            k
            for k in (normalize(c.quote) for c in citations)
            if len(k) <= MAX_QUOTE and quote_size_problem(k) is None
        ]
        self.index.prefetch(keys)
        missing = sorted({k for k in keys if not self.index.occurs(k)})
        alternatives = edition_alternatives()
        words = [
            word
            for key in missing
            if len(key) <= MAX_SUGGEST
            and PLACEHOLDER not in key
            and any(ch in alternatives for ch in key)
            for word in readings(key, alternatives)[0]
        ]
        near = [k for k in missing if 2 <= len(k) <= MAX_SUGGEST]
        self._votes = chunk_votes(self.index, near, exact=words) if near or words else {}

    def agrees(self, citation: Citation, locus: Locus | Where) -> list[str]:
        """The locus fields of ``citation`` that ``locus`` contradicts."""
        wrong = []
        if citation.work is not None and locus.work not in self._works.get(
            _key(citation.work), set()
        ):
            wrong.append("work")
        if citation.juan is not None and citation.juan != locus.juan:
            wrong.append("juan")
        if citation.page is not None and not _page_matches(citation.page, locus):
            wrong.append("page")
        if citation.section is not None and _key(citation.section) != _key(locus.section or ""):
            wrong.append("section")
        if citation.layer is not None and citation.layer != locus.layer:
            wrong.append("layer")
        return wrong

    def _folds(self, quote: str, key: str, starts: Sequence[int], size: int) -> tuple[Fold, ...]:
        """The folds the exact occurrences at ``starts`` needed, worked out only where one can be:
        at a character a variant table folds, in the quote (:func:`tabled`) or in the passage (the index
        keeps where); everything else matched as it stands or through OpenCC's script folding."""
        folded_in_quote = tabled(quote)
        in_quote = bool(folded_in_quote)
        if not in_quote and not self.index.may_have_tabled(key):
            return ()  # most quotes: one set operation
        found_tabled = self.index.tabled_in(starts, size)
        if not found_tabled and not in_quote:
            return ()
        characters = kept(quote)
        quoted = [i for i, ch in enumerate(characters) if ch in folded_in_quote]
        found: list[Fold | None] = []  # None: differs in script only (unique drops it)
        for start in starts if in_quote else found_tabled:
            printed = found_tabled.get(start, {})
            for i in quoted:
                if start + i not in printed:  # the passage prints it otherwise: a fold, sure
                    printed[start + i] = self.index.printed(start + i, start + i + 1)
            found.extend(
                explain(characters[p - start], c)
                for p, c in sorted(printed.items())
                if c != characters[p - start]
            )
        return tuple(unique(found)) if found else ()

    def _form(self, quote: str, starts: Sequence[int], size: int) -> Form | None:
        """How the quote differs from the passage it resolves to: None when one of its occurrences
        prints it exactly; else the comparison with the nearest (fewest differences, then first)."""
        nearest: Form | None = None
        for start in starts[:MAX_FORMS]:
            before, printed, after = self.index.source(start, start + size)
            if printed == quote:
                return None  # nearly every quote, at its first occurrence
            found = form(quote, before, printed, after)
            if found.source == quote:
                return None
            if nearest is None or (len(found.differences), found.folded) < (
                len(nearest.differences),
                nearest.folded,
            ):
                nearest = found
        return nearest

    def check(
        self, file: str, owner: str, index: int, citation: Citation
    ) -> tuple[CitationResult, list[Problem]]:
        """Verify citation ``index`` of ``owner`` (an entry or plan id); problems carry file, line and path."""
        path = f"{owner}.citations[{index}]"
        problems: list[Problem] = []

        def problem(
            code: str,
            field: str,
            message: str,
            severity: str = ERROR,
            hints: tuple[str, ...] = (),
        ) -> None:
            problems.append(
                Problem(
                    file, citation.line_of(field), f"{path}.{field}", severity, message, hints, code
                )
            )

        if citation.work is not None and _key(citation.work) not in self._works:
            problem(
                "Y203",
                "work",
                f"unknown work {citation.work!r}{did_you_mean(citation.work, self.work_names)}",
            )
            return CitationResult(owner, index, "invalid"), problems
        if citation.section is not None and _key(citation.section) not in self.sections:
            problem("Y204", "section", f"no section is named {citation.section!r} in the corpus")
            return CitationResult(owner, index, "invalid"), problems
        key, quote_index = normalize_with_map(citation.quote)
        if not key:
            problem("Y205", "quote", "the quote has no characters to look for")
            return CitationResult(owner, index, "invalid"), problems
        if len(key) > MAX_QUOTE:
            problem(
                "Y206",
                "quote",
                f"not found: a quote of {len(key):,} characters is longer than any passage "
                f"checked ({MAX_QUOTE:,}); quote the passage itself",
            )
            return CitationResult(owner, index, "not-found"), problems
        if (message := quote_size_problem(key)) is not None:
            problem("Y207", "quote", message)
            return CitationResult(owner, index, "invalid"), problems
        if (count := self._count(key)) > MAX_SCAN:
            # Counted, not found: the places of a quote this common are never made.
            problem("Y208", "quote", too_many_places(count))
            return CitationResult(owner, index, "invalid"), problems
        hits = self._find(key)
        if hits and PLACEHOLDER not in key and not any(h.placeholders for h in hits):
            # The occurrences that agree with the place the citation names (all, if it names
            # none) are resolved to loci only if an output needs them (kept meanwhile as bare
            # positions: a large corpus has many); agreeing needs only their work, 卷, page …
            agreeing_hits = (
                hits
                if not citation.locus_fields()
                else [hit for hit in hits if not self.agrees(citation, self.index.where(hit.start))]
            )
            if len(agreeing_hits) > MAX_PLACES:
                problem("Y208", "quote", too_many_places(len(agreeing_hits)))
                return CitationResult(owner, index, "invalid"), problems
            if agreeing_hits:
                starts, size = array("Q", (hit.start for hit in agreeing_hits)), len(key)
                folds = self._folds(citation.quote, key, starts, size)
                written = self._form(citation.quote, starts, size)
                if written is not None and written.differences:
                    problem(
                        "Y209",
                        "quote",
                        "not as the source prints it: "
                        + "; ".join(written.differences)
                        + " (glossary fmt --quotes writes the source's text)",
                        WARNING,
                        hints=(f"- quote: {written.source}",),
                    )
                return CitationResult(
                    owner,
                    index,
                    "verified",
                    pending=lambda: tuple(
                        self.index.locus(Hit(start, start + size)) for start in starts
                    ),
                    starts=starts,
                    size=size,
                    folds=folds,
                    source_text=written.source if written is not None else None,
                ), problems
        edition = not hits and PLACEHOLDER not in key and len(key) <= MAX_SUGGEST
        if edition:
            # Not as written: perhaps as another edition writes it (壹 for 一), never silently.
            hits = self.index.find_alternatives(key, edition_alternatives())
        loci = [self.index.locus(hit) for hit in hits]
        if not loci:
            suggestions = (
                suggest(self.index, key, citation.quote, quote_index, votes=self._votes.get(key))
                if len(key) <= MAX_SUGGEST
                else []
            )
            hints = tuple(s.hint() for s in suggestions)
            if suggestions:
                # The nearest passage as the source prints it, ready to paste over the quote's line.
                hints += (f"- quote: {suggestions[0].locus.text}",)
            problem(
                "Y201",
                "quote",
                "not found in the corpus" + ("" if hints else " (no near passage either)"),
                hints=hints,
            )
            return CitationResult(owner, index, "not-found"), problems
        agreeing = [locus for locus in loci if not self.agrees(citation, locus)]
        if not agreeing:
            # Point at what the nearest occurrence (fewest disagreeing fields) contradicts.
            fields = min((self.agrees(citation, locus) for locus in loci), key=len)
            given = ", ".join(f"{k}={v}" for k, v in citation.locus_fields().items())
            hints = tuple(f"found at: {locus.label()}" for locus in loci[:5])
            if len(loci) > 5:
                hints += (f"… and {len(loci) - 5} more places",)
            through = " (through an edition variant)" if edition else ""
            problem(
                "Y202",
                fields[0] if len(fields) == 1 else "quote",
                f"the quote is in the corpus{through}, but not at {given}",
                hints=hints,
            )
            return CitationResult(owner, index, "locus-mismatch", resolved=tuple(loci)), problems
        if len(agreeing) > MAX_PLACES:
            problem("Y208", "quote", too_many_places(len(agreeing)))
            return CitationResult(owner, index, "invalid"), problems
        wildcard = sorted({p for locus in agreeing for p in locus.placeholders})
        if wildcard or PLACEHOLDER in key:
            positions = "、".join(f"第{quote_index[p - 1] + 1}字" for p in wildcard)
            problem(
                "Y210",
                "quote",
                f"verified only through the corpus' 〇 placeholder (any one character) at {positions}",
                WARNING,
            )
        found = [
            difference
            for locus in agreeing
            for difference in differences(citation.quote, locus.text)
        ]
        if edition:
            problem("Y211", "quote", edition_warning(found), WARNING)
        folds = tuple(unique(fold for _, fold in found))
        return CitationResult(
            owner, index, "verified", resolved=tuple(agreeing), folds=folds
        ), problems


@dataclass(frozen=True)
class Lookup:
    """Where a passage stands in the corpus, or, when nowhere, the passages nearest to it."""

    passage: str
    loci: tuple[Locus, ...]
    suggestions: tuple[Suggestion, ...] = ()
    #: For each locus, the folds the match needed (see :mod:`glossary.folds`).
    folds: tuple[tuple[Fold, ...], ...] = ()
    #: For each locus, the warning when it matched only through edition variants ('' otherwise).
    warnings: tuple[str, ...] = ()


def locate(index: CorpusIndex, passage: str) -> Lookup:
    """Every occurrence of ``passage`` (any script, punctuation ignored); as another edition would
    write it (壹 for 一, with a warning) when none; near misses when neither."""
    key, quote_index = normalize_with_map(passage)
    if len(key) > MAX_QUOTE:
        raise GlossaryError(
            f"a passage of {len(key):,} characters is longer than any we look for ({MAX_QUOTE:,})"
        )
    if key and not own_characters(key):
        raise GlossaryError(
            "a passage of placeholders 〇 only stands everywhere: give its characters"
        )
    if index.count(key, MAX_SCAN) > MAX_SCAN:
        raise GlossaryError(
            f"the passage stands at more than {MAX_SCAN:,} places: give a longer one"
        )
    hits = index.find(key)
    edition = not hits and PLACEHOLDER not in key and len(key) <= MAX_SUGGEST
    if edition:
        hits = index.find_alternatives(key, edition_alternatives())
    loci = tuple(index.locus(hit) for hit in hits)
    if loci:
        found = [differences(passage, locus.text) for locus in loci]
        warnings = tuple(edition_warning(d) if edition else "" for d in found)
        return Lookup(
            passage,
            loci,
            folds=tuple(tuple(unique(f for _, f in d)) for d in found),
            warnings=warnings,
        )
    suggestions = suggest(index, key, passage, quote_index) if len(key) <= MAX_SUGGEST else []
    return Lookup(passage, (), tuple(suggestions))


def _page_matches(page: str, locus: Locus | Where) -> bool:
    page = page.strip()
    if page == locus.page:
        return True
    if locus.page_id and (page == locus.page_id or locus.page_id.endswith("_" + page)):
        return True
    return False


def headword_problem(file: str, entry: Entry) -> Problem | None:
    """A warning when no form of the headword (nor a variant headword) occurs in any of the entry's quotes."""
    forms = {normalize(form) for form in (entry.term, entry.traditional, *entry.variants) if form}
    quotes = [normalize(c.quote) for c in entry.citations]
    if any(form and form in quote for form in forms for quote in quotes):
        return None
    return Problem(
        file,
        entry.line,
        f"{entry.id}.term",
        WARNING,
        f"the headword {entry.term} occurs in none of the entry's quotes",
        code="Y305",
    )
