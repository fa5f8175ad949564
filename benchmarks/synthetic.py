"""(b), (e): a synthetic corpus built from the real 禮經本義 text, with citations of every kind: our
checker against a naive per-quote scan, and check time by corpus size (run by benchmarks/run.py)."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import tempfile
from pathlib import Path

from common import ROOT, SOURCE, in_subprocess


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
