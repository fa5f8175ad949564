#!/usr/bin/env python3
"""Where the second reading of the entries stands (docs/review/RUBRIC.md).

Usage: python scripts/review_status.py [--check] [terms.yaml]

Prints how many entries have a record in docs/review/records/*.yaml, the verdicts and the rules
at fault (of the second readings, then of the rereads), and the records that name no entry of
terms.yaml or read one a second time twice. A record with ``reread:`` (why the entry was read
again: an edit made after its second reading, the final sample) is a later reading of an entry
that has its second reading elsewhere. ``--check`` exits 1 unless every entry has exactly one
second reading and every record is well formed.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from glossary.load import load_yaml  # noqa: E402
from glossary.validate import load_entries  # noqa: E402

VERDICTS = ("faithful", "minor", "wrong")
RULES = tuple(f"R{n}" for n in range(1, 9))


def read_records(folder: Path) -> tuple[list[dict[str, object]], list[str]]:
    """Every record of every batch file, with the problems of their form."""
    records: list[dict[str, object]] = []
    problems: list[str] = []
    for path in sorted(folder.glob("*.yaml")):
        loaded = load_yaml(path)
        problems += [str(p) for p in loaded.problems]
        if not isinstance(loaded.data, list):
            problems.append(f"{path.name}: not a list of records")
            continue
        for n, record in enumerate(loaded.data):
            where = f"{path.name}[{n}]"
            if not isinstance(record, dict) or not isinstance(record.get("id"), str):
                problems.append(f"{where}: a record is a mapping with an id")
                continue
            if record.get("verdict") not in VERDICTS:
                problems.append(f"{where}: {record['id']}: verdict is one of {', '.join(VERDICTS)}")
            rules = record.get("rules") or []
            if not isinstance(rules, list) or any(rule not in RULES for rule in rules):
                problems.append(f"{where}: {record['id']}: rules are codes R1–R8")
            elif record.get("verdict") == "faithful" and rules:
                problems.append(f"{where}: {record['id']}: a faithful entry has no rule at fault")
            elif record.get("verdict") in ("minor", "wrong") and not rules:
                problems.append(f"{where}: {record['id']}: name the rules at fault (R1–R8)")
            reread = record.get("reread")
            if reread is not None and not (isinstance(reread, str) and reread.strip()):
                problems.append(
                    f"{where}: {record['id']}: reread says why the entry was read again"
                )
            records.append({**record, "batch": path.stem})
    return records, problems


def main(argv: list[str]) -> int:
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    if unknown := [a for a in argv if a.startswith("-") and a != "--check"]:
        print(f"unknown option {unknown[0]} (see --help)", file=sys.stderr)
        return 2
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    terms = Path(args[0]) if args else ROOT / "terms.yaml"
    entries, _ = load_entries(terms)
    ids = [entry.id for entry in entries]
    records, problems = read_records(ROOT / "docs" / "review" / "records")
    firsts = [r for r in records if r.get("reread") is None]
    rereads = [r for r in records if r.get("reread") is not None]
    seen = Counter(str(r["id"]) for r in firsts)
    problems += [
        f"{i}: {n} second readings (mark later ones reread:)"
        for i, n in sorted(seen.items())
        if n > 1
    ]
    problems += [f"{i}: no such entry" for i in sorted({str(r["id"]) for r in records} - set(ids))]
    problems += [
        f"{r['batch']}: {r['id']}: a reread of an entry with no second reading"
        for r in rereads
        if r["id"] in ids and r["id"] not in seen
    ]
    missing = [i for i in ids if i not in seen]
    print(f"{len(ids) - len(missing)} of {len(ids)} entries read a second time")
    for name, group in (("second readings", firsts), ("rereads", rereads)):
        if not group:
            continue
        verdicts = Counter(str(r.get("verdict")) for r in group)
        # (a record whose rules are no list is a problem above, and counts no rule)
        rules = Counter(
            rule for r in group if isinstance(listed := r.get("rules"), list) for rule in listed
        )
        print(
            f"{name} ({len(group)}): "
            + ", ".join(f"{v} {verdicts[v]}" for v in VERDICTS)
            + "; rules at fault: "
            + (", ".join(f"{r} {rules[r]}" for r in RULES if rules[r]) or "none")
        )
    for problem in problems:
        print(f"problem: {problem}")
    if check and (missing or problems):
        print(f"{len(missing)} entries have no record", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
