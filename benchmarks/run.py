#!/usr/bin/env python3
"""Benchmarks for the citation checker (issue: a checker that scales). Prints one report.

(a) `check` of the shipped glossary vs one read-and-normalise pass of the corpus, inside one
    process: with the corpus index cached, after editing one quote, on a first run, with the
    cache off;
(a') whole processes, interleaved (the targets): `glossary check` with a warm cache, and the
    contributor's loop (one entry edited, then `glossary check`), vs the read-and-fold process
    (a fresh `python -c` that reads every corpus/**/*.txt and folds it with OpenCC's t2s), and
    `glossary --help` vs `python -c pass`; and the contributor's other loops on the edited
    file, `fmt --check` and `preview bi`, against that edited check (issue 28: as fast as it);
    wall-clock and CPU time (user + system) of each, medians of --runs rounds;
(b) a synthetic 10 M-character corpus built from the real 禮經本義 text with 10 k citations
    (exact, variant-form, other-script and misquoted): our checker vs a naive per-quote scan
    (normalise, str.find per quote, rapidfuzz window over the whole text on a miss), with peak
    memory (RSS of a fresh process for each side); then the same through the cache;
(c) `glossary --help` start-up vs `python -c pass` (from (a'));
(d) the full build of the shipped glossary (decks, HTML, terms.json; no PDF);
(e) check time at 1, 2, 5 and 10 M characters;
(f) the Anki plan drawings of the largest plan check accepts (scattered, and piled on one spot);
(w) with --web-only: glossary.html on a slow phone (benchmarks/web.py: 390 px, CPU slowed 4×);
(r) with --reader-only: the reader view's pages, read/<rite>.html, likewise (benchmarks/reader.py);
(q) with --tests-only: the quick tests' CPU time against their 30 s target (benchmarks/quick_tests.py).

Usage: python benchmarks/run.py [--quick] [--processes-only] [--plan-only] [--web-only]
                                [--reader-only] [--tests-only] [--runs N] [--against TREE]
   (--quick: 2 M characters, 2 k citations; --processes-only: only (a'), the start-up targets)
No timed assertions live in the tests; the numbers go in docs/benchmarks.md. The cache is a
temporary folder of the script's own, never the user's.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The parts, beside this script (the folder is on sys.path when it runs).
from common import ROOT, median_time
from processes import bench_processes, report_processes
from synthetic import bench_synthetic


# -- (a) ---------------------------------------------------------------------------------
def bench_shipped(cache_dir: Path) -> dict:
    """In-process times (imports done): what a check costs beyond starting Python."""
    from glossary.cache import IndexCache
    from glossary.check import check_project
    from glossary.normalize import normalize_with_map

    files = sorted((ROOT / "corpus").rglob("*.txt"))
    terms, corpus = ROOT / "terms.yaml", ROOT / "corpus"

    def read_and_normalise() -> None:
        for path in files:
            normalize_with_map(path.read_text(encoding="utf-8"))

    def check(folder: str | None, terms: Path = terms):
        # A new IndexCache each time, as each run of the command makes one.
        return check_project(terms, corpus, cache=IndexCache(folder))

    check(None)  # warm imports and in-process tables
    baseline = median_time(read_and_normalise, runs=7)
    no_cache = median_time(lambda: check(None), runs=3)
    first = tempfile.mkdtemp(prefix="glossary-cache-", dir=cache_dir)
    cold = median_time(lambda: check(first), runs=1)  # reads the corpus, writes the cache
    warm = median_time(lambda: check(first), runs=9)
    # An edit: one quote changed to another real passage, which the cache has never seen.
    edited = Path(first) / "terms-edited.yaml"
    text = terms.read_text(encoding="utf-8")
    edited.write_text(
        text.replace(
            "quote: 楅长如笴博三寸厚寸有半龙首其中蛇交韦当", "quote: 楅长如笴博三寸厚寸有半龙首", 1
        ),
        encoding="utf-8",
    )
    assert edited.read_text(encoding="utf-8") != text
    shutil.copy(ROOT / "plan.yaml", Path(first) / "plan.yaml")

    def check_edit() -> float:
        start = time.perf_counter()
        report = check(first, edited)
        elapsed = time.perf_counter() - start
        assert report.verified == report.citations, "the edited quote must still be a real passage"
        return elapsed

    edit = statistics.median(check_edit() for _ in range(5))
    chars = sum(len(p.read_text(encoding="utf-8")) for p in files)
    return {
        "corpus_chars": chars,
        "read_normalise_s": baseline,
        "no_cache_s": no_cache,
        "cold_s": cold,
        "check_s": warm,
        "edit_s": edit,
        "ratio": warm / baseline,
    }


# -- (d) --------------------------------------------------------------------------------
def bench_build() -> dict:
    with tempfile.TemporaryDirectory(prefix="glossary-build-") as tmp:
        project = Path(tmp) / "p"
        project.mkdir()
        for name in ("terms.yaml", "plan.yaml", "anki-ledger.json"):
            if (ROOT / name).exists():
                shutil.copy(ROOT / name, project / name)
        env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
        command = [
            sys.executable,
            "-m",
            "glossary",
            "build",
            "--terms",
            str(project / "terms.yaml"),
            "--corpus",
            str(ROOT / "corpus"),
            "--out",
            str(Path(tmp) / "dist"),
        ]
        seconds = median_time(
            lambda: subprocess.run(command, capture_output=True, check=True, env=env), runs=3
        )
    return {"build_s": seconds}


def bench_plan() -> dict:
    """(f) The Anki plan drawings (two per place) of the largest plan `check` accepts: the shipped
    plan's places, then copies of them up to the schema's maximum, scattered at random or all
    piled on one spot (every label crowded out), against the shipped plan's own."""
    from dataclasses import replace

    from glossary.model import Plan
    from glossary.plan import load_plan
    from glossary.render.plan_svg import render_svg
    from glossary.schema import schema

    shipped, _ = load_plan(ROOT / "plan.yaml")
    assert shipped is not None
    most = schema("plan.schema.json")["properties"]["places"]["maxItems"]

    def draw(plan: Plan) -> float:
        start = time.perf_counter()
        for place in plan.places:
            render_svg(plan, place.id, "t")
            render_svg(plan, place.id, "t", labels=False)
        return time.perf_counter() - start

    def grown(spread: str) -> Plan:
        rng = random.Random(1)
        places = list(shipped.places)
        for i in range(most - len(places)):
            p = shipped.places[i % len(shipped.places)]
            x, y = (
                (shipped.width / 2, shipped.height / 2)
                if spread == "piled"
                else (rng.uniform(0, shipped.width - p.w), rng.uniform(0, shipped.height - p.h))
            )
            places.append(replace(p, id=f"{p.id}-{i}", x=x, y=y))
        return Plan(shipped.width, shipped.height, tuple(places))

    return {
        "shipped_places": len(shipped.places),
        "most": most,
        "shipped_s": draw(shipped),
        "random_s": draw(grown("random")),
        "piled_s": draw(grown("piled")),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--processes-only", action="store_true", help="only (a'): the whole-process targets"
    )
    parser.add_argument(
        "--runs", type=int, default=11, help="interleaved rounds of (a') (default 11)"
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="(a') also times the checks of this tree of the project (e.g. `git archive` of an "
        "earlier commit), in the same rounds",
    )
    parser.add_argument("--plan-only", action="store_true", help="only (f): the plan drawings")
    parser.add_argument(
        "--web-only",
        action="store_true",
        help="only (w): the web page on a slow phone (benchmarks/web.py, its own options there)",
    )
    parser.add_argument(
        "--reader-only",
        action="store_true",
        help="only (r): the reader view on a slow phone (benchmarks/reader.py, its own options there)",
    )
    parser.add_argument(
        "--tests-only",
        action="store_true",
        help="only (q): the quick tests' CPU time (benchmarks/quick_tests.py, its own options there)",
    )
    args = parser.parse_args()
    if args.tests_only:
        import quick_tests  # benchmarks/quick_tests.py, beside this script

        return quick_tests.main([])
    if args.reader_only:
        import reader  # benchmarks/reader.py, beside this script

        return reader.main([])
    if args.plan_only:
        report_plan()
        return 0
    if args.web_only:
        import web  # benchmarks/web.py, beside this script

        return web.main([])
    sizes = [1_000_000, 2_000_000] if args.quick else [1_000_000, 2_000_000, 5_000_000, 10_000_000]
    count = 2_000 if args.quick else 10_000
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.platform()}"
    print(f"# Benchmarks — {machine}")
    # Bytecode is written (by the first run of each process), as in any ordinary install: with
    # PYTHONDONTWRITEBYTECODE set, every process would compile each module edited since its .pyc.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    # Never the user's own cache: every run starts from an empty one.
    cache_dir = Path(tempfile.mkdtemp(prefix="glossary-bench-cache-"))
    os.environ["GLOSSARY_CACHE_DIR"] = str(cache_dir)
    try:
        return report(args, sizes, count, cache_dir)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)


def report(args: argparse.Namespace, sizes: list[int], count: int, cache_dir: Path) -> int:
    p = bench_processes(cache_dir, args.runs, args.against.resolve() if args.against else None)
    report_processes(p)
    if args.processes_only:
        return 0
    a = bench_shipped(cache_dir)
    base = a["read_normalise_s"]
    print(
        f"(a) one read+normalise pass of the corpus ({a['corpus_chars']:,} chars): {base * 1000:.0f} ms"
    )
    print(
        f"    check of the shipped glossary, corpus index from the cache: {a['check_s'] * 1000:.0f} ms = {a['ratio']:.2f}×"
    )
    print(
        f"      after editing one quote (searched afresh): {a['edit_s'] * 1000:.0f} ms = {a['edit_s'] / base:.2f}×"
    )
    print(
        f"      first run, empty cache (reads the corpus, writes the cache): {a['cold_s'] * 1000:.0f} ms = {a['cold_s'] / base:.2f}×"
    )
    print(
        f"      cache off (--no-cache): {a['no_cache_s'] * 1000:.0f} ms = {a['no_cache_s'] / base:.2f}×"
    )
    b = bench_synthetic(sizes, count, naive_sample=200 if not args.quick else 60)
    top = b["sizes"][max(sizes)]
    naive = b["naive"]
    print(
        f"(b) {top['corpus_chars']:,} chars ({top['utf8_mb']:.1f} MB UTF-8), {count:,} citations {b['mix']}:"
    )
    print(
        f"    ours: {top['seconds']:.1f} s (load+index {top['load_index_s']:.1f} s, check {top['check_s']:.1f} s), "
        f"{top['verified']:,} verified, peak RSS {top['check_peak_mb']:.0f} MB "
        f"= {top['check_peak_mb'] / top['utf8_mb']:.1f}× the corpus text"
    )
    print(
        f"    resolving all {top['loci']:,} occurrences to loci (JSON output, build) adds {top['loci_s']:.1f} s, "
        f"peak RSS then {top['peak_rss_mb']:.0f} MB"
    )
    first, warm = b["cache_first"], b["cache_warm"]
    print(
        f"    through the cache: first run {first['seconds']:.1f} s (writes {first['cache_mb']:.0f} MB); "
        f"next run {warm['seconds']:.1f} s (open {warm['open_s']:.1f} s, check {warm['check_s']:.1f} s), "
        f"{warm['verified']:,} verified, peak RSS {warm['peak_rss_mb']:.0f} MB"
    )
    print(
        f"    naive: normalise {naive['normalise_s']:.1f} s + {naive['scan_s']:.1f} s for {naive['sample']} quotes "
        f"→ {naive['extrapolated_s']:.0f} s for {count:,} (extrapolated); speed-up {naive['extrapolated_s'] / top['seconds']:.0f}×"
    )
    print(
        f"(c) glossary --help {p['help']['wall_s'] * 1000:.0f} ms vs python -c pass {p['python']['wall_s'] * 1000:.0f} ms: "
        f"{p['help_ratio_wall_s']:.1f}× (see (a'))"
    )
    d = bench_build()
    print(f"(d) full build of the shipped glossary (no PDF): {d['build_s']:.1f} s")
    print("(e) check time by corpus size:")
    for _size, result in sorted(b["sizes"].items()):
        print(
            f"    {result['corpus_chars'] / 1e6:5.1f} M chars: {result['seconds']:6.1f} s "
            f"({result['seconds'] / (result['corpus_chars'] / 1e6):.2f} s per M), peak RSS {result['check_peak_mb']:.0f} MB"
        )
    report_plan()
    return 0


def report_plan() -> None:
    f = bench_plan()
    print("(f) Anki plan drawings, two per place (target: seconds for any plan check accepts):")
    print(f"    shipped plan, {f['shipped_places']} places: {f['shipped_s']:.2f} s")
    print(f"    {f['most']} places (the schema's maximum), scattered: {f['random_s']:.2f} s")
    print(f"    {f['most']} places, piled on one spot: {f['piled_s']:.2f} s")


if __name__ == "__main__":
    sys.exit(main())
