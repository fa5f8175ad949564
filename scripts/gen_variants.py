#!/usr/bin/env python3
"""Generate the variant tables: glossary/data/variants.tsv (folds) and edition_variants.tsv.

Inputs (all in the repository, so the tables can be regenerated offline):
- data/yitizi/                            the typed variant graph of yitizi v0.1.3 (nk2028, CC0 1.0;
                                           the tables its published ``yitizi`` package is built from)
- data/unihan/Unihan_Variants-15.0.0.txt  (Unicode's Unihan variant data)
- data/variants_curated.tsv               (hand-checked additions with provenance)
- data/protected.tsv                      (ritual characters never folded)
- data/edition_variants.tsv               (edition variants with provenance: never folded)

"Standard" means encodable in GB2312 or Big5 (glossary/standard.py). A fold maps a non-standard form (an old or
edition-specific form: 賔, 髙, 歩, 戸) to a standard character; standard characters are never
folded into each other by the automatic sources, since semantic variants of standard
characters often differ in ritual meaning (於/亏, 楅/福, 醋/酢). The "key" of a standard
character is its OpenCC traditional→simplified form (the run-time fold after this table).

Rules, first that applies wins, each row recording its source:
1. protected  identity rows: the run-time folder leaves these alone (OpenCC included).
2. curated    data/variants_curated.tsv (hand-checked; may fold a standard character, with
              its reason: 荅→答, 筭→算).
3. yitizi     a non-standard character whose yitizi 全等 (equivalent: interchangeable in most
              texts) class holds standard characters that all share one key (歩→步, 懐→懷);
              else whose 其他異體 (other variants, ytenx ThaJihThex.csv) do (厯→歷, 㦸→戟); else
              whose 簡體 (simplified forms) do (彞→彝: a traditional form outside Big5 that
              OpenCC does not simplify). Intersecting variants (語義交疊: interchangeable only in
              some senses) never fold.
4. unihan     a non-standard character whose kZVariant, else kSemanticVariant, else
              kSimplifiedVariant targets are standard and all share one key (戸→戶/户, 賔→賓).
              (Tried in the order of RELATIONS: the 簡體 of rule 3 after Unihan's variants.)
5. unihan     a simplified form (GB2312) that Unihan gives exactly one traditional form for, a
              Big5 character that OpenCC folds elsewhere (馀: kTraditionalVariant 餘, which OpenCC
              folds to 余): the simplified form follows its traditional form. A script gap, not
              a merger of two characters.

Usage: python scripts/gen_variants.py [--check] [--report]
  --check   fail if a generated table is out of date
  --report  also print where the sources disagree (for review when a source is updated)
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import opencc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from glossary.standard import is_big5, is_gb2312, is_standard  # noqa: E402  (one home for "standard")

YITIZI = ROOT / "data" / "yitizi"
UNIHAN = ROOT / "data" / "unihan" / "Unihan_Variants-15.0.0.txt"
CURATED = ROOT / "data" / "variants_curated.tsv"
PROTECTED = ROOT / "data" / "protected.tsv"
EDITIONS = ROOT / "data" / "edition_variants.tsv"
OUT = ROOT / "glossary" / "data" / "variants.tsv"
EDITIONS_OUT = ROOT / "glossary" / "data" / "edition_variants.tsv"
FIELDS = ("kZVariant", "kSemanticVariant", "kSimplifiedVariant")

#: Corrections that yitizi's own build (build/build_lib/loaders.py at v0.1.3) applies to the ytenx
#: tables: characters wrongly listed as equivalents, and equivalent pairs that are not.
YITIZI_EXCLUDED_CHARS = frozenset("苎蒙懞矇朦芸弁皝")
YITIZI_EXCLUDED_PAIRS = frozenset(
    {("瀋", "沉"), ("干", "乾"), ("榦", "乾"), ("搋", "弌"), ("坯", "壊"), ("坯", "壞")}
)

_T2S = opencc.OpenCC("t2s")


def script_key(ch: str) -> str:
    """What OpenCC makes of a character at run time (traditional → simplified)."""
    simplified = _T2S.convert(ch)
    return simplified if len(simplified) == 1 else ch


def read_tsv(path: Path) -> list[list[str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


# -- yitizi ----------------------------------------------------------------------------------
class _Classes:
    """Union–find over characters: yitizi's equivalence (全等) classes."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, ch: str) -> str:
        self.parent.setdefault(ch, ch)
        while self.parent[ch] != ch:
            self.parent[ch] = self.parent[self.parent[ch]]
            ch = self.parent[ch]
        return ch

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def groups(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for ch in self.parent:
            out.setdefault(self.find(ch), set()).add(ch)
        return out


def _ytenx_rows(folder: Path) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    for name in ("JihThex.csv", "ThaJihThex.csv"):
        with (folder / "ytenx" / name).open(encoding="utf-8", newline="") as handle:
            rows.extend(
                row for row in csv.DictReader(handle) if row["#字"] not in YITIZI_EXCLUDED_CHARS
            )
    return rows


def read_yitizi(folder: Path) -> dict[str, dict[str, set[str]]]:
    """yitizi's typed relations: {"全等": char → its equivalence class, "其他異體": char → its
    other variants, "簡體": char → its simplified forms}.

    Read as yitizi's build reads them: ytenx's JihThex.csv and ThaJihThex.csv, and the ``=``
    (equivalent) and ``>`` (simplified) lines of yitizi.txt (its own corrections), less the
    characters and pairs its build excludes.
    """
    classes = _Classes()
    other: dict[str, set[str]] = {}
    simplified: dict[str, set[str]] = {}
    for row in _ytenx_rows(folder):
        entry = row["#字"]
        for ch in row.get("全等") or "":
            if (
                ch in YITIZI_EXCLUDED_CHARS
                or (entry, ch) in YITIZI_EXCLUDED_PAIRS
                or (ch, entry) in YITIZI_EXCLUDED_PAIRS
            ):
                continue
            classes.union(entry, ch)
        other.setdefault(entry, set()).update(
            ch for ch in row.get("其他異體") or "" if ch not in YITIZI_EXCLUDED_CHARS
        )
        simplified.setdefault(entry, set()).update(
            ch for ch in row.get("簡體") or "" if ch not in YITIZI_EXCLUDED_CHARS
        )
    for line in (folder / "yitizi.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if len(line) >= 3 and line.startswith("="):
            for ch in line[2:]:
                classes.union(line[1], ch)
        elif len(line) >= 3 and line[1] == ">":
            simplified.setdefault(line[0], set()).update(line[2:])
    equivalent = {
        ch: group for group in classes.groups().values() if len(group) > 1 for ch in group
    }
    return {"全等": equivalent, "其他異體": other, "簡體": simplified}


# -- Unihan ----------------------------------------------------------------------------------
def read_unihan(path: Path, fields: tuple[str, ...]) -> dict[str, dict[str, list[str]]]:
    table: dict[str, dict[str, list[str]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        codepoint, field, value = line.split("\t")
        if field not in fields:
            continue
        source = chr(int(codepoint[2:], 16))
        targets = [chr(int(v.split("<")[0][2:], 16)) for v in value.split()]
        table.setdefault(source, {})[field] = targets
    return table


def one_key(targets: list[str] | set[str], protected: set[str]) -> str | None:
    """The standard target, when every standard target shares one key (None if none or several).

    Of the targets, the traditional (Big5) form is named, so the table reads 戸→戶 rather than 戸→户.
    """
    standard = sorted({t for t in targets if is_standard(t)})
    if not standard or any(t in protected for t in standard):
        return None
    if len({script_key(t) for t in standard}) != 1:
        return None
    return min(standard, key=lambda t: (not is_big5(t), t))


# -- the tables ------------------------------------------------------------------------------
#: standard, source, note
Fold = tuple[str, str, str]


#: The relations that fold a non-standard character, in the order they are tried: the meaning-level
#: ones (yitizi's typed equivalents and other variants, then Unihan's) before the script-level ones
#: (a traditional form outside Big5 → its simplified form).
RELATIONS = (
    ("yitizi", "全等", "equivalent"),
    ("yitizi", "其他異體", "other variant"),
    ("unihan", "kZVariant", "z-variant"),
    ("unihan", "kSemanticVariant", "semantic variant"),
    ("yitizi", "簡體", "simplified form"),
    ("unihan", "kSimplifiedVariant", "simplified form"),
)


def candidate_folds(protected: set[str]) -> dict[str, list[Fold]]:
    """Every fold a relation gives a character, in the order of :data:`RELATIONS`."""
    related: dict[tuple[str, str], dict[str, set[str]]] = {
        ("yitizi", kind): table for kind, table in read_yitizi(YITIZI).items()
    }
    unihan = read_unihan(UNIHAN, FIELDS + ("kTraditionalVariant",))
    for field in FIELDS:
        related[("unihan", field)] = {
            ch: set(fields[field]) for ch, fields in unihan.items() if field in fields
        }
    found: dict[str, list[Fold]] = {}
    for source, kind, name in RELATIONS:
        for ch, targets in sorted(related[(source, kind)].items()):
            if is_standard(ch) or ch in protected:
                continue
            target = one_key(targets - {ch}, protected)
            if target is not None:
                found.setdefault(ch, []).append(
                    (target, source, kind if source == "unihan" else f"{kind} ({name})")
                )
    for ch, fields in sorted(unihan.items()):
        traditional = [t for t in fields.get("kTraditionalVariant", []) if t != ch]
        if (
            is_gb2312(ch)
            and ch not in protected
            and len(fields.get("kTraditionalVariant", [])) == 1
            and traditional
            and is_big5(traditional[0])
            and traditional[0] not in protected
            and script_key(traditional[0]) not in (ch, *protected)
        ):
            target = traditional[0]
            found.setdefault(ch, []).append(
                (
                    target,
                    "unihan",
                    f"kTraditionalVariant (its one traditional form, which OpenCC folds to "
                    f"{script_key(target)})",
                )
            )
    return found


def fold_table(report: bool = False) -> dict[str, Fold]:
    """Every fold, by the rules above: variant → (standard, source, note)."""
    protected = {row[0] for row in read_tsv(PROTECTED)}
    folds: dict[str, Fold] = {}
    for ch, candidates in sorted(candidate_folds(protected).items()):
        folds[ch] = candidates[0]
        if report and len({script_key(f[0]) for f in candidates}) > 1:
            print(
                f"sources disagree on {ch}: "
                + ", ".join(f"{f[1]} {f[2]} {f[0]}" for f in candidates),
                file=sys.stderr,
            )
    for variant, standard, provenance in read_tsv(CURATED):
        if variant in protected or standard in protected:
            raise SystemExit(f"curated fold {variant}→{standard} touches a protected character")
        if variant in folds and script_key(folds[variant][0]) == script_key(standard):
            # A maintained source has it now: the table names that source, and the curated list
            # keeps only what no source gives (or what a source gets wrong).
            raise SystemExit(
                f"curated fold {variant}→{standard} is {folds[variant][1]}'s too: remove it "
                f"from {CURATED.relative_to(ROOT)}"
            )
        folds[variant] = (standard, "curated", provenance)
    for char, reason in read_tsv(PROTECTED):
        # Identity rows tell the run-time folder not to touch these (OpenCC included).
        folds[char] = (char, "protected", reason)
    for variant, (standard, source, _note) in folds.items():
        if variant != standard and standard in protected:
            raise SystemExit(f"{source} fold {variant}→{standard} folds into a protected character")
    return folds


def generate(folds: dict[str, Fold]) -> str:
    lines = [
        "# Generated by scripts/gen_variants.py from data/yitizi (yitizi v0.1.3, CC0 1.0), data/unihan",
        "# (Unicode 15.0, Unicode licence), data/variants_curated.tsv and data/protected.tsv.",
        "# Do not edit: edit the inputs and regenerate.",
        "# variant\tstandard\tsource\tnote",
    ]
    for variant in sorted(folds):
        standard, source, note = folds[variant]
        lines.append(f"{variant}\t{standard}\t{source}\t{note}")
    return "\n".join(lines) + "\n"


def run_key(ch: str, folds: dict[str, Fold]) -> str:
    """The matching key of a character at run time: the fold table, then OpenCC, until it settles."""
    seen = {ch}
    while True:
        standard, source, _ = folds.get(ch, (ch, "", ""))
        if source == "protected":
            return ch
        following = script_key(standard)
        following = folds.get(following, (following,))[0]
        if following in seen:
            return following
        seen.add(following)
        ch = following


def generate_editions(folds: dict[str, Fold]) -> str:
    """The edition-variant pairs, checked: two unprotected characters that no fold merges, with provenance."""
    protected = {row[0] for row in read_tsv(PROTECTED)}
    seen: set[frozenset[str]] = set()
    lines = [
        "# Generated by scripts/gen_variants.py from data/edition_variants.tsv. Do not edit: edit the",
        "# input and regenerate. Pairs editions write for one another; a quote that needs one verifies",
        "# with a warning naming the pair and its provenance.",
        "# a\tb\tsource\tlocus",
    ]
    for row in read_tsv(EDITIONS):
        if len(row) != 4 or not all(cell.strip() for cell in row):
            raise SystemExit(
                f"edition variant {row!r}: four columns a, b, source, locus, none empty"
            )
        a, b, source, locus = row
        if len(a) != 1 or len(b) != 1 or a == b:
            raise SystemExit(f"edition variant {a}/{b}: two different single characters")
        if a in protected or b in protected:
            raise SystemExit(f"edition variant {a}/{b} touches a protected character")
        if run_key(a, folds) == run_key(b, folds):
            raise SystemExit(f"edition variant {a}/{b}: the fold table already merges them")
        if frozenset((a, b)) in seen:
            raise SystemExit(f"edition variant {a}/{b} is listed twice")
        seen.add(frozenset((a, b)))
        lines.append("\t".join(row))
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a table is out of date")
    parser.add_argument("--report", action="store_true", help="print where the sources disagree")
    args = parser.parse_args()
    folds = fold_table(args.report)
    outputs = {OUT: generate(folds), EDITIONS_OUT: generate_editions(folds)}
    stale = [
        path
        for path, text in outputs.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    if args.check:
        for path in stale:
            print(
                f"{path.relative_to(ROOT)} is out of date: run scripts/gen_variants.py",
                file=sys.stderr,
            )
        return 1 if stale else 0
    for path, text in outputs.items():
        path.write_text(text, encoding="utf-8")
        rows = sum(1 for line in text.splitlines() if not line.startswith("#"))
        print(f"wrote {path.relative_to(ROOT)}: {rows} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
