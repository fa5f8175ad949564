"""Issue 13: hostile input, faults and a poisoned cache, where a file system or a process is needed.

What a terms file alone shows is in tests/cases/bad; the pieces of glossary/files.py are
tested in tests/test_files.py and the problem display in tests/test_problems.py. Here:

1. a corpus manifest that names files outside the corpus (or links, or unchecked files);
2. media reached through symbolic links;
3. a build killed at every write, and two builds at once;
4. an Anki ledger that cannot be written;
5. terminal escapes in ids and values through the whole command;
7.–8. crashing values and very large inputs, bounded;
9. Anki play and template syntax in contributor text;
14. environment faults (full disk, a file as --out, FIFOs, devices, odd line ends) as plain errors.
"""

from __future__ import annotations

import csv
import errno
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import zipfile
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import MINI_CORPUS, ROOT, make_project, search, set_field

from glossary.cli import cli

ENV = {"SOURCE_DATE_EPOCH": "1700000000"}
#: Only catches a hang (a test would otherwise wait forever); never a speed target.
HANG_GUARD = 600


def run(*args: object, cache: str | None = None):
    """The CLI in-process; ``cache``: a cache folder, "" for none, None for the test run's own."""
    env = dict(ENV) if cache is None else {**ENV, "GLOSSARY_CACHE_DIR": cache}
    return CliRunner(env=env).invoke(cli, [str(a) for a in args])


def digest(folder: Path) -> dict[str, str]:
    """sha256 of every file under ``folder`` (hidden ones included), by relative path."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def assert_clean_failure(result, *fragments: str) -> None:
    """Exit 1, no traceback or crash, every fragment in the output."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output and "internal error" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


# -- files opened, as the interpreter's audit hook sees them ----------------------------------------

_opened: list[str] | None = None


def _audit(event: str, args: tuple) -> None:
    if _opened is not None and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        _opened.append(os.fsdecode(args[0]))


sys.addaudithook(_audit)  # cannot be removed: it records nothing outside opened_files()


@contextmanager
def opened_files():
    """Every path opened (by ``open``, ``os.open``, ``Path.read_bytes`` …) inside the block."""
    global _opened
    found: list[str] = []
    _opened = found
    try:
        yield found
    finally:
        _opened = None


def reads_of(opened: list[str], secret: Path) -> list[str]:
    """The opened paths that are ``secret``, directly or through a link."""
    return [path for path in opened if os.path.realpath(path) == str(secret.resolve())]


# == 1. the corpus manifest cannot make the tool read a file outside the corpus ==================

#: Text that must never leave its file: a passage of its own, so a quote or `locate` would find it.
SECRET = "秘密口令天王蓋地虎寶塔鎮河妖 SECRET-TOKEN-7f3a\n"
LEAKS = ("天王蓋地虎", "SECRET-TOKEN-7f3a")
SECRET_ENTRY = """
- id: kou-ling
  term: 口令
  pinyin: kǒu lìng
  category: object
  rites: [乡射礼]
  gloss: password
  definition: A password, quoted from a file outside the corpus.
  citations:
    - quote: 秘密口令天王蓋地虎
"""
CORPUS_CASES = [
    "traversal",
    "absolute",
    "linked file",
    "linked folder",
    "no checksum line",
    "no SHA256SUMS",
    "linked corpus",
]


def _add_text(corpus: Path, name: str, checksum: bool) -> None:
    """A text in the manifest naming ``name`` (and, if ``checksum``, its right line in SHA256SUMS)."""
    with (corpus / "manifest.yaml").open("a", encoding="utf-8") as manifest:
        manifest.write(
            f"  - id: evil\n    title: evil\n    format: seed\n    files: [{json.dumps(name)}]\n"
        )
    if checksum:
        with (corpus / "SHA256SUMS").open("a", encoding="utf-8") as sums:
            sums.write(f"{hashlib.sha256(SECRET.encode()).hexdigest()}  {name}\n")


def hostile_corpus(tmp_path: Path, case: str) -> tuple[Path, Path, str, Path]:
    """A project whose corpus tries ``case``: (project, --corpus, what the error says, the secret file).

    Where the corpus names an outside file, SHA256SUMS has its right line too (the attacker's
    best case): only containment can refuse it.
    """
    project = make_project(
        tmp_path / "project",
        (ROOT / "tests/fixtures/terms-mini.yaml").read_text("utf-8") + SECRET_ENTRY,
    )
    corpus = project / "corpus"
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    if case == "traversal":
        _add_text(corpus, "../../secret.txt", checksum=True)
        return (
            project,
            corpus,
            "file '../../secret.txt' must be a relative path inside the corpus folder",
            secret,
        )
    if case == "absolute":
        _add_text(corpus, str(secret), checksum=True)
        return (
            project,
            corpus,
            f"file '{secret}' must be a relative path inside the corpus folder",
            secret,
        )
    if case == "linked file":
        (corpus / "evil.txt").symlink_to(secret)
        _add_text(corpus, "evil.txt", checksum=True)
        return project, corpus, f"{corpus / 'evil.txt'}: a symbolic link", secret
    if case == "linked folder":
        (tmp_path / "elsewhere").mkdir()
        shutil.copyfile(secret, tmp_path / "elsewhere" / "secret.txt")
        secret = tmp_path / "elsewhere" / "secret.txt"
        (corpus / "texts").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
        _add_text(corpus, "texts/secret.txt", checksum=True)
        return project, corpus, f"{corpus / 'texts'}: a symbolic link", secret
    if case == "no checksum line":
        # Inside the corpus, but never reviewed: a file without its line is not read.
        secret = corpus / "unlisted.txt"
        secret.write_text(SECRET, encoding="utf-8")
        _add_text(corpus, "unlisted.txt", checksum=False)
        return project, corpus, f"{secret}: has no line in {corpus / 'SHA256SUMS'}", secret
    if case == "no SHA256SUMS":
        (corpus / "SHA256SUMS").unlink()
        return project, corpus, f"{corpus / 'SHA256SUMS'}: missing", secret
    if case == "linked corpus":
        (project / "linked").symlink_to(corpus, target_is_directory=True)
        return (
            project,
            project / "linked",
            f"{project / 'linked'}: the corpus folder is a symbolic link",
            secret,
        )
    raise AssertionError(case)


def assert_no_leak(result) -> None:
    for leak in LEAKS:
        assert leak not in result.output


@pytest.mark.parametrize("cache", ["off", "on"])
@pytest.mark.parametrize("case", CORPUS_CASES)
def test_check_refuses_a_corpus_file_outside_the_corpus(
    tmp_path: Path, case: str, cache: str
) -> None:
    project, corpus, says, secret = hostile_corpus(tmp_path, case)
    cache_dir = "" if cache == "off" else str(tmp_path / "cache")
    with opened_files() as opened:
        result = run(
            "check", "--terms", project / "terms.yaml", "--corpus", corpus, cache=cache_dir
        )
    assert_clean_failure(result, says)
    assert_no_leak(result)
    if cache == "off" and case != "no checksum line":
        assert not reads_of(opened, secret)


@pytest.mark.parametrize("case", CORPUS_CASES)
def test_locate_refuses_a_corpus_file_outside_the_corpus(tmp_path: Path, case: str) -> None:
    project, corpus, says, secret = hostile_corpus(tmp_path, case)
    with opened_files() as opened:
        result = run("locate", "天王蓋地虎", "--corpus", corpus, cache="")
    assert_clean_failure(result, "Error: ", says)
    assert_no_leak(result)
    if case != "no checksum line":
        assert not reads_of(opened, secret)


@pytest.mark.parametrize("case", CORPUS_CASES)
def test_build_refuses_a_corpus_file_outside_the_corpus(tmp_path: Path, case: str) -> None:
    project, corpus, says, secret = hostile_corpus(tmp_path, case)
    out = tmp_path / "dist"
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        project / "terms.yaml",
        "--corpus",
        corpus,
        "--out",
        out,
        cache=str(tmp_path / "cache"),
    )
    assert_clean_failure(result, says, "build failed, nothing written")
    assert_no_leak(result)
    assert not out.exists() and not (project / "anki-ledger.json").exists()


@pytest.mark.parametrize("case", ["traversal", "absolute", "linked file", "linked folder"])
def test_the_cached_path_reads_no_file_outside_the_corpus(tmp_path: Path, case: str) -> None:
    project, corpus, says, secret = hostile_corpus(tmp_path, case)
    with opened_files() as opened:
        result = run(
            "check",
            "--terms",
            project / "terms.yaml",
            "--corpus",
            corpus,
            cache=str(tmp_path / "cache"),
        )
    assert_clean_failure(result, says)
    assert not reads_of(opened, secret)


# == 2. media reached through a symbolic link ===================================================

PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 16  # enough of a PNG for Anki's media folder
OUTSIDE_PNG = b"\x89PNG\r\n\x1a\nSECRET-TOKEN-7f3a"
MEDIA_CASES = {
    # case: (media path in the entry, the step the problem names)
    "media is a link": ("media/photo.png", "media"),
    "a folder inside is a link": ("media/sub/photo.png", "media/sub"),
    "the file is a link": ("media/photo.png", "media/photo.png"),
}


def media_project(tmp_path: Path, case: str) -> tuple[Path, str, str]:
    name, step = MEDIA_CASES[case]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "photo.png").write_bytes(OUTSIDE_PNG)
    (elsewhere / "sub").mkdir()
    (elsewhere / "sub" / "photo.png").write_bytes(OUTSIDE_PNG)
    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text("utf-8")
    project = make_project(
        tmp_path / "project",
        set_field(text, "bi", "tags", ["archery"]).replace(
            '  tags: ["archery"]\n', f'  tags: ["archery"]\n  media: ["{name}"]\n', 1
        ),
    )
    if case == "media is a link":
        (project / "media").symlink_to(elsewhere, target_is_directory=True)
    elif case == "a folder inside is a link":
        (project / "media").mkdir()
        (project / "media" / "sub").symlink_to(elsewhere / "sub", target_is_directory=True)
    else:
        (project / "media").mkdir()
        (project / "media" / "photo.png").symlink_to(elsewhere / "photo.png")
    return project, name, step


@pytest.mark.parametrize("case", MEDIA_CASES)
def test_media_through_a_symbolic_link_is_refused(tmp_path: Path, case: str) -> None:
    project, name, step = media_project(tmp_path, case)
    out = tmp_path / "dist"
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        project / "terms.yaml",
        "--corpus",
        project / "corpus",
        "--out",
        out,
    )
    assert_clean_failure(
        result,
        f"bi.media[0]: Y701 media-path: media path '{name}': {step} is a symbolic link (not allowed)",
        "build failed, nothing written",
    )
    assert not out.exists()


def test_real_media_files_still_reach_the_deck(tmp_path: Path) -> None:
    # The control for the test above: the same entry with a real file builds, and the deck has it.
    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text("utf-8")
    project = make_project(
        tmp_path / "project",
        set_field(text, "bi", "tags", ["archery"]).replace(
            '  tags: ["archery"]\n', '  tags: ["archery"]\n  media: ["media/sub/photo.png"]\n', 1
        ),
    )
    (project / "media" / "sub").mkdir(parents=True)
    (project / "media" / "sub" / "photo.png").write_bytes(PNG)
    (project / "media" / "licenses.yaml").write_text(
        "- {file: sub/photo.png, license: CC0-1.0, author: test, source: made for this test}\n",
        encoding="utf-8",
    )
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        project / "terms.yaml",
        "--corpus",
        project / "corpus",
        "--out",
        tmp_path / "d",
    )
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(tmp_path / "d" / "yili-glossary.apkg") as deck:
        media = json.loads(deck.read("media"))
        assert "photo.png" in media.values()
        assert PNG in [deck.read(number) for number in media]


# == 3. a build killed at any write leaves the old output or the new one ==========================

#: Run before `glossary build` in a second interpreter: every write of the output (the staged
#: files, the ledger's temporary file, the renames, the exchange, the clean-up) is a kill point;
#: the KILL_AT-th one ends the process at once (no clean-up, no finally: as a SIGKILL would).
#: KILL_AT=0 only counts them. KILL_MODE "renames" forces the two-rename fallback; "…, ledger fails"
#: makes renaming the ledger into place fail, so the build undoes its swap (and is killed in that).
KILL_PRELUDE = textwrap.dedent("""
    import os, pathlib, shutil, sys
    import glossary.build
    import glossary.files as files

    KILL_AT = int(os.environ["KILL_AT"])
    calls = 0
    active = False

    def wrap(owner, attr):
        real = getattr(owner, attr)
        def point(*args, **kwargs):
            global calls
            if active:
                calls += 1
                if calls == KILL_AT:
                    os._exit(137)
            return real(*args, **kwargs)
        setattr(owner, attr, point)

    if "ledger fails" in os.environ["KILL_MODE"]:
        real_replace = os.replace
        def replace(src, dst, *args, **kwargs):
            if os.path.basename(dst) == "anki-ledger.json":
                raise OSError(5, "Input/output error", dst)
            return real_replace(src, dst, *args, **kwargs)
        os.replace = replace
    for owner, attr in [(os, "rename"), (os, "replace"), (pathlib.Path, "write_bytes"), (pathlib.Path, "rmdir"),
                        (files, "_write_temp"), (shutil, "rmtree")]:
        wrap(owner, attr)
    if os.environ["KILL_MODE"].startswith("renames"):
        files._exchange = lambda a, b: False
    else:
        wrap(files, "_exchange")
    real_publish = files.publish

    def publish(*args, **kwargs):
        global active
        active = True
        try:
            return real_publish(*args, **kwargs)
        finally:
            active = False
            print(f"kill points: {calls}", file=sys.stderr)

    glossary.build.publish = publish
    from glossary.cli import main
    main()
""")


def _build_command(project: Path, prelude: str | None = None) -> list[str]:
    options = [
        "build",
        "--record-ledger",
        "--terms",
        str(project / "terms.yaml"),
        "--corpus",
        str(project / "corpus"),
        "--out",
        str(project / "dist"),
    ]
    return (
        [sys.executable, "-c", prelude, *options]
        if prelude
        else [sys.executable, "-m", "glossary", *options]
    )


def _run_all(commands: list[tuple[list[str], dict[str, str]]]) -> list[subprocess.CompletedProcess]:
    """Run the commands, as many at once as there are CPUs."""
    from concurrent.futures import ThreadPoolExecutor

    def one(item: tuple[list[str], dict[str, str]]) -> subprocess.CompletedProcess:
        command, env = item
        try:
            return subprocess.run(
                command,
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=HANG_GUARD,
                env={**os.environ, **ENV, **env},
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"hung: {command}")

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return list(pool.map(one, commands))


def leftovers(project: Path) -> list[str]:
    """Hidden files and folders in the project (it has none of its own): what a build left behind."""
    return sorted(p.name for p in project.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def two_releases(tmp_path_factory) -> dict:
    """A project with a complete build (v1) and a changed terms file, and what the next build gives."""
    root = tmp_path_factory.mktemp("kill")
    base = make_project(root / "base")
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        base / "terms.yaml",
        "--corpus",
        base / "corpus",
        "--out",
        base / "dist",
    )
    assert result.exit_code == 0, result.output
    old, old_ledger = digest(base / "dist"), (base / "anki-ledger.json").read_bytes()
    text = (base / "terms.yaml").read_text(encoding="utf-8")
    (base / "terms.yaml").write_text(
        set_field(text, "bi", "gloss", "arrow rack (v2)"), encoding="utf-8"
    )
    expect = root / "expect"
    shutil.copytree(base, expect, symlinks=True)
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        expect / "terms.yaml",
        "--corpus",
        expect / "corpus",
        "--out",
        expect / "dist",
    )
    assert result.exit_code == 0, result.output
    new, new_ledger = digest(expect / "dist"), (expect / "anki-ledger.json").read_bytes()
    assert old != new and old_ledger != new_ledger  # so "old or new" says something
    return {
        "root": root,
        "base": base,
        "old": old,
        "new": new,
        "old_ledger": old_ledger,
        "new_ledger": new_ledger,
    }


@pytest.mark.slow  # two interpreters per kill point
@pytest.mark.parametrize("mode", ["exchange", "renames", "renames, ledger fails"])
def test_a_build_killed_at_any_write_leaves_the_old_or_the_new_output(
    two_releases: dict, mode: str
) -> None:
    root, base = two_releases["root"], two_releases["base"]
    old, new = two_releases["old"], two_releases["new"]
    old_ledger, new_ledger = two_releases["old_ledger"], two_releases["new_ledger"]

    counting = root / f"count-{mode}"
    shutil.copytree(base, counting, symlinks=True)
    [result] = _run_all(
        [(_build_command(counting, KILL_PRELUDE), {"KILL_AT": "0", "KILL_MODE": mode})]
    )
    if "ledger fails" in mode:
        assert result.returncode == 1, result.stderr
        assert (
            "anki-ledger.json: cannot write the outputs: Input/output error; nothing was changed"
            in result.stderr
        )
        assert digest(counting / "dist") == old
        assert (counting / "anki-ledger.json").read_bytes() == old_ledger
    else:
        assert result.returncode == 0, result.stderr
        assert digest(counting / "dist") == new  # the prelude only watches
    assert leftovers(counting) == []
    points = int(search(r"kill points: (\d+)", result.stderr).group(1))
    # Every staged file, the ledger's temporary file, its rename, the swap (one exchange or three
    # renames and a rmdir) and the clean-up.
    assert points >= len(new) + 4

    projects = []
    for k in range(1, points + 1):
        projects.append(root / f"{mode}-{k}")
        shutil.copytree(base, projects[-1], symlinks=True)
    killed = _run_all(
        [
            (_build_command(p, KILL_PRELUDE), {"KILL_AT": str(k), "KILL_MODE": mode})
            for k, p in enumerate(projects, 1)
        ]
    )
    seen = set()
    for k, (project, result) in enumerate(zip(projects, killed), 1):
        where = f"killed at write {k} of {points} ({mode})"
        assert result.returncode == 137, (where, result.stderr[-2000:])
        ledger = (project / "anki-ledger.json").read_bytes()
        assert ledger in (old_ledger, new_ledger), where
        out = project / "dist"
        if out.exists():
            state = "old" if digest(out) == old else "new" if digest(out) == new else "broken"
            assert state != "broken", where
            # The ledger is renamed after the swap: it is never ahead of the output.
            assert ledger == old_ledger or state == "new", where
        else:
            # Only the fallback has a moment between its two renames, and the old output is then
            # whole beside it, where the next build takes it back from.
            assert mode.startswith("renames"), where
            retired = [p / "old" for p in project.glob(".dist.old-*") if (p / "old").is_dir()]
            assert len(retired) == 1, (where, leftovers(project))
            assert digest(retired[0]) == old, where
            state = "between"
        seen.add(state)
    assert {"old", "new"} <= seen  # kills before and after the swap were both reached
    assert ("between" in seen) == mode.startswith("renames")

    rebuilt = _run_all([(_build_command(p), {}) for p in projects])
    for k, (project, result) in enumerate(zip(projects, rebuilt), 1):
        where = f"build after a kill at write {k} ({mode})"
        assert result.returncode == 0, (where, result.stderr[-2000:])
        assert digest(project / "dist") == new, where
        assert (project / "anki-ledger.json").read_bytes() == new_ledger, where
        assert leftovers(project) == [], where


#: For the second of two builds at once: hold the output's lock (if the build takes one) while
#: staging, until the first build has begun to publish, then a moment more.
SLOW_STAGING = textwrap.dedent("""
    import os, pathlib, sys, time
    import glossary.build
    import glossary.files as files

    signals = pathlib.Path(os.environ["SIGNALS"])
    real_publish, real_write = files.publish, pathlib.Path.write_bytes
    staging = False

    def write_bytes(self, data):
        global staging
        if staging:
            staging = False
            (signals / "b-staging").touch()
            deadline = time.monotonic() + 120
            while not (signals / "a-publishing").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(1)  # A is now waiting for the lock (or, without one, doing what it does)
        return real_write(self, data)

    def publish(*args, **kwargs):
        global staging
        staging = True
        return real_publish(*args, **kwargs)

    pathlib.Path.write_bytes = write_bytes
    glossary.build.publish = publish
    from glossary.cli import main
    main()
""")
#: For the first: begin to publish only once the second is staging.
LATE_PUBLISH = textwrap.dedent("""
    import os, pathlib, time
    import glossary.build
    import glossary.files as files

    signals = pathlib.Path(os.environ["SIGNALS"])
    real_publish = files.publish

    def publish(*args, **kwargs):
        deadline = time.monotonic() + 120
        while not (signals / "b-staging").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        (signals / "a-publishing").touch()
        return real_publish(*args, **kwargs)

    glossary.build.publish = publish
    from glossary.cli import main
    main()
""")


@pytest.mark.slow  # two interpreters
def test_two_builds_at_once_both_end_with_a_complete_output(two_releases: dict) -> None:
    project = two_releases["root"] / "together"
    shutil.copytree(two_releases["base"], project, symlinks=True)
    signals = project.parent / "together-signals"
    signals.mkdir()
    results = _run_all(
        [
            (_build_command(project, LATE_PUBLISH), {"SIGNALS": str(signals)}),
            (_build_command(project, SLOW_STAGING), {"SIGNALS": str(signals)}),
        ]
    )
    assert (signals / "a-publishing").exists() and (signals / "b-staging").exists()
    for result in results:
        assert result.returncode == 0, result.stderr[-2000:]
    assert digest(project / "dist") == two_releases["new"]
    assert (project / "anki-ledger.json").read_bytes() == two_releases["new_ledger"]
    assert leftovers(project) == []


# == 4. an Anki ledger that cannot be written: nothing changes ======================================


@pytest.fixture()
def rebuilt(two_releases: dict, tmp_path: Path) -> dict:
    """A copy of the project with its v1 build and ledger, and the terms file of v2 (the ledger changes)."""
    project = tmp_path / "project"
    shutil.copytree(two_releases["base"], project, symlinks=True)
    return {
        **two_releases,
        "project": project,
        "out": project / "dist",
        "ledger": project / "anki-ledger.json",
    }


def build_again(state: dict, *extra: object):
    project = state["project"]
    return run(
        "build",
        "--record-ledger",
        "--terms",
        project / "terms.yaml",
        "--corpus",
        project / "corpus",
        "--out",
        state["out"],
        *extra,
    )


def assert_unchanged(state: dict) -> None:
    assert digest(state["out"]) == state["old"]
    assert state["ledger"].is_dir() or state["ledger"].read_bytes() == state["old_ledger"]
    assert leftovers(state["project"]) == []


def test_a_ledger_that_is_a_folder_fails_the_build_by_name(rebuilt: dict) -> None:
    ledger = rebuilt["ledger"]
    ledger.unlink()
    ledger.mkdir()
    (ledger / "kept").write_bytes(b"not ours")
    result = build_again(rebuilt)
    # The check reports it (with every other problem of the run), so the build stops before rendering.
    assert_clean_failure(
        result,
        f"{ledger}: Y801 ledger-unreadable: cannot read: not a regular file",
        "nothing written",
    )
    assert_unchanged(rebuilt)
    assert (ledger / "kept").read_bytes() == b"not ours"


def test_a_ledger_turned_into_a_folder_before_the_write_changes_nothing(
    rebuilt: dict, monkeypatch
) -> None:
    import glossary.build
    from glossary.files import publish as real_publish  # what glossary.build calls

    ledger = rebuilt["ledger"]

    def publish(*args, **kwargs):
        # Between reading the ledger and writing it, something puts a folder in its place.
        ledger.unlink()
        ledger.mkdir()
        return real_publish(*args, **kwargs)

    monkeypatch.setattr(glossary.build, "publish", publish)
    result = build_again(rebuilt)
    assert_clean_failure(
        result, f"Error: {ledger}: cannot write the outputs: Is a directory; nothing was changed"
    )
    assert_unchanged(rebuilt)


def test_a_ledger_that_cannot_be_renamed_into_place_puts_the_old_output_back(
    rebuilt: dict, monkeypatch
) -> None:
    ledger, real_replace = rebuilt["ledger"], os.replace
    swapped = []

    def replace(src, dst, *args, **kwargs):
        if Path(dst) == ledger:
            # The new output is already in place when the ledger's rename fails.
            swapped.append(digest(rebuilt["out"]) == rebuilt["new"])
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(src), None, str(dst))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    result = build_again(rebuilt)
    assert swapped == [True]
    assert_clean_failure(
        result,
        f"Error: {ledger}: cannot write the outputs: Input/output error; nothing was changed",
    )
    assert_unchanged(rebuilt)


# == 14. environment faults are plain errors ========================================================


@pytest.mark.parametrize("how", ["write", "open"])
def test_a_full_disk_is_a_plain_error_and_changes_nothing(
    rebuilt: dict, how: str, monkeypatch
) -> None:
    real_write = Path.write_bytes

    def write_bytes(self, data):
        if ".dist.new-" not in str(self):
            return real_write(self, data)
        if how == "write":  # write() reports no file name
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))  # open() reports its own

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    result = build_again(rebuilt)
    assert_clean_failure(
        result,
        f"Error: {rebuilt['out']}: cannot write the outputs: No space left on device; "
        "nothing was changed",
    )
    assert ".dist.new-" not in result.output
    assert_unchanged(rebuilt)


def test_out_naming_a_file_is_a_clear_error(rebuilt: dict) -> None:
    target = rebuilt["project"] / "notes.txt"
    target.write_bytes(b"my notes")
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        rebuilt["project"] / "terms.yaml",
        "--corpus",
        rebuilt["project"] / "corpus",
        "--out",
        target,
    )
    assert_clean_failure(result, f"Error: {target}: is a file, not a folder; choose another --out")
    assert target.read_bytes() == b"my notes"
    assert (rebuilt["ledger"]).read_bytes() == rebuilt["old_ledger"]


@pytest.mark.parametrize(
    "mod",
    ["10" + "0" * 30, "-1", "1" * 5000, "NaN", "1e400", "Infinity"],
    ids=["1e31", "negative", "5000 digits", "NaN", "1e400", "Infinity"],
)
def test_an_impossible_time_in_the_ledger_is_a_build_error(rebuilt: dict, mod: str) -> None:
    ledger = json.loads(rebuilt["old_ledger"])
    key = next(iter(ledger))
    text = (
        rebuilt["old_ledger"].decode().replace(f'"mod": {ledger[key]["mod"]}', f'"mod": {mod}', 1)
    )
    rebuilt["ledger"].write_text(text, encoding="utf-8")
    rebuilt["old_ledger"] = text.encode()
    result = build_again(rebuilt)
    # Said by the check, at the ledger's path, before anything is rendered.
    assert_clean_failure(result, f"{rebuilt['ledger']}: ", "nothing written")
    assert "OverflowError" not in result.output
    assert_unchanged(rebuilt)


# == 5. nothing a terms file says can drive the terminal =============================================

#: Hide the rest of the line, print a fake summary on a line of its own, reverse it, ring.
FAKE_SUMMARY = "14 terms, 40 citations, 40 verified; 0 error(s), 0 warning(s)"
HOSTILE_ID = f"bi\x1b[8m\n{FAKE_SUMMARY}\u202e\x07"
RAW_CONTROLS = ("\x1b", "\u202e", "\x07", "\u2066")


def hostile_terms(folder: Path) -> Path:
    """terms-mini with the id of bi (named by two entries: a duplicate id) and a key made hostile."""
    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text(encoding="utf-8")
    escaped = json.dumps(HOSTILE_ID)  # a YAML double-quoted scalar too
    text = text.replace("- id: bi\n", f'- id: {escaped}\n  "tag\\e[2J\\u2066": x\n', 1)
    text += (
        f"\n- id: {escaped}\n  term: 楅\n  pinyin: bī\n  category: object\n  rites: [乡射礼]\n"
        "  gloss: again\n  definition: A second entry with the same id.\n"
        "  citations:\n    - quote: 命弟子設楅乃設楅于中庭南當洗\n"
    )
    terms = folder / "terms\x1b[2J\u202e.yaml"  # the file's own name too
    terms.write_text(text, encoding="utf-8")
    return terms


def assert_no_raw_controls(result) -> None:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    for raw in RAW_CONTROLS:
        assert raw not in result.output, (raw, result.output)
    # The only line that reads as a summary is the real one, which counts errors.
    assert not any(line.startswith(FAKE_SUMMARY) for line in result.output.splitlines())


@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_check_output_escapes_control_and_bidi_characters(tmp_path: Path, fmt: str) -> None:
    terms = hostile_terms(tmp_path)
    # color=True: click would otherwise strip escape sequences itself, hiding what reaches a terminal.
    result = CliRunner(env=ENV).invoke(
        cli,
        ["check", "--terms", str(terms), "--corpus", str(MINI_CORPUS), "--format", fmt],
        color=True,
    )
    assert_no_raw_controls(result)
    if fmt == "json":
        report = json.loads(result.stdout)
        messages = [p["path"] + ": " + p["message"] for p in report["problems"]]
        # The values are all there, exactly, for a program to read.
        assert any(m.startswith(f"{HOSTILE_ID}.id: duplicate id") for m in messages), messages
    else:
        assert "bi\\u001b[8m\\u000a14 terms" in result.output
        assert "\\u202e\\u0007" in result.output
        assert "duplicate id" in result.output


def test_build_output_escapes_control_and_bidi_characters(tmp_path: Path) -> None:
    terms = hostile_terms(tmp_path)
    result = CliRunner(env=ENV).invoke(
        cli,
        [
            "build",
            "--record-ledger",
            "--terms",
            str(terms),
            "--corpus",
            str(MINI_CORPUS),
            "--out",
            str(tmp_path / "dist"),
        ],
        color=True,
    )
    assert_no_raw_controls(result)
    assert "build failed, nothing written" in result.output
    assert not (tmp_path / "dist").exists()


def test_corpus_errors_escape_control_characters(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(MINI_CORPUS, corpus)
    with (corpus / "manifest.yaml").open("a", encoding="utf-8") as manifest:
        manifest.write(
            '  - id: "evil\\e[2J\\u202e"\n    title: evil\n    format: "seed\\e[8m"\n    files: [x.txt]\n'
        )
    result = CliRunner(env={**ENV, "GLOSSARY_CACHE_DIR": ""}).invoke(
        cli, ["locate", "楅", "--corpus", str(corpus)], color=True
    )
    assert result.exit_code == 1 and "unknown format" in result.output
    for raw in RAW_CONTROLS:
        assert raw not in result.output


# == 7.–8. values that crashed the run, and inputs too large to take in ===============================

MB = 1024 * 1024
ENTRY = (
    "- id: {id}\n  term: 楅\n  pinyin: fú\n  guangyun: [方六]\n  category: object\n  rites: [乡射礼]\n  gloss: {gloss}\n"
    "  definition: The rack.\n  citations:\n    - quote: 命弟子設楅乃設楅于中庭南當洗\n"
)


def check_json(terms: Path) -> dict:
    result = run("check", "--terms", terms, "--corpus", MINI_CORPUS, "--format", "json")
    assert result.exit_code == 1, result.output[-2000:]
    return json.loads(result.stdout)


@pytest.mark.slow  # 10 MB of digits
def test_a_ten_million_digit_number_is_one_problem_among_the_others(tmp_path: Path) -> None:
    terms = tmp_path / "terms.yaml"
    text = (
        ENTRY.format(id="bi", gloss="arrow rack")
        + "      juan: "
        + "9" * 10_000_000
        + "\n"
        + ENTRY.format(id="si-ma", gloss="marshal")
        + "  related: [bii]\n"
    )
    terms.write_text(text, encoding="utf-8")
    report = check_json(terms)
    found = {(p["line"], p["path"]): p["message"] for p in report["problems"]}
    # (ENTRY is 10 lines: the number stands on line 11, the unknown id on line 22.)
    assert found[(11, "bi.citations[0].juan")].endswith(
        "…(10,000,000 characters): a number too long to read (put it in quotes to make it text)"
    )
    assert found[(22, "si-ma.related[0]")] == "unknown id 'bii' (did you mean 'bi'?)"
    assert len(json.dumps(report)) < 100_000  # the number is not echoed


def test_a_file_over_the_limit_is_refused_unread(tmp_path: Path) -> None:
    from glossary.load import MAX_BYTES

    terms = tmp_path / "terms.yaml"
    with terms.open("w", encoding="utf-8") as handle:
        handle.write(ENTRY.format(id="bi", gloss="x" * (50 * MB)))
    size = terms.stat().st_size
    assert size > MAX_BYTES
    with opened_files() as opened:
        result = run("check", "--terms", terms, "--corpus", MINI_CORPUS)
    assert_clean_failure(
        result,
        f"{terms}: Y001 cannot-read: cannot read: {size:,} bytes, more than the {MAX_BYTES:,} such a file may have",
    )
    assert len(result.output) < 2000
    # Opened to look at its size (for the cache's key of the run, then by the check), never read
    # through Python's buffered readers.
    assert opened.count(str(terms)) == 2


@pytest.mark.slow  # a million YAML list items to parse
def test_a_million_tiny_entries_are_one_problem(tmp_path: Path) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_text("- 1\n" * 1_000_000, encoding="utf-8")
    report = check_json(terms)
    assert report["problems"] == [
        {
            "file": str(terms),
            "line": 1,
            "path": "",
            "severity": "error",
            "hints": [],
            "message": "1,000,000 entries, more than the 20,000 a terms file may hold",
            "code": "Y011",
        }
    ]
    assert report["problems_omitted"] == 0


def test_a_field_too_long_is_measured_not_echoed(tmp_path: Path) -> None:
    terms = tmp_path / "terms.yaml"
    terms.write_text(ENTRY.format(id="bi", gloss="SECRET-TOKEN " * 1000), encoding="utf-8")
    result = run("check", "--terms", terms, "--corpus", MINI_CORPUS)
    assert_clean_failure(
        result,
        f"{terms}:7: bi.gloss: Y109 too-long: 12,999 characters, more than the 300 allowed here",
    )
    assert "SECRET-TOKEN" not in result.output


def test_problems_are_capped_in_text_and_json(tmp_path: Path, monkeypatch) -> None:
    import glossary.commands.common
    import glossary.report

    # The cap of both outputs, lowered from 1,000 so that the file to check is small (the same
    # code caps it; a quick test does not check a thousand entries).
    MAX_PROBLEMS = 40
    monkeypatch.setattr(glossary.commands.common, "MAX_PROBLEMS", MAX_PROBLEMS)
    monkeypatch.setattr(glossary.report, "MAX_PROBLEMS", MAX_PROBLEMS)
    count = MAX_PROBLEMS + 234
    terms = tmp_path / "terms.yaml"
    # reading_note: bī is not the 釋文's 音福, and the warning on it would come first (line 3).
    terms.write_text(
        "".join(
            ENTRY.format(id=f"e{i}", gloss="rack") + "  related: [nowhere-else]\n"
            "  reading_note: 楅 read bī, as in the modern dictionaries.\n"
            for i in range(count)
        ),
        encoding="utf-8",
    )
    result = run("check", "--terms", terms, "--corpus", MINI_CORPUS)
    assert_clean_failure(result)
    lines = result.output.splitlines()
    assert [line for line in lines if "unknown id 'nowhere-else'" in line] == lines[:MAX_PROBLEMS]
    assert lines[MAX_PROBLEMS] == "… and 234 more problem(s)"
    report = check_json(terms)
    assert len(report["problems"]) == MAX_PROBLEMS and report["problems_omitted"] == 234


def test_a_message_is_cut_at_a_thousand_characters(tmp_path: Path) -> None:
    from glossary.problems import MAX_MESSAGE

    terms = tmp_path / "terms.yaml"
    key = "k" * 5000  # a key has no length bound of its own: the message naming it is cut
    terms.write_text(
        ENTRY.format(id="bi", gloss="rack") + f"  ? {key}\n  : 1\n", encoding="utf-8"
    )  # a long key
    result = run("check", "--terms", terms, "--corpus", MINI_CORPUS)
    assert_clean_failure(result, "unknown field 'kkkk", "…(5,")
    [line] = [line for line in result.output.splitlines() if "unknown field" in line]
    # The path (holding the key) and the message are each cut at MAX_MESSAGE characters.
    assert line.count("…(5,") == 2 and len(line) < 2 * MAX_MESSAGE + len(str(terms)) + 100
    [problem] = [p for p in check_json(terms)["problems"] if "unknown field" in p["message"]]
    assert (
        re.search(r"…\(5,0\d\d characters\)$", problem["message"])
        and len(problem["message"]) < MAX_MESSAGE + 30
    )


# == 9. Anki's own syntax in contributor text stays text; 14. CSV cells cannot start a formula =========

#: Anki plays [sound:…] and [anki:play:…] in a field, and reads {{…}} as template or cloze syntax.
ANKI_SYNTAX = {
    "bi": {
        "gloss": '=HYPERLINK("http://x") [sound:x.mp3] {{Gloss}}',
        "definition": "+1 [anki:play:q:0] {{c2::secret}} {{#Term}}",
    },
    "si-ma": {
        "gloss": "-2+3 [sound:../../etc/passwd]",
        "definition": "@SUM(A1) {{FrontSide}} [anki:play:a:0]",
    },
}
LIVE = ("[sound:", "[anki:play", "{{Gloss}}", "{{c2::secret", "{{#Term}}", "{{FrontSide}}")


@pytest.fixture(scope="module")
def anki_syntax_build(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("anki-syntax")
    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text(encoding="utf-8")
    for entry, fields in ANKI_SYNTAX.items():
        for field, value in fields.items():
            text = set_field(text, entry, field, value)
    project = make_project(root / "project", text)
    result = run(
        "build",
        "--record-ledger",
        "--terms",
        project / "terms.yaml",
        "--corpus",
        project / "corpus",
        "--out",
        root / "dist",
    )
    assert result.exit_code == 0, result.output
    return root / "dist"


def note_fields(package: Path, folder: Path) -> list[list[str]]:
    with zipfile.ZipFile(package) as archive:
        (folder / "collection.anki2").write_bytes(archive.read("collection.anki2"))
    with sqlite3.connect(folder / "collection.anki2") as db:
        return [row[0].split("\x1f") for row in db.execute("SELECT flds FROM notes")]


def test_anki_syntax_in_text_is_not_live_in_the_notes(
    anki_syntax_build: Path, tmp_path: Path
) -> None:
    notes = note_fields(anki_syntax_build / "yili-glossary.apkg", tmp_path)
    fields = [field for note in notes for field in note]
    for live in LIVE:
        assert not [f for f in fields if live in f], live
    # … and the text is all there, written with character references.
    joined = "\n".join(fields)
    assert "&#91;sound:x.mp3&#93; &#123;&#123;Gloss&#125;&#125;" in joined
    assert "&#91;anki:play:q:0&#93; &#123;&#123;c2::secret&#125;&#125;" in joined
    # The passage notes list their headwords' glosses through a Jinja template (finalize): written the same way.
    glosses = [f for f in fields if '<span class="n">c' in f]
    assert any("-2+3 &#91;sound:../../etc/passwd&#93;" in f for f in glosses)
    # Related shows headwords and readings only: no other entry's gloss, hostile or not.
    related = [f for f in fields if "Related:" in f]
    assert related and not any("&#91;sound:" in f for f in related)
    # The cloze notes keep their own, real cloze.
    assert any("{{c1::" in f for f in fields)


def test_csv_has_no_live_anki_syntax_and_no_formula(anki_syntax_build: Path) -> None:
    text = (anki_syntax_build / "yili-glossary.csv").read_text(encoding="utf-8")
    rows = list(
        csv.reader(
            io.StringIO("\n".join(line for line in text.splitlines() if not line.startswith("#")))
        )
    )
    assert rows
    cells = [
        cell for row in rows for cell in row[3:-1]
    ]  # the note's fields (after guid, note type, deck)
    for live in LIVE:
        assert not [c for c in cells if live in c], live
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    # The gloss cells start with the character written as a reference, which Anki shows as itself.
    assert any(c.startswith('&#61;HYPERLINK("http://x")') for c in cells)
    assert any(c.startswith("&#45;2+3 ") for c in cells) and any(
        c.startswith("&#64;SUM(A1) ") for c in cells
    )
    assert any(c.startswith("&#43;1 ") for c in cells)


@pytest.mark.slow  # the real anki package
def test_anki_renders_no_play_button_from_contributor_text(
    anki_syntax_build: Path, tmp_path: Path
) -> None:
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
    from anki.sound import SoundOrVideoTag

    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        options = ImportAnkiPackageOptions(with_scheduling=False)
        col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=str(anki_syntax_build / "yili-glossary.apkg"), options=options
            )
        )
        ids = {entry: col.find_notes(f'"Id:{entry}"') for entry in ANKI_SYNTAX}
        assert all(ids.values())
        for entry, note_ids in ids.items():
            for note_id in note_ids:
                note = col.get_note(note_id)
                for card in note.cards():
                    note_type = note.note_type()
                    assert note_type is not None
                    where = f"{entry} {note_type['name']} card {card.ord}"
                    for html, tags in (
                        (card.question(), card.question_av_tags()),
                        (card.answer(), card.answer_av_tags()),
                    ):
                        # Only the template's own {{tts …}} speaks: no sound file, from the text or not …
                        assert not [t for t in tags if isinstance(t, SoundOrVideoTag)], where
                        # … and every play reference in the card is one of those (none written in the text).
                        assert html.count("[anki:play:") == len(tags), where
                        assert "[sound:" not in html and "{{Gloss}}" not in html, where
        shown = "\n".join(
            card.answer() for ids_ in ids.values() for n in ids_ for card in col.get_note(n).cards()
        )
        assert "[sound:x.mp3] {{Gloss}}" in html_text(shown)  # the text is shown as written
    finally:
        col.close()


def html_text(html: str) -> str:
    import html as html_module

    return html_module.unescape(re.sub(r"<[^>]+>", "", html))


# == 14. FIFOs and devices, odd line ends =========================================================


def _in_a_thread(*args: object, cache: str | None = ""):
    """The CLI in-process, given up on (the test fails) if it waits forever, as on a FIFO it opened."""
    import threading

    box = []
    worker = threading.Thread(target=lambda: box.append(run(*args, cache=cache)), daemon=True)
    worker.start()
    worker.join(HANG_GUARD)
    if worker.is_alive():
        pytest.fail(f"glossary {args[0]} waits on a FIFO")
    return box[0]


@pytest.mark.parametrize("which", ["terms", "plan", "manifest", "corpus file"])
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path, which: str) -> None:
    project = make_project(tmp_path / "project")
    corpus = project / "corpus"
    fifo = {
        "terms": project / "terms.yaml",
        "plan": project / "plan.yaml",
        "manifest": corpus / "manifest.yaml",
        "corpus file": corpus / "fifo.txt",
    }[which]
    if which == "corpus file":
        _add_text(corpus, "fifo.txt", checksum=True)
    else:
        fifo.unlink()
    os.mkfifo(fifo)
    # With the cache off and on: the cache's keys read every file as the readers do (bounded,
    # regular files only), so a FIFO is never waited on.
    for cache in ("", str(tmp_path / "cache")):
        result = _in_a_thread(
            "check", "--terms", project / "terms.yaml", "--corpus", corpus, cache=cache
        )
        assert_clean_failure(result, str(fifo), "not a regular file")


@pytest.mark.slow  # another interpreter, so that a regression reading /dev/zero cannot eat this one's memory
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_the_terms_file_is_not_read(tmp_path: Path, device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "glossary",
                "check",
                "--terms",
                device,
                "--corpus",
                str(MINI_CORPUS),
            ],
            capture_output=True,
            text=True,
            timeout=HANG_GUARD,
            cwd=ROOT,
            env={**os.environ, **ENV},
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"glossary check read {device} for {HANG_GUARD} s")
    assert result.returncode == 1, result.stderr[-2000:]
    assert f"{device}: Y001 cannot-read: cannot read: not a regular file" in result.stdout


def _problems(result) -> list[str]:
    """The problem lines of a check, without the file name."""
    return [line.split(":", 1)[1] for line in result.output.splitlines() if line.startswith("/")]


def test_lone_cr_line_ends_give_the_lines_editors_show(tmp_path: Path) -> None:
    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text(encoding="utf-8")
    text = set_field(set_field(text, "bi", "related", ["si-maa"]), "si-ma", "gloss", 5)
    (tmp_path / "lf.yaml").write_text(text, encoding="utf-8", newline="")
    (tmp_path / "cr.yaml").write_text(text.replace("\n", "\r"), encoding="utf-8", newline="")
    lf = run("check", "--terms", tmp_path / "lf.yaml", "--corpus", MINI_CORPUS)
    cr = run("check", "--terms", tmp_path / "cr.yaml", "--corpus", MINI_CORPUS)
    assert_clean_failure(cr)
    lines = text.splitlines()
    related = next(i for i, line in enumerate(lines, 1) if "si-maa" in line)
    assert f"{related}: bi.related[0]: Y119 unknown-related: unknown id 'si-maa'" in "\n".join(
        _problems(cr)
    )
    assert _problems(cr) == _problems(lf) and len(_problems(cr)) == 2


def test_fmt_formats_a_file_with_lone_cr_line_ends(tmp_path: Path) -> None:
    from glossary.load import load_yaml

    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text(encoding="utf-8")
    # Out of the canonical order: gloss after definition.
    unordered = text.replace("  gloss: arrow rack\n", "", 1).replace(
        "  tags: [archery]\n", "  tags: [archery]\n  gloss: arrow rack\n", 1
    )
    terms = tmp_path / "terms.yaml"
    terms.write_text(unordered.replace("\n", "\r"), encoding="utf-8", newline="")
    before = load_yaml(terms)
    assert not before.problems
    check = run("fmt", "--check", "--terms", terms)
    assert check.exit_code == 1 and "would be reformatted" in check.output
    result = run("fmt", "--terms", terms)
    assert result.exit_code == 0, result.output
    assert terms.read_text(encoding="utf-8") == text  # canonical, with the usual line ends
    assert load_yaml(terms).data == before.data
    assert run("fmt", "--check", "--terms", terms).exit_code == 0


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"], ids=["LS", "PS", "NEL"])
def test_check_and_fmt_refuse_unusual_line_breaks_alike(tmp_path: Path, separator: str) -> None:
    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text(encoding="utf-8")
    text = set_field(text, "si-ma", "gloss", f"marshal{separator}of the archery")
    terms = tmp_path / "terms.yaml"
    terms.write_text(text, encoding="utf-8")
    line = next(i for i, l in enumerate(text.split("\n"), 1) if separator in l)
    says = f"terms.yaml:{line}: Y004 unusual-line-break: U+{ord(separator):04X} ("
    check = run("check", "--terms", terms, "--corpus", MINI_CORPUS)
    assert_clean_failure(check, says, "is a line break to YAML but not to editors")
    before = terms.read_bytes()
    fmt = run("fmt", "--terms", terms)
    assert_clean_failure(fmt, says, "is a line break to YAML but not to editors")
    assert terms.read_bytes() == before
