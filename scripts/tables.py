"""What the table generators share: write a generated table, or (``--check``) compare it with the shipped one."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def generate(
    description: str,
    out: Path,
    make: Callable[[], str],
    source: str,
    counted: str,
    script: str,
    header_lines: int = 0,
) -> int:
    """The generator's command line: write ``make()`` to ``out``, or with ``--check`` only say
    whether ``out`` is current (exit 1 naming ``source`` and the command to run when it is not)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument(
        "--check", action="store_true", help="compare with the shipped table; write nothing"
    )
    args = parser.parse_args()
    text = make()
    if args.check:
        shipped = out.read_text(encoding="utf-8") if out.exists() else ""
        if shipped != text:
            print(
                f"{out.relative_to(ROOT)} differs from {source}: run python scripts/{script}",
                file=sys.stderr,
            )
            return 1
        return 0
    out.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {out.relative_to(ROOT)}: {text.count(chr(10)) - header_lines} {counted}")
    return 0
