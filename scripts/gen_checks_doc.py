#!/usr/bin/env python3
"""Write docs/checks.md from the registry of rules (glossary/rules/codes.py).

Usage: python scripts/gen_checks_doc.py [--check]   (--check: exit 1 if the file is stale)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glossary.rules.docs import checks_markdown  # noqa: E402

TARGET = ROOT / "docs" / "checks.md"


def main() -> int:
    text = checks_markdown()
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    if "--check" in sys.argv[1:]:
        if current != text:
            print(f"{TARGET.relative_to(ROOT)} is stale: run python scripts/gen_checks_doc.py")
            return 1
        return 0
    if current != text:
        TARGET.write_text(text, encoding="utf-8")
        print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
