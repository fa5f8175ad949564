#!/usr/bin/env python3
"""The web page (glossary.html) on a slow phone: real Chromium (Debian's), 390 px wide, the CPU
slowed 4× through CDP (``Emulation.setCPUThrottlingRate``), as a mid-range phone.

Measured on a fresh page each round: the page's size and element count; first contentful paint;
when the search is ready (the index built: ``data-search-ready`` on the search box; a page
without it: its load event); a keystroke (the last character of a query typed into the box, to
the next frame drawn) and clearing the box (to the next frame drawn). Medians of --runs rounds.

Usage: python benchmarks/web.py [PAGE.html] [--runs N] [--rate 4]
   (without PAGE: `glossary build` of the shipped glossary into a temporary folder)
No timed assertions live in the tests; the numbers go in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
#: The queries typed, one per kind the search is asked to find (issue 26, point 2).
QUERIES = ("尸", "xi jie", "zuo4 jie1", "eastern steps", "乡射礼", "郑玄", "东阶")

# Types ``query`` (the whole value, then one input event: the last keystroke) and waits for the
# next frame to be drawn; then the same for clearing the box. Milliseconds, page clock.
KEYSTROKE = """async (query) => {
  const input = document.getElementById("search");
  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  const type = async (value) => {
    const start = performance.now();
    input.value = value;
    input.dispatchEvent(new Event("input", {bubbles: true}));
    await frame();
    return performance.now() - start;
  };
  await type(query.slice(0, -1));
  const key = await type(query);
  const clear = await type("");
  return [key, clear];
}"""

READY = """() => new Promise(resolve => {
  const input = document.getElementById("search");
  const done = () => input.hasAttribute("data-search-ready") || (
    !("searchPending" in input.dataset) && document.readyState === "complete");
  const poll = () => done() ? resolve(performance.now()) : setTimeout(poll, 5);
  poll();
})"""


def build_dist() -> Path:
    """A fresh build of the shipped glossary, in a temporary folder."""
    out = Path(tempfile.mkdtemp(prefix="glossary-web-bench-")) / "dist"
    subprocess.run(
        [sys.executable, "-m", "glossary", "build", "--out", str(out)], cwd=ROOT, check=True
    )
    return out


def build_page() -> Path:
    return build_dist() / "glossary.html"


def measure(page_path: Path, runs: int, rate: float) -> dict:
    from playwright.sync_api import sync_playwright

    rounds: list[dict] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-proxy-server", "--host-resolver-rules=MAP * ~NOTFOUND"],
        )
        for _ in range(runs + 1):  # the first round warms the disk cache and is not counted
            context = browser.new_context(
                viewport={"width": 390, "height": 844}, device_scale_factor=1
            )
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
            page.goto(page_path.as_uri(), wait_until="commit")
            ready = page.evaluate(READY)
            page.wait_for_load_state("load")
            paint = page.evaluate(
                "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
            )
            elements = page.evaluate("document.getElementsByTagName('*').length")
            typed = {q: page.evaluate(KEYSTROKE, q) for q in QUERIES}
            rounds.append({"paint": paint, "ready": ready, "elements": elements, "typed": typed})
            context.close()
        browser.close()
    counted = rounds[1:]
    med = statistics.median
    return {
        "bytes": page_path.stat().st_size,
        "elements": counted[0]["elements"],
        "paint_ms": med(r["paint"] for r in counted),
        "ready_ms": med(r["ready"] for r in counted),
        "key_ms": {q: med(r["typed"][q][0] for r in counted) for q in QUERIES},
        "clear_ms": {q: med(r["typed"][q][1] for r in counted) for q in QUERIES},
    }


def report(result: dict, runs: int, rate: float) -> None:
    print(f"(w) glossary.html at 390 px, CPU slowed {rate:g}×, medians of {runs} rounds:")
    print(f"    {result['bytes'] / 1e6:.2f} MB, {result['elements']:,} elements")
    print(f"    first contentful paint {result['paint_ms']:.0f} ms (target ≤ 1000)")
    print(f"    search ready {result['ready_ms']:.0f} ms")
    for query in QUERIES:
        print(
            f"    {query!r:18} keystroke {result['key_ms'][query]:6.0f} ms, "
            f"clearing {result['clear_ms'][query]:6.0f} ms (targets ≤ 100)"
        )
    print(
        f"    worst keystroke {max(result['key_ms'].values()):.0f} ms, "
        f"worst clearing {max(result['clear_ms'].values()):.0f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rate", type=float, default=4.0)
    args = parser.parse_args(argv)
    page = args.page.resolve() if args.page else build_page()
    report(measure(page, args.runs, args.rate), args.runs, args.rate)
    return 0


if __name__ == "__main__":
    sys.exit(main())
