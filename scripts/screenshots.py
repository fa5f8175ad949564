#!/usr/bin/env python3
"""Make the README's pictures: the cards of one entry, the printed page that holds it, the first
page of a study sheet folded along its fold line, and the web page at phone width.

Needs headless Chromium (Debian `chromium`) and pdftoppm (Debian `poppler-utils`).
Also the back of the entry's Recall card at phone width (400 px), light and night
(docs/img/card-phone-light.png, card-phone-night.png).
Usage: python scripts/screenshots.py [ENTRY_ID] [PAGE]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glossary.build import gather  # noqa: E402
from glossary.check import check_project  # noqa: E402
from glossary.contribute.preview import phone_card, preview  # noqa: E402
from glossary.render.chromium import screenshot  # noqa: E402
from glossary.render.pdf import destinations  # noqa: E402
from glossary.render.printed import PrintOptions, print_glossary, render_glossary  # noqa: E402
from glossary.render.sheets import print_sheet  # noqa: E402

OUT = ROOT / "docs" / "img"


def main() -> int:
    entry_id = sys.argv[1] if len(sys.argv) > 1 else "xi-jie"
    page = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    report = check_project(ROOT / "terms.yaml", ROOT / "corpus")
    if report.failed():
        print("the glossary does not check; run glossary check", file=sys.stderr)
        return 1
    glossary = gather(report, ROOT)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "card.png").write_bytes(screenshot(preview(glossary, entry_id), width=880, height=1500))
    # A card as a phone shows it (400 CSS px wide), in Anki's light and night modes.
    for mode, night in (("light", False), ("night", True)):
        card = phone_card(glossary, entry_id, "Recall", "back", night=night)
        (OUT / f"card-phone-{mode}.png").write_bytes(screenshot(card, width=400, height=860))
    _, pdf = print_glossary(glossary, PrintOptions())
    entry = glossary.entry(entry_id)
    rite = entry.rites[0].simplified if entry and entry.rites else "乡射礼"
    _, sheet = print_sheet(glossary, rite, PrintOptions())
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "g.pdf").write_bytes(pdf)
        (Path(tmp) / "s.pdf").write_bytes(sheet)
        # The page that holds the entry: where the PDF's link to it leads.
        page = page or destinations(pdf)[f"e-{entry_id}"]
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "80",
                "-f",
                str(page),
                "-l",
                str(page),
                "-png",
                "-singlefile",
                str(Path(tmp) / "g.pdf"),
                str(OUT / "glossary-page"),
            ],
            check=True,
        )
        # Folded: the sheet's left part up to the fold line (12 mm margin + 11 mm + 62 mm = 85 mm).
        width = round(85 / 25.4 * 80)
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "80",
                "-f",
                "1",
                "-l",
                "1",
                "-png",
                "-singlefile",
                "-x",
                "0",
                "-y",
                "0",
                "-W",
                str(width),
                "-H",
                str(round(297 / 25.4 * 80)),
                str(Path(tmp) / "s.pdf"),
                str(OUT / "sheet-folded"),
            ],
            check=True,
        )
    html = render_glossary(glossary, PrintOptions())
    (OUT / "web-phone.png").write_bytes(screenshot(html, width=390, height=844))
    print(
        f"wrote card.png, card-phone-light.png, card-phone-night.png, glossary-page.png (page {page}), sheet-folded.png and web-phone.png in {OUT}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
