"""(a'), (c): whole processes, interleaved: `glossary check` warm and after an edit, `fmt --check`,
`preview`, `--help`, against the read-and-fold process (benchmarks/run.py runs and reports them)."""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT

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
