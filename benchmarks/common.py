"""What the benchmark modules share: the project root, the timing helpers."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
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
