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

    def prepare(self, citations: list[Citation]) -> None:
        """Search all quotes in one pass; in another, the near misses of those not found and their
        readings through edition variants (壹 for 一), see :meth:`CorpusIndex.find_alternatives`."""
        keys = [k for k in (normalize(c.quote) for c in citations) if len(k) <= MAX_QUOTE]
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
            field: str, message: str, severity: str = ERROR, hints: tuple[str, ...] = ()
        ) -> None:
            problems.append(
                Problem(file, citation.line_of(field), f"{path}.{field}", severity, message, hints)
            )

        if citation.work is not None and _key(citation.work) not in self._works:
            problem(
                "work",
                f"unknown work {citation.work!r}{did_you_mean(citation.work, self.work_names)}",
            )
            return CitationResult(owner, index, "invalid"), problems
        if citation.section is not None and _key(citation.section) not in self.sections:
            problem("section", f"no section is named {citation.section!r} in the corpus")
            return CitationResult(owner, index, "invalid"), problems
        key, quote_index = normalize_with_map(citation.quote)
        if not key:
            problem("quote", "the quote has no characters to look for")
            return CitationResult(owner, index, "invalid"), problems
        if len(key) > MAX_QUOTE:
            problem(
                "quote",
                f"not found: a quote of {len(key):,} characters is longer than any passage "
                f"checked ({MAX_QUOTE:,}); quote the passage itself",
            )
            return CitationResult(owner, index, "not-found"), problems
        hits = self.index.find(key)
        if hits and PLACEHOLDER not in key and not any(h.placeholders for h in hits):
            # The occurrences that agree with the place the citation names (all, if it names
            # none) are resolved to loci only if an output needs them (kept meanwhile as bare
            # positions: a large corpus has many); agreeing needs only their work, 卷, page …
            agreeing_hits = (
                hits
                if not citation.locus_fields()
                else [hit for hit in hits if not self.agrees(citation, self.index.where(hit.start))]
            )
            if agreeing_hits:
                starts, size = array("Q", (hit.start for hit in agreeing_hits)), len(key)
                folds = self._folds(citation.quote, key, starts, size)
                written = self._form(citation.quote, starts, size)
                if written is not None and written.differences:
                    problem(
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
                fields[0] if len(fields) == 1 else "quote",
                f"the quote is in the corpus{through}, but not at {given}",
                hints=hints,
            )
            return CitationResult(owner, index, "locus-mismatch", resolved=tuple(loci)), problems
        wildcard = sorted({p for locus in agreeing for p in locus.placeholders})
        if wildcard or PLACEHOLDER in key:
            positions = "、".join(f"第{quote_index[p - 1] + 1}字" for p in wildcard)
            problem(
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
            problem("quote", edition_warning(found), WARNING)
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
    )
