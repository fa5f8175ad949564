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
import hashlib
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SOURCE = ROOT / "corpus" / "kanripo" / "KR1d0044"


def median_time(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_subprocess(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints a JSON dict; peak RSS is added."""
    wrapper = (
        code
        + "\nimport resource, json, sys\nRESULT['peak_rss_mb'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\nprint(json.dumps(RESULT))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", wrapper], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


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


# -- (a'), (c): whole processes ----------------------------------------------------------
#: The read-and-fold process: what the whole `glossary check` is measured against, as issue 12
#: defined it: a fresh Python that reads the whole corpus and folds it with OpenCC (traditional →
#: simplified). Not the project's own fold (``normalize_with_map``: OpenCC character by character,
#: the variant table, the offset maps), which costs several times more and would make the same
#: check look faster than it is.
READ_AND_FOLD = """
from pathlib import Path
import opencc
convert = opencc.OpenCC("t2s").convert
for path in sorted(Path("corpus").rglob("*.txt")):
    convert(path.read_text(encoding="utf-8"))
"""


def glossary_command() -> list[str]:
    """The installed `glossary` script beside this Python, else `python -m glossary`."""
    script = Path(sys.executable).with_name("glossary")
    return [str(script)] if script.exists() else [sys.executable, "-m", "glossary"]


def bench_processes(cache_dir: Path, runs: int, against: Path | None = None) -> dict:
    """Medians of ``runs`` interleaved rounds of four fresh processes (a first round only warms).

    Each round runs the four in a rotated order, so a slow spell of the machine falls on all
    of them alike. CPU time (user + system, from the children's rusage) is reported beside
    the wall clock: it moves less when other work shares the machine. ``against``: another
    tree of the project (an earlier commit, exported): its warm and edited checks run in the
    same rounds, and both trees' through ``python -m glossary`` from their own folder.
    """
    folder = tempfile.mkdtemp(prefix="glossary-cache-", dir=cache_dir)
    env = {**os.environ, "GLOSSARY_CACHE_DIR": folder}
    # The contributor's loop: one entry's gloss changed before each run (a new text each time, so
    # every run meets one entry no earlier run kept), the rest as the warm check; a cache of its own.
    edited = Path(tempfile.mkdtemp(prefix="glossary-edit-", dir=cache_dir))
    for name in ("plan.yaml", "retired.yaml"):
        shutil.copy(ROOT / name, edited / name)
    text = (ROOT / "terms.yaml").read_text(encoding="utf-8")
    versions = [
        text.replace("  gloss: arrow rack\n", f"  gloss: arrow rack {n}\n", 1)
        for n in range(runs + 2)
    ]
    assert versions[0] != text, "the edited entry (bi) is gone: choose another"
    edit_env = {
        **os.environ,
        "GLOSSARY_CACHE_DIR": tempfile.mkdtemp(prefix="glossary-cache-", dir=cache_dir),
    }
    glossary = [sys.executable, "-m", "glossary"] if against else glossary_command()
    commands = {
        "python": [sys.executable, "-c", "pass"],
        "fold": [sys.executable, "-c", READ_AND_FOLD],
        "check": [*glossary, "check"],
        "edit": [*glossary, "check", "--terms", str(edited / "terms.yaml")],
        # The contributor's other two loops (issue 28: as fast as `check`), on the edited file.
        "fmt": [*glossary, "fmt", "--check", "--terms", str(edited / "terms.yaml")],
        "preview": [
            *glossary,
            "preview",
            "bi",
            "--terms",
            str(edited / "terms.yaml"),
            "--out",
            str(edited / "preview-bi.html"),
        ],
        "help": [*glossary, "--help"],
    }
    if against:  # an earlier tree may not have them
        del commands["fmt"], commands["preview"]
    # Where each command runs, and its environment.
    contributor = ("edit", "fmt", "preview")
    places = {name: (ROOT, edit_env if name in contributor else env) for name in commands}
    if against:
        places = {n: (cwd, {**e, "PYTHONPATH": str(ROOT)}) for n, (cwd, e) in places.items()}
        for name in ("check", "edit"):
            commands[f"{name}@before"] = commands[name]
            folder = tempfile.mkdtemp(prefix="glossary-cache-", dir=cache_dir)
            places[f"{name}@before"] = (
                against,
                {**os.environ, "PYTHONPATH": str(against), "GLOSSARY_CACHE_DIR": folder},
            )
    (edited / "terms.yaml").write_text(versions[-1], encoding="utf-8")
    first: subprocess.CompletedProcess[bytes] | None = None  # the first check's output
    for name in commands:  # writes the caches (and bytecode)
        cwd, environment = places[name]
        done = subprocess.run(
            commands[name], cwd=cwd, env=environment, capture_output=True, check=True
        )
        if name == "check":
            first = done
    assert first is not None, "the commands include the check"
    wall: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    names = list(commands)
    for round_ in range(runs + 1):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            if name.startswith(contributor):
                (edited / "terms.yaml").write_text(versions[round_], encoding="utf-8")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            cwd, environment = places[name]
            done = subprocess.run(
                commands[name], cwd=cwd, env=environment, capture_output=True, check=True
            )
            elapsed = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if name.startswith("check"):
                assert done.stdout == first.stdout, "a warm check must print what the first one did"
            if round_:
                wall[name].append(elapsed)
                cpu[name].append(
                    after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                )
    result: dict = {"runs": runs, "summary": first.stdout.decode().strip().splitlines()[-1]}
    for name in commands:
        result[name] = {
            "wall_s": statistics.median(wall[name]),
            "cpu_s": statistics.median(cpu[name]),
            "wall_range_s": (min(wall[name]), max(wall[name])),
        }
    for clock, times in (("wall_s", wall), ("cpu_s", cpu)):
        for name in [n for n in commands if "@" in n]:
            result[f"{name}_ratio_{clock}"] = result[name][clock] / result["fold"][clock]
            result[f"{name}_round_ratio_{clock}"] = statistics.median(
                c / f for c, f in zip(times[name], times["fold"])
            )
        result[f"check_ratio_{clock}"] = result["check"][clock] / result["fold"][clock]
        result[f"edit_ratio_{clock}"] = result["edit"][clock] / result["fold"][clock]
        result[f"help_ratio_{clock}"] = result["help"][clock] / result["python"][clock]
        for name in ("fmt", "preview"):
            if name in commands:
                result[f"{name}_edit_ratio_{clock}"] = result[name][clock] / result["edit"][clock]
                result[f"{name}_edit_round_ratio_{clock}"] = statistics.median(
                    x / e for x, e in zip(times[name], times["edit"])
                )
        # Each round's own ratio too: the two processes of one round share the machine's mood.
        result[f"check_round_ratio_{clock}"] = statistics.median(
            c / f for c, f in zip(times["check"], times["fold"])
        )
        result[f"edit_round_ratio_{clock}"] = statistics.median(
            c / f for c, f in zip(times["edit"], times["fold"])
        )
        result[f"help_round_ratio_{clock}"] = statistics.median(
            h / p for h, p in zip(times["help"], times["python"])
        )
    return result


def report_processes(p: dict) -> None:
    ms = lambda seconds: f"{seconds * 1000:.0f} ms"  # noqa: E731
    print(
        f"(a') whole processes, medians of {p['runs']} interleaved rounds (wall clock; CPU user+system):"
    )
    for name, label in (
        ("python", "python -c pass"),
        ("fold", "read-and-fold process"),
        ("check", "glossary check, warm cache"),
        ("edit", "check, one entry edited"),
        ("fmt", "fmt --check, the same file"),
        ("preview", "preview bi, the same file"),
        ("check@before", "  the same, --against tree"),
        ("edit@before", "  one entry edited, --against"),
        ("help", "glossary --help"),
    ):
        if name not in p:
            continue
        low, high = p[name]["wall_range_s"]
        print(
            f"    {label:28} {ms(p[name]['wall_s']):>7} ({ms(low)}–{ms(high)}); CPU {ms(p[name]['cpu_s'])}"
        )
    print(
        f"    check / read-and-fold: {p['check_ratio_wall_s']:.2f}× wall, {p['check_ratio_cpu_s']:.2f}× CPU "
        f"(median of each round's ratio: {p['check_round_ratio_wall_s']:.2f}×, {p['check_round_ratio_cpu_s']:.2f}×; target ≤ 2×)"
    )
    print(
        f"    one entry edited / read-and-fold: {p['edit_ratio_wall_s']:.2f}× wall, {p['edit_ratio_cpu_s']:.2f}× CPU "
        f"(median of each round's ratio: {p['edit_round_ratio_wall_s']:.2f}×, {p['edit_round_ratio_cpu_s']:.2f}×)"
    )
    print(
        f"    --help / python -c pass: {p['help_ratio_wall_s']:.2f}× wall, {p['help_ratio_cpu_s']:.2f}× CPU "
        f"(median of each round's ratio: {p['help_round_ratio_wall_s']:.2f}×, {p['help_round_ratio_cpu_s']:.2f}×; target ≤ 5×)"
    )
    for name in ("fmt", "preview"):
        if f"{name}_edit_ratio_cpu_s" in p:
            print(
                f"    {name} / check (one entry edited): {p[f'{name}_edit_ratio_wall_s']:.2f}× wall, "
                f"{p[f'{name}_edit_ratio_cpu_s']:.2f}× CPU (median of each round's ratio: "
                f"{p[f'{name}_edit_round_ratio_wall_s']:.2f}×, {p[f'{name}_edit_round_ratio_cpu_s']:.2f}×; "
                "target ≈ 1×, issue 28)"
            )
    for name in ("check@before", "edit@before"):
        if name in p:
            print(
                f"    --against tree, {name.split('@')[0]} / read-and-fold: {p[f'{name}_ratio_wall_s']:.2f}× wall, "
                f"{p[f'{name}_ratio_cpu_s']:.2f}× CPU (median of each round's ratio: "
                f"{p[f'{name}_round_ratio_wall_s']:.2f}×, {p[f'{name}_round_ratio_cpu_s']:.2f}×)"
            )
    print(f"    check printed: {p['summary']}")


# -- (b), (e): the synthetic corpus ------------------------------------------------------
def make_corpus(folder: Path, target_chars: int) -> int:
    """Copies of the real 禮經本義 files (renamed) until the corpus holds ``target_chars``."""
    texts = folder / "texts"
    texts.mkdir(parents=True)
    sources = sorted(SOURCE.glob("KR1d0044_0*.txt"))
    files, total, copy = [], 0, 0
    while total < target_chars:
        for source in sources:
            text = source.read_text(encoding="utf-8")
            name = f"texts/c{copy:03d}_{source.name}"
            (folder / name).write_text(text, encoding="utf-8")
            files.append(name)
            total += len(text)
            if total >= target_chars:
                break
        copy += 1
    manifest = {
        "texts": [
            {
                "id": "SYN",
                "title": "禮經本義",
                "work": "禮經本義",
                "author": "蔡德晉",
                "edition": "synthetic",
                "script": "traditional",
                "format": "mandoku",
                "main_layer": "classic",
                "section_markers": True,
                "files": files,
            }
        ]
    }
    (folder / "manifest.yaml").write_text(
        json.dumps(manifest, ensure_ascii=False), encoding="utf-8"
    )
    # Every corpus file needs its checksum line (a corpus without SHA256SUMS is refused).
    sums = "".join(
        f"{hashlib.sha256((folder / name).read_bytes()).hexdigest()}  ./{name}\n" for name in files
    )
    (folder / "SHA256SUMS").write_text(sums, encoding="utf-8")
    return total


def make_citations(count: int, seed: int = 7) -> list[dict]:
    """Quotes from the real text: 40% exact, 20% variant forms, 20% other script, 20% one character wrong."""
    import opencc

    from glossary.corpus import load_corpus
    from glossary.normalize import VARIANTS

    corpus = load_corpus(ROOT / "corpus")
    streams = [
        s.text
        for d in corpus.documents
        if d.text_info.id == "KR1d0044"
        for s in d.streams
        if len(s.text) > 40
    ]
    rng = random.Random(seed)
    back: dict[str, str] = {}
    for variant, standard in sorted(VARIANTS.items()):
        back.setdefault(standard, variant)
    t2s = opencc.OpenCC("t2s")
    citations = []
    for i in range(count):
        text = rng.choice(streams)
        length = rng.randint(6, 20)
        start = rng.randrange(0, len(text) - length)
        quote = text[start : start + length]
        kind = ("exact", "exact", "variant", "script", "misquote")[i % 5]
        if kind == "variant":
            quote = "".join(back.get(ch, ch) for ch in quote)
        elif kind == "script":
            quote = t2s.convert(quote)
        elif kind == "misquote":
            k = rng.randrange(len(quote))
            quote = quote[:k] + rng.choice("甲乙丙丁戊己庚辛壬癸") + quote[k + 1 :]
        citations.append({"kind": kind, "quote": quote})
    return citations


OURS = """
import json, time, sys
sys.path.insert(0, {root!r})
from glossary.corpus import load_corpus
from glossary.index import CorpusIndex
from glossary.citations import CitationChecker
from glossary.model import Citation
citations = json.load(open({cites!r}, encoding="utf-8"))
start = time.perf_counter()
index = CorpusIndex(load_corpus({corpus!r}))
loaded = time.perf_counter()
checker = CitationChecker(index)
items = [Citation(quote=c["quote"], line=i + 1) for i, c in enumerate(citations)]
checker.prepare(items)
verified = 0
results = []
for i, citation in enumerate(items):
    result, problems = checker.check("synthetic.yaml", f"c{{i}}", 0, citation)
    verified += result.verified
    results.append(result)
end = time.perf_counter()
import resource
check_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
loci = sum(len(r.loci) for r in results)  # what `check --format json` and `build` add
resolved = time.perf_counter()
RESULT = {{"seconds": end - start, "load_index_s": loaded - start, "check_s": end - loaded,
          "loci": loci, "loci_s": resolved - end, "check_peak_mb": check_peak,
          "verified": verified, "citations": len(items), "chars": sum(d.length for d in index.corpus.documents)}}
"""

CACHED = """
import json, time, sys
sys.path.insert(0, {root!r})
from pathlib import Path
from glossary.cache import IndexCache
from glossary.citations import CitationChecker
from glossary.model import Citation
citations = json.load(open({cites!r}, encoding="utf-8"))
items = [Citation(quote=c["quote"], line=i + 1) for i, c in enumerate(citations)]
start = time.perf_counter()
cache = IndexCache(Path({cache!r}))
index = cache.open({corpus!r})
opened = time.perf_counter()
checker = CitationChecker(index)
checker.prepare(items)
verified = sum(checker.check("synthetic.yaml", f"c{{i}}", 0, c)[0].verified for i, c in enumerate(items))
end = time.perf_counter()
RESULT = {{"open_s": opened - start, "check_s": end - opened, "seconds": end - start, "verified": verified,
          "cache_mb": sum(p.stat().st_size for p in Path({cache!r}).iterdir()) / 1e6}}
"""

NAIVE = """
import json, time, sys
sys.path.insert(0, {root!r})
from pathlib import Path
from rapidfuzz import fuzz
from glossary.normalize import normalize, normalize_with_map
citations = json.load(open({cites!r}, encoding="utf-8"))[: {sample}]
start = time.perf_counter()
text = "\\n".join(normalize_with_map(p.read_text(encoding="utf-8"))[0] for p in sorted(Path({corpus!r}).rglob("*.txt")))
normalised = time.perf_counter()
found = 0
for c in citations:
    key = normalize(c["quote"])
    if text.find(key) != -1:
        found += 1
    else:
        fuzz.partial_ratio_alignment(key, text)  # the fuzzy window over the whole text
end = time.perf_counter()
RESULT = {{"normalise_s": normalised - start, "scan_s": end - normalised, "sample": len(citations), "found": found}}
"""


def bench_synthetic(sizes: list[int], count: int, naive_sample: int) -> dict:
    results: dict = {"sizes": {}}
    with tempfile.TemporaryDirectory(prefix="glossary-bench-") as tmp:
        tmp_path = Path(tmp)
        cites = tmp_path / "citations.json"
        citations = make_citations(count)
        cites.write_text(json.dumps(citations, ensure_ascii=False), encoding="utf-8")
        results["mix"] = {
            k: sum(1 for c in citations if c["kind"] == k)
            for k in ("exact", "variant", "script", "misquote")
        }
        for size in sizes:
            folder = tmp_path / f"c{size}"
            chars = make_corpus(folder, size)
            ours = in_subprocess(OURS.format(root=str(ROOT), cites=str(cites), corpus=str(folder)))
            ours["corpus_chars"] = chars
            ours["utf8_mb"] = sum(p.stat().st_size for p in folder.rglob("*.txt")) / 1e6
            results["sizes"][size] = ours
            if size == max(sizes):
                # The same corpus and citations through the cache: a first run writes it, a second reads it.
                cache = tmp_path / "cache"
                script = CACHED.format(
                    root=str(ROOT), cites=str(cites), corpus=str(folder), cache=str(cache)
                )
                results["cache_first"] = in_subprocess(script)
                results["cache_warm"] = in_subprocess(script)
                naive = in_subprocess(
                    NAIVE.format(
                        root=str(ROOT), cites=str(cites), corpus=str(folder), sample=naive_sample
                    )
                )
                per_quote = naive["scan_s"] / naive["sample"]
                naive["extrapolated_s"] = naive["normalise_s"] + per_quote * count
                results["naive"] = naive
            shutil.rmtree(folder)
    return results


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
