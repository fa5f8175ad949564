"""`glossary corpus`: the corpus texts, their layers and sections, and defects of the text itself."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from glossary.corpus import Corpus
from glossary.corpus.model import Document

#: A Kanripo page id's leaf and side: ``KR1d0026_SBCK_008-23b`` → 23, b.
_LEAF = re.compile(r"-(\d+)([ab])$")


def summary(corpus: Corpus) -> dict[str, list]:
    """``{"texts": [one row per text], "warnings": [defects of the corpus text]}``."""
    rows = []
    for info in corpus.texts:
        docs = [d for d in corpus.documents if d.text_info is info]
        layers: dict[str, int] = {}
        for doc in docs:
            for stream in doc.streams:
                layers[stream.layer] = layers.get(stream.layer, 0) + len(stream.text)
        rows.append(
            {
                "id": info.id,
                "title": info.title,
                "author": info.author,
                "edition": info.edition,
                "script": info.script,
                "format": info.format,
                "files": len(docs),
                "characters": layers,
                "sections": sum(len(d.sections) for d in docs),
            }
        )
    warnings = [str(w) for w in corpus.warnings]
    warnings += [gap for doc in corpus.documents for gap in page_gaps(doc)]
    return {"texts": rows, "warnings": warnings}


def page_gaps(doc: Document) -> list[str]:
    """The leaves a Kanripo file lacks: a page marked twice with no text between (its text
    missing), and leaves skipped between one page and the next (not in a reference work, whose
    skipped sides are its drawings). Where they fall, a quote has nothing to be found in, and a
    reading of the received text nothing to be compared with."""
    found: list[str] = []
    # Where each character of the text stands in the file: a page with none is marked, not there.
    chars = sorted(o for stream in doc.streams for o in stream.offsets)

    def blank(start: int, end: int) -> bool:
        at = bisect_left(chars, start)
        return at == len(chars) or chars[at] >= end

    # The page before: its side's number, its id, where its marker stands.
    previous: tuple[int, str, int] | None = None
    for offset, (_, page_id) in doc.pages:
        match = _LEAF.search(page_id or "")
        if page_id is None or match is None:
            previous = None
            continue
        here = int(match[1]) * 2 + "ab".index(match[2])  # 1a → 2, 1b → 3, 2a → 4 …
        line = bisect_right(doc.line_starts, offset)
        if previous is not None and here == previous[0]:
            found.append(
                f"{doc.path}:{line}: page {page_id} is marked twice with nothing between: its text is missing"
            )
        elif previous is not None and here > previous[0] + 1 and not doc.text_info.reference_work:
            missing = [f"{n // 2}{'ab'[n % 2]}" for n in range(previous[0] + 1, here)]
            # A page marked with no text before the next marker is lost too (卷1 9a before
            # 10a): the whole leaf is gone.
            if blank(previous[2], offset):
                side = previous[0]
                missing.insert(0, f"{side // 2}{'ab'[side % 2]} (marked, with no text)")
            shown = ", ".join(missing[:4]) + (" …" if len(missing) > 4 else "")
            found.append(
                f"{doc.path}:{line}: page(s) {shown} missing between {previous[1]} and {page_id}"
            )
        previous = (here, page_id, offset)
    return found


def text_lines(data: dict[str, list]) -> list[str]:
    """The summary as lines for a terminal."""
    lines = []
    for row in data["texts"]:
        chars = ", ".join(f"{k} {v:,}" for k, v in sorted(row["characters"].items()))
        lines.append(
            f"{row['id']:14} {row['title']} ({row['author']}): {row['files']} file(s), "
            f"{row['sections']} sections; {chars}"
        )
    lines.extend(f"corpus warning: {warning}" for warning in data["warnings"])
    return lines


def variant_gaps(corpus: Corpus) -> dict[str, object]:
    """Every character of the corpus' texts that is not a standard form (GB2312, Big5, or the
    simplified form of a Big5 character: :mod:`glossary.standard`) and that no table folds or
    pairs (the variant folds, OpenCC, the edition variants): the old forms a quote in standard
    characters cannot match. Each with its count and its first place.

    ``{"definition": …, "characters": [{"char", "codepoint", "count", "example"}], most first}``
    """
    from glossary.folds import edition_pairs
    from glossary.normalize import KEPT, PLACEHOLDER, fold_char
    from glossary.standard import is_modern_form

    paired = {ch for pair in edition_pairs().values() for ch in (pair.a, pair.b)}
    counts: dict[str, int] = {}
    first: dict[str, tuple[Document, int, int]] = {}  # char → (document, stream number, index)
    verdicts: dict[str, bool] = {}
    for doc in corpus.documents:
        for number, stream in enumerate(doc.streams):
            for ch in set(stream.text):
                gap = verdicts.get(ch)
                if gap is None:
                    gap = verdicts[ch] = (
                        bool(KEPT.fullmatch(ch))
                        and fold_char(ch) == ch
                        and ch not in paired
                        and not is_modern_form(ch)
                    )
                if not gap or (ch == PLACEHOLDER and doc.text_info.placeholder):
                    continue
                counts[ch] = counts.get(ch, 0) + stream.text.count(ch)
                first.setdefault(ch, (doc, number, stream.text.index(ch)))
    rows = []
    for ch in sorted(counts, key=lambda c: (-counts[c], c)):
        doc, number, at = first[ch]
        offset = doc.streams[number].offsets[at]
        page, page_id = doc.page_at(offset)
        rows.append(
            {
                "char": ch,
                "codepoint": f"U+{ord(ch):04X}",
                "count": counts[ch],
                "example": {
                    "work": doc.text_info.id,
                    "title": doc.text_info.title,
                    "file": doc.path,
                    "line": doc.line_at(offset),
                    "juan": doc.juan_at(offset),
                    "page": page,
                    "page_id": page_id,
                },
            }
        )
    return {
        "definition": "characters neither standard (GB2312, Big5, or OpenCC's simplified form of a Big5 "
        "character) nor folded or paired by any table (variant folds, OpenCC, edition variants)",
        "characters": rows,
    }


def variant_lines(data: dict[str, object]) -> list[str]:
    """The variant gaps as lines for a terminal: one per character, most frequent first."""
    rows = data["characters"]
    assert isinstance(rows, list)
    lines = [
        f"{len(rows)} character(s), {sum(r['count'] for r in rows):,} occurrence(s): {data['definition']}"
    ]
    for row in rows:
        ex = row["example"]
        where = " ".join(
            str(x)
            for x in (
                ex["title"],
                f"卷{ex['juan']}" if ex["juan"] is not None else None,
                f"p.{ex['page']}" if ex["page"] else None,
            )
            if x
        )
        lines.append(
            f"{row['char']} {row['codepoint']:8} {row['count']:5,}  e.g. {where} [{ex['file']}:{ex['line']}]"
        )
    return lines
