"""(q) The quick loop: CPU time of `pytest -m "not slow"` against its target (issue 27: under 30 s
of CPU on this machine size). Run by `python benchmarks/run.py --tests-only`.

Each round is a fresh interpreter running the quick tests of this checkout; its CPU time is the
user + system time of that process and its children (git, Chromium stubs), from
``getrusage(RUSAGE_CHILDREN)``. A first round writes the bytecode and is not counted (with
PYTHONDONTWRITEBYTECODE set, each round would compile every test module again: 4 s here). The
load average before and after is printed: on a busy machine the CPU time grows too.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The bar of issue 27 (CPU seconds of the quick tests).
TARGET_CPU_S = 30.0
COMMAND = [sys.executable, "-m", "pytest", "-q", "-m", "not slow", "-p", "no:cacheprovider"]


def one_round() -> tuple[float, float, str]:
    """Wall and CPU seconds of one run of the quick tests, and its summary line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(COMMAND, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = done.stdout.strip().splitlines()
    summary = lines[-1] if lines else f"exit {done.returncode}"
    if done.returncode != 0:
        raise SystemExit(f"the quick tests failed: {summary}\n{done.stdout[-2000:]}")
    return wall, cpu, summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="counted rounds (default 3)")
    args = parser.parse_args(argv)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as in an ordinary install
    print(f"(q) the quick tests: {' '.join(COMMAND[1:])}")
    print(f"    load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    one_round()  # writes the bytecode; not counted
    rounds = [one_round() for _ in range(args.runs)]
    walls, cpus = [r[0] for r in rounds], [r[1] for r in rounds]
    print(f"    {rounds[-1][2]}")
    print(
        f"    CPU {statistics.median(cpus):.1f} s (rounds: {', '.join(f'{c:.1f}' for c in cpus)}), "
        f"wall {statistics.median(walls):.1f} s; target under {TARGET_CPU_S:.0f} s of CPU"
    )
    print(f"    load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0
