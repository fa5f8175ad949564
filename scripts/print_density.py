#!/usr/bin/env python3
"""How full the printed book's pages of entries are: pages, pages per entry, the blank share of
the text area and the pages less than 60% full (the numbers issue 16 quotes).

A page's fill is how far down its text area the ink reaches (pdftoppm, 30 dpi, grey); the text
area is the page less the @page margins of glossary/templates/print/pages.css.
Usage: python scripts/print_density.py glossary.pdf ENTRIES [--top MM --bottom MM]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from pypdf import PdfReader

DPI = 30


def pgm_rows(path: Path) -> tuple[int, list[bytes]]:
    """(width, rows) of a binary PGM file."""
    data = path.read_bytes()
    fields: list[bytes] = []
    pos = 0
    while len(fields) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        end = pos
        while not data[end : end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1 :]
    return width, [pixels[r * width : (r + 1) * width] for r in range(height)]


def entry_page_fills(pdf: Path, top_mm: float = 16, bottom_mm: float = 17) -> list[float]:
    """How far down its text area each page of entries is inked (0–1), from the first rite's
    page to the page before the indexes."""
    reader = PdfReader(pdf)
    found = {
        n.lstrip("/"): reader.get_destination_page_number(d)
        for n, d in reader.named_destinations.items()
    }
    dests = {n: page + 1 for n, page in found.items() if page is not None}
    rite_pages = [p for a, p in dests.items() if a.startswith("rite-")]
    first, last = min(rite_pages), dests["index-pinyin"] - 1
    fills = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                "pdftoppm",
                "-gray",
                "-r",
                str(DPI),
                "-f",
                str(first),
                "-l",
                str(last),
                str(pdf),
                f"{tmp}/p",
            ],
            check=True,
        )
        for path in sorted(Path(tmp).glob("p-*.pgm")):
            _, rows = pgm_rows(path)
            top, bottom = round(top_mm / 25.4 * DPI), len(rows) - round(bottom_mm / 25.4 * DPI)
            inked = [r for r in range(top, bottom) if min(rows[r]) < 160]
            fills.append(((inked[-1] + 1 - top) / (bottom - top)) if inked else 0.0)
    return fills


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdf", type=Path)
    parser.add_argument("entries", type=int)
    parser.add_argument("--top", type=float, default=16)
    parser.add_argument("--bottom", type=float, default=17)
    args = parser.parse_args()
    fills = entry_page_fills(args.pdf, args.top, args.bottom)
    pages = len(PdfReader(args.pdf).pages)
    blank = 1 - sum(fills) / len(fills)
    print(f"{pages} pages for {args.entries} entries: {pages / args.entries:.3f} pages per entry")
    print(
        f"entry pages ({len(fills)}): {blank:.1%} of the text area blank; "
        f"{sum(1 for f in fills if f < 0.6)} of {len(fills)} pages less than 60% full"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
