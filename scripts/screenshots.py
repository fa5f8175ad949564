#!/usr/bin/env python3
"""Make the README's pictures: the cards of one entry, and one page of the printed glossary.

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
from glossary.render.pdf import print_pdf, screenshot  # noqa: E402
from glossary.render.printed import PrintOptions, render_glossary  # noqa: E402

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
    pdf = print_pdf(render_glossary(glossary, PrintOptions()))
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "g.pdf").write_bytes(pdf)
        if not page:
            # The page that holds the entry: find its §-number's page with pdftotext.
            text = subprocess.run(["pdftotext", "-layout", str(Path(tmp) / "g.pdf"), "-"], capture_output=True,
                                  text=True, check=True).stdout
            page = next(i + 1 for i, p in enumerate(text.split("\f")) if f"id: {entry_id}" in p)
        subprocess.run(["pdftoppm", "-r", "80", "-f", str(page), "-l", str(page), "-png", "-singlefile",
                        str(Path(tmp) / "g.pdf"), str(OUT / "glossary-page")], check=True)
    print(f"wrote {OUT / 'card.png'}, card-phone-light.png, card-phone-night.png and {OUT / 'glossary-page.png'} (page {page})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
