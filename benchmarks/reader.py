#!/usr/bin/env python3
"""The reader view (read/<rite>.html) on a slow phone: real Chromium (Debian's), 390 px wide, the
CPU slowed 4× through CDP (``Emulation.setCPUThrottlingRate``), as benchmarks/web.py measures
glossary.html.

For each rite's page, on a fresh page each round: its size and element count, first contentful
paint, the load event, and opening it at a cited place (``#c…``, the link an entry's "in the
text" follows) to the next frame drawn. Medians of --runs rounds.

Usage: python benchmarks/reader.py [DIST] [--runs N] [--rate 4] [--pages N]
   (without DIST: `glossary build` of the shipped glossary into a temporary folder;
    --pages: only the N largest pages)
No timed assertions live in the tests; the numbers go in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

from web import CHROMIUM, build_dist  # benchmarks/web.py, beside this script

# The first contentful paint, waited for (a throttled page may load before it paints).
PAINT = """() => new Promise(resolve => new PerformanceObserver((list, observer) => {
  const found = list.getEntriesByName("first-contentful-paint")[0];
  if (found) { observer.disconnect(); resolve(found.startTime); }
}).observe({type: "paint", buffered: true}))"""
LOADED = "performance.getEntriesByType('navigation')[0].loadEventEnd"
# Scrolls to an anchor as a followed link does and waits for the next frame. Milliseconds.
JUMP = """async (id) => {
  const start = performance.now();
  location.hash = id;
  await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
  return performance.now() - start;
}"""


def measure(pages: list[Path], runs: int, rate: float) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    results: dict[str, dict] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-proxy-server", "--host-resolver-rules=MAP * ~NOTFOUND"],
        )
        for path in pages:
            # The last cited place of the page: the farthest a link can send a reader.
            cited = re.findall(r'class="cited" id="([^"]+)"', path.read_text("utf-8"))
            rounds = []
            for _ in range(runs + 1):  # the first round warms the disk cache and is not counted
                context = browser.new_context(
                    viewport={"width": 390, "height": 844}, device_scale_factor=1
                )
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                page.goto(path.as_uri(), wait_until="load")
                rounds.append(
                    {
                        "paint": page.evaluate(PAINT),
                        "load": page.evaluate(LOADED),
                        "jump": page.evaluate(JUMP, cited[-1]) if cited else 0.0,
                        "elements": page.evaluate("document.getElementsByTagName('*').length"),
                    }
                )
                context.close()
            counted = rounds[1:]
            med = statistics.median
            results[path.name] = {
                "bytes": path.stat().st_size,
                "elements": counted[0]["elements"],
                "paint_ms": med(r["paint"] for r in counted),
                "load_ms": med(r["load"] for r in counted),
                "jump_ms": med(r["jump"] for r in counted),
            }
        browser.close()
    return results


def report(results: dict[str, dict], runs: int, rate: float) -> None:
    print(f"(r) read/<rite>.html at 390 px, CPU slowed {rate:g}×, medians of {runs} rounds:")
    for name, r in results.items():
        print(
            f"    {name:18} {r['bytes'] / 1e3:6.0f} kB {r['elements']:6,} elements  "
            f"first paint {r['paint_ms']:5.0f} ms  load {r['load_ms']:5.0f} ms  "
            f"to a cited place {r['jump_ms']:4.0f} ms"
        )
    worst = max(results.values(), key=lambda r: r["paint_ms"])
    largest = max(results.values(), key=lambda r: r["bytes"])
    print(
        f"    worst first paint {worst['paint_ms']:.0f} ms (target ≤ 1000); largest page "
        f"{largest['bytes'] / 1e3:.0f} kB, {largest['elements']:,} elements"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rate", type=float, default=4.0)
    parser.add_argument("--pages", type=int, default=0)
    args = parser.parse_args(argv)
    dist = args.dist.resolve() if args.dist else build_dist()
    pages = sorted(
        (p for p in (dist / "read").glob("*.html") if p.name != "index.html"),
        key=lambda p: -p.stat().st_size,
    )
    if args.pages:
        pages = pages[: args.pages]
    report(measure(pages, args.runs, args.rate), args.runs, args.rate)
    return 0


if __name__ == "__main__":
    sys.exit(main())
