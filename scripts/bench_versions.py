#!/usr/bin/env python3
"""Whole processes of several versions of the code, measured in the same interleaved rounds.

``benchmarks/run.py --processes-only`` measures the working tree against its own baselines; on
a shared machine two runs of it an hour apart differ by more than a change is worth. This
script puts versions side by side instead: each git revision given is exported (``git
archive``) to a temporary folder and run there with ``python -m glossary`` (its own source
first on ``PYTHONPATH``, its own warm corpus cache), the working tree likewise, and every
round runs each process once, in an order rotated from round to round: `python -c pass`, the
read-and-fold process (of the working tree), and for each version `glossary check` (the
shipped terms.yaml, plan.yaml and corpus/ of that version) and `glossary --help`. The first
round only warms (and writes bytecode). Medians of CPU time (user + system of the child)
and wall clock, and of each round's ratio to read-and-fold (check) or `python -c pass` (help).

Usage: python scripts/bench_versions.py [--runs N] REV [REV …]   (e.g. main)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
READ_AND_FOLD = """
from pathlib import Path
from glossary.normalize import normalize_with_map
for path in sorted(Path("corpus").rglob("*.txt")):
    normalize_with_map(path.read_text(encoding="utf-8"))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "revisions", nargs="+", help="git revisions to compare with the working tree"
    )
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed code runs: from bytecode
    scratch = Path(tempfile.mkdtemp(prefix="bench-versions-"))
    trees = {}
    for revision in args.revisions:
        if revision.startswith("-"):
            parser.error(f"{revision}: a revision cannot start with '-'")
        folder = scratch / revision.replace("/", "_")
        folder.mkdir()
        archive = subprocess.run(
            # After --end-of-options: a revision is never read as an option of git's.
            ["git", "archive", "--end-of-options", revision],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        trees[revision] = folder
    trees["working tree"] = ROOT
    python = sys.executable
    commands: dict[str, tuple[list[str], Path, dict[str, str]]] = {
        "python -c pass": ([python, "-c", "pass"], ROOT, {}),
        "read-and-fold": ([python, "-c", READ_AND_FOLD], ROOT, {"PYTHONPATH": str(ROOT)}),
    }
    for name, folder in trees.items():
        env = {
            "PYTHONPATH": str(folder),
            "GLOSSARY_CACHE_DIR": str(scratch / f"cache-{folder.name}"),
        }
        commands[f"check: {name}"] = ([python, "-m", "glossary", "check"], folder, env)
        commands[f"--help: {name}"] = ([python, "-m", "glossary", "--help"], folder, env)
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    wall: dict[str, list[float]] = {name: [] for name in commands}
    names = list(commands)
    for round_ in range(args.runs + 1):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            command, cwd, extra = commands[name]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(
                command, cwd=cwd, env={**os.environ, **extra}, capture_output=True
            )
            elapsed = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if done.returncode:
                sys.exit(f"{name}: exit {done.returncode}\n{done.stderr.decode()[-2000:]}")
            if round_:
                wall[name].append(elapsed)
                cpu[name].append(
                    after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
                )
    print(f"medians of {args.runs} interleaved rounds; load average now {os.getloadavg()[0]:.1f}")
    for name in names:
        line = f"  {name:32} CPU {statistics.median(cpu[name]) * 1000:6.0f} ms   wall {statistics.median(wall[name]) * 1000:6.0f} ms"
        base = (
            "read-and-fold"
            if name.startswith("check")
            else "python -c pass"
            if name.startswith("--help")
            else None
        )
        if base:
            ratio = statistics.median(cpu[name]) / statistics.median(cpu[base])
            rounds = statistics.median(a / b for a, b in zip(cpu[name], cpu[base]))
            line += f"   {ratio:.2f}× CPU (rounds: {rounds:.2f}×)"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
