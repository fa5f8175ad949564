"""Issue 24: a pull request's checkout cannot make a command delete, overwrite or rewrite anything.

Every file of a pull request is untrusted, links and build markers included. Here, where a file
system, git or a process is needed:

1. the output folder (or the ledger) reached through a link, a forged or committed build
   marker, an output that is the repository, the corpus or the current folder;
2. ``preview`` over a committed link; every other write (fmt, new --append) refuses links
   and an edit saved meanwhile, and a full disk is a plain error;
3. workflow commands of GitHub Actions in what ``fmt --check`` prints;
4. ``changelog``: revisions that look like options, alias bombs, a file that is a number;
5. data files read through links; Ctrl-C at the exchange; SIGTERM; the C locale; a Latin-1
   terminal; the CSV's GUIDs in the real Anki importer.

What a terms file alone shows (a blank gloss, an unreadable 卷) is in tests/cases/bad.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import MINI_CORPUS, ROOT, make_project, set_field

from glossary import files
from glossary.build import MARKER
from glossary.cli import cli

ENV = {"SOURCE_DATE_EPOCH": "1700000000"}
#: Only catches a hang; never a speed target.
HANG_GUARD = 600
#: What a linked-to file holds: it must never be shown, changed or deleted.
SECRET = "ssh-ed25519 AAAA-the-maintainers-own-key SECRET-7f3a\n"


def run(*args: object):
    return CliRunner(env=ENV).invoke(cli, [str(a) for a in args])


def digest(folder: Path) -> dict[str, str]:
    """sha256 of everything under ``folder`` (hidden files too; a link by its target's name)."""
    found = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            found[name] = "-> " + os.readlink(path)
        elif path.is_file():
            found[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def assert_clean_failure(result, *fragments: str) -> None:
    """Exit 1 with ``Error:``, no traceback or internal error, every fragment in the output."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output and "internal error" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


def build(project: Path, out: Path | str, *extra: object):
    return run(
        "build",
        "--record-ledger",
        "--terms",
        project / "terms.yaml",
        "--corpus",
        project / "corpus",
        "--out",
        out,
        *extra,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A project with a complete build in ``dist`` and its (so up-to-date) Anki ledger."""
    project = make_project(tmp_path_factory.mktemp("built") / "project")
    result = build(project, project / "dist")
    assert result.exit_code == 0, result.output
    return project


@pytest.fixture()
def project(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(built, copy, symlinks=True)
    return copy


def git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


# == 1. a build replaces only a folder it wrote, never through a link =============================


@pytest.mark.parametrize("where", ["absolute", "relative"])
def test_a_dist_link_to_the_checkout_with_a_forged_marker_touches_nothing(
    project: Path, where: str, monkeypatch
) -> None:
    # The attack of issue 24: `dist -> .`, a committed marker, an up-to-date ledger.
    shutil.rmtree(project / "dist")
    (project / "dist").symlink_to(".", target_is_directory=True)
    (project / MARKER).write_text("Written by `glossary build`; replaced whole on every build.\n")
    (project / "notes.txt").write_text("the maintainer's uncommitted work\n")
    before = digest(project)
    if where == "relative":
        monkeypatch.chdir(project)
    result = build(project, project / "dist" if where == "absolute" else "dist")
    assert_clean_failure(result, "Error: ", "dist is a symbolic link", "nothing was changed")
    assert digest(project) == before


def test_a_link_to_a_folder_elsewhere_holding_a_marker_is_not_followed(
    project: Path, tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / MARKER).write_text("forged\n")
    (victim / "precious.txt").write_text(SECRET)
    shutil.rmtree(project / "dist")
    (project / "dist").symlink_to(victim, target_is_directory=True)
    result = build(project, project / "dist")
    assert_clean_failure(result, "is a symbolic link")
    assert (victim / "precious.txt").read_text() == SECRET and sorted(os.listdir(victim)) == [
        MARKER,
        "precious.txt",
    ]


def test_an_output_under_a_linked_folder_is_refused(
    project: Path, tmp_path: Path, monkeypatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / "site").symlink_to(elsewhere, target_is_directory=True)
    monkeypatch.chdir(project)
    result = build(project, "site/dist")
    assert_clean_failure(result, "site is a symbolic link")
    assert list(elsewhere.iterdir()) == []


def test_a_ledger_link_is_refused_and_its_target_kept(project: Path, tmp_path: Path) -> None:
    target = tmp_path / "authorized_keys"
    target.write_text(SECRET)
    (project / "anki-ledger.json").unlink()
    (project / "anki-ledger.json").symlink_to(target)
    before = digest(project / "dist")
    result = build(project, project / "dist")
    assert_clean_failure(result, "anki-ledger.json is a symbolic link")
    assert SECRET.strip() not in result.output
    assert target.read_text() == SECRET and digest(project / "dist") == before


@pytest.mark.parametrize("tracked", [MARKER, "glossary.html"])
def test_a_folder_holding_what_git_tracks_is_not_replaced(project: Path, tracked: str) -> None:
    # A marker that is committed proves nothing: a pull request wrote it.
    git(project, "init", "-q")
    git(project, "add", f"dist/{tracked}")
    git(project, "commit", "-q", "-m", "a pull request's dist")
    before = digest(project / "dist")
    result = build(project, project / "dist")
    assert_clean_failure(result, f"git tracks dist/{tracked} in it", "choose another --out")
    assert digest(project / "dist") == before


def test_an_untracked_build_folder_in_a_repository_is_still_replaced(project: Path) -> None:
    # The control: the same repository, dist not committed (as .gitignore has it).
    git(project, "init", "-q")
    git(project, "add", "terms.yaml")
    git(project, "commit", "-q", "-m", "terms")
    (project / "dist" / "stale.txt").write_text("from an older build")
    result = build(project, project / "dist")
    assert result.exit_code == 0, result.output
    assert not (project / "dist" / "stale.txt").exists() and (project / "dist" / MARKER).exists()


def test_in_a_repository_without_git_the_folder_is_refused(project: Path, monkeypatch) -> None:
    """git cannot be asked whether it tracks dist/: a committed folder cannot be told from a
    build's, so it is not replaced."""
    git(project, "init", "-q")
    before = digest(project / "dist")
    real = subprocess.run

    def no_git(command, *args, **kwargs):
        if command[0] == "git":
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", "git")
        return real(command, *args, **kwargs)

    monkeypatch.setattr(subprocess, "run", no_git)
    result = build(project, project / "dist")
    assert_clean_failure(result, "git is needed to tell a committed folder from a build's")
    assert digest(project / "dist") == before


def test_outside_a_repository_git_is_not_asked(project: Path, monkeypatch) -> None:
    """No .git in or above the project, no $GIT_DIR: nothing there can be committed, and no git
    process is started (a build of a downloaded tree, each test's project)."""
    from glossary.files import in_repository

    asked = []
    real = subprocess.run

    def spy(command, *args, **kwargs):
        if command[0] == "git":
            asked.append(command)
        return real(command, *args, **kwargs)

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setattr(subprocess, "run", spy)
    assert not in_repository(project)
    result = CliRunner().invoke(
        cli,
        [
            "build",
            "--terms",
            str(project / "terms.yaml"),
            "--corpus",
            str(project / "corpus"),
            "--out",
            str(project / "dist"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert asked == []
    monkeypatch.setenv("GIT_DIR", str(project / "nowhere"))
    assert in_repository(project)  # $GIT_DIR names a repository anywhere: git is asked then


@pytest.mark.parametrize("which", ["repository", "corpus", "current folder", "above the terms"])
def test_never_replaced_even_with_a_marker(project: Path, which: str, monkeypatch) -> None:
    if which == "repository":
        git(project, "init", "-q")
        out = project
    elif which == "corpus":
        out = project / "corpus"
    elif which == "current folder":
        out = project / "dist"
        monkeypatch.chdir(out)
    else:
        out = project.parent
    (out / MARKER).write_text("forged\n")
    before = digest(project)
    result = build(project, out)
    assert_clean_failure(result, "a build never replaces it")
    assert digest(project) == before


# == 2. every write renames over a real file, never writes through a link =========================


def test_preview_over_a_committed_link_leaves_its_target_alone(
    project: Path, tmp_path: Path, monkeypatch
) -> None:
    keys = tmp_path / "authorized_keys"
    keys.write_text(SECRET)
    monkeypatch.chdir(project)
    Path("preview-bi.html").symlink_to(keys)
    result = run("preview", "bi", "--terms", "terms.yaml", "--corpus", "corpus")
    assert_clean_failure(result, "Error: preview-bi.html: not written", "is a symbolic link")
    assert keys.read_text() == SECRET and Path("preview-bi.html").is_symlink()
    control = run("preview", "bi", "--terms", "terms.yaml", "--corpus", "corpus", "--out", "p.html")
    assert control.exit_code == 0, control.output
    assert b"<html" in Path("p.html").read_bytes()


def unformatted(folder: Path) -> Path:
    """A terms file fmt would change (gloss moved after tags)."""
    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text(encoding="utf-8")
    terms = make_project(folder, corpus=False, plan=False) / "terms.yaml"
    terms.write_text(
        text.replace("  gloss: arrow rack\n", "", 1).replace(
            "  tags: [archery]\n", "  tags: [archery]\n  gloss: arrow rack\n", 1
        ),
        encoding="utf-8",
    )
    return terms


def test_fmt_refuses_a_linked_terms_file(tmp_path: Path) -> None:
    real = unformatted(tmp_path / "elsewhere")
    before = real.read_bytes()
    link = tmp_path / "terms.yaml"
    link.symlink_to(real)
    for args in (["fmt"], ["fmt", "--check"]):
        result = run(*args, "--terms", link)
        assert_clean_failure(result, "is a symbolic link")
    assert link.is_symlink() and real.read_bytes() == before


def test_fmt_keeps_an_edit_saved_while_it_ran(tmp_path: Path, monkeypatch) -> None:
    import glossary.contribute.fmt as fmt

    terms = unformatted(tmp_path)
    real_format = fmt.format_text
    edited = terms.read_text(encoding="utf-8") + "# saved by an editor meanwhile\n"

    def format_text(text, quotes=None, cache=None):
        terms.write_text(edited, encoding="utf-8")
        return real_format(text, quotes, cache)

    monkeypatch.setattr(fmt, "format_text", format_text)
    result = run("fmt", "--terms", terms)
    assert_clean_failure(result, "changed while this command ran", "nothing written")
    assert terms.read_text(encoding="utf-8") == edited
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("step", ["write", "rename"])
def test_fmt_on_a_full_disk_is_a_plain_error(tmp_path: Path, step: str, monkeypatch) -> None:
    terms = unformatted(tmp_path)
    before = terms.read_bytes()
    full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    if step == "write":
        real_fdopen = os.fdopen

        def fdopen(fd, *args, **kwargs):
            stream = real_fdopen(fd, *args, **kwargs)
            stream.write = lambda data: (_ for _ in ()).throw(full)
            return stream

        monkeypatch.setattr(os, "fdopen", fdopen)
    else:
        monkeypatch.setattr(os, "replace", lambda *a, **k: (_ for _ in ()).throw(full))
    result = run("fmt", "--terms", terms)
    assert_clean_failure(result, f"Error: {terms}: cannot write: No space left on device")
    assert terms.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    "term", ["楅'", "楅\n- id: evil\n  term: x", '楅"', "#楅", "楅: x", "- 楅"], ids=repr
)
def test_new_append_writes_any_term_as_one_entry(project: Path, term: str) -> None:
    terms = project / "terms.yaml"
    before = yaml.safe_load(terms.read_text(encoding="utf-8"))
    result = run(
        "new",
        "--category",
        "object",
        "--append",
        "--terms",
        terms,
        "--corpus",
        MINI_CORPUS,
        "--",
        term,
    )
    assert result.exit_code == 0, result.output
    after = yaml.safe_load(terms.read_text(encoding="utf-8"))
    assert after[: len(before)] == before and len(after) == len(before) + 1
    assert after[-1]["term"] == term


# == 3. nothing printed is a workflow command to GitHub Actions ====================================

WORKFLOW = ("::warning file=terms.yaml,line=1::fake annotation", "##[error]fake error")


def test_fmt_check_prints_no_workflow_command(tmp_path: Path) -> None:
    terms = unformatted(tmp_path)
    text = terms.read_text(encoding="utf-8")
    # A definition line that is a command once the diff's leading space is trimmed, and one
    # holding the old-style command in the middle of a line.
    text = set_field(text, "bi", "definition", "placeholder").replace(
        '  definition: "placeholder"\n',
        f"  definition: >-\n    {WORKFLOW[0]}\n    and {WORKFLOW[1]}\n",
        1,
    )
    terms.write_text(text, encoding="utf-8")
    result = run("fmt", "--check", "--terms", terms)
    assert result.exit_code == 1 and "would be reformatted" in result.output, result.output
    assert "fake annotation" in result.output and "fake error" in result.output  # shown …
    for line in result.output.splitlines():  # … as text
        assert not line.lstrip().startswith("::"), line
        assert "##[" not in line, line


def test_check_prints_no_workflow_command(tmp_path: Path) -> None:
    text = (ROOT / "tests/fixtures/terms-mini.yaml").read_text(encoding="utf-8")
    terms = make_project(tmp_path, set_field(text, "bi", "related", [WORKFLOW[1], "::error::x"]))
    for fmt in ("text", "github"):
        result = run(
            "check", "--terms", terms / "terms.yaml", "--corpus", MINI_CORPUS, "--format", fmt
        )
        assert result.exit_code == 1
        assert "##[" not in result.output
        commands = [line for line in result.output.splitlines() if line.lstrip().startswith("::")]
        # Only the annotations --format github means to write, each on its own line.
        assert all(re.match(r"::(error|warning|notice) file=", c) for c in commands), commands
        assert bool(commands) == (fmt == "github")


# == 4. changelog reads as check reads and passes no option to git =================================


def test_changelog_passes_no_revision_as_an_option(tmp_path: Path, monkeypatch) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / "terms.yaml").write_text("- {id: a, term: 甲}\n", encoding="utf-8")
    git(tmp_path, "add", "terms.yaml")
    git(tmp_path, "commit", "-q", "-m", "v1")
    monkeypatch.chdir(tmp_path)
    for spec in ("--output=written:terms.yaml", "-p:terms.yaml"):
        result = run("changelog", "--", spec, "terms.yaml")  # click takes them as arguments
        assert_clean_failure(result, "a revision cannot start with '-'")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git", "terms.yaml"]
    assert run("changelog", "HEAD:terms.yaml", "terms.yaml").exit_code == 0


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
    for p, c in zip("abcdefgh", "bcdefghi")
)


@pytest.mark.parametrize(
    "text, fragment",
    [
        (BOMB, "YAML aliases (*name) are not allowed"),
        ("5\n", "a list of entries is needed, not a int"),
        ("{a: 1}\n", "a list of entries is needed, not a dict"),
    ],
    ids=["alias bomb", "a number", "a mapping"],
)
def test_changelog_refuses_what_check_refuses(tmp_path: Path, text: str, fragment: str) -> None:
    (tmp_path / "old.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "new.yaml").write_text("- {id: a, term: 甲}\n", encoding="utf-8")
    result = run("changelog", tmp_path / "old.yaml", tmp_path / "new.yaml")
    assert_clean_failure(result, "Error: ", fragment)


def test_changelog_escapes_terms_for_the_terminal(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text("- {id: a, term: 甲}\n", encoding="utf-8")
    (tmp_path / "new.yaml").write_text(
        '- {id: a, term: 甲}\n- {id: b, term: "乙\\e[2J\\u202e\\nfake line"}\n', encoding="utf-8"
    )
    result = run("changelog", tmp_path / "old.yaml", tmp_path / "new.yaml")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\u202e" not in result.output
    assert "- `b` 乙\\u001b[2J\\u202e\\u000afake line\n" in result.output


# == 5. data files are never read through links ====================================================


@pytest.mark.parametrize("name", ["terms.yaml", "plan.yaml", "retired.yaml", "media/licenses.yaml"])
def test_a_linked_data_file_is_a_located_error_that_shows_nothing_of_its_target(
    tmp_path: Path, name: str
) -> None:
    project = make_project(tmp_path / "project")
    secret = tmp_path / "secret.yaml"
    secret.write_text(SECRET, encoding="utf-8")
    if name == "media/licenses.yaml":
        (project / "media").mkdir()
    path = project / name
    if path.exists():
        path.rename(tmp_path / "real")
    path.symlink_to(secret)
    result = run("check", "--terms", project / "terms.yaml", "--corpus", project / "corpus")
    assert result.exit_code == 1, result.output
    assert "is a symbolic link" in result.output and "internal error" not in result.output
    assert "SECRET" not in result.output and "AAAA" not in result.output


def test_a_linked_media_folder_is_refused_for_its_licences(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "licenses.yaml").write_text(SECRET, encoding="utf-8")
    (project / "media").symlink_to(elsewhere, target_is_directory=True)
    result = run("check", "--terms", project / "terms.yaml", "--corpus", project / "corpus")
    assert result.exit_code == 1 and "media is a symbolic link" in result.output, result.output
    assert "SECRET" not in result.output


# == 6. the exchange cannot be cut; signals, locales and terminals ================================


def test_ctrl_c_at_the_exchange_leaves_old_and_old_or_new_and_new(
    built: Path, tmp_path: Path, monkeypatch
) -> None:
    project = tmp_path / "project"
    shutil.copytree(built, project, symlinks=True)
    old = digest(project / "dist"), (project / "anki-ledger.json").read_bytes()
    text = (project / "terms.yaml").read_text(encoding="utf-8")
    (project / "terms.yaml").write_text(set_field(text, "bi", "gloss", "arrow rack (v2)"))
    real_swap = files._swap

    def swap(*args, **kwargs):
        real_swap(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C the moment the new folder is in place

    monkeypatch.setattr(files, "_swap", swap)
    result = build(project, project / "dist")
    assert result.exit_code == 130 and "Traceback" not in result.output
    assert "interrupted; " in result.output and "are as they were, or both new" in result.output
    now = digest(project / "dist"), (project / "anki-ledger.json").read_bytes()
    assert now != old  # held until both had moved: the new output with the new ledger
    assert now[0][MARKER] and json.loads(now[1]) != json.loads(old[1])
    assert [p.name for p in project.iterdir() if p.name.startswith(".")] == []


PRELUDE = """
import os, signal, sys
real = os.replace
def replace(src, dst, *a, **k):
    os.kill(os.getpid(), signal.SIGTERM)  # killed with its temporary file written
    return real(src, dst, *a, **k)
os.replace = replace
from glossary.cli import main
sys.argv[0] = "glossary"
main()
"""


@pytest.mark.slow  # another interpreter
def test_fmt_killed_by_sigterm_leaves_no_temporary_file(tmp_path: Path) -> None:
    terms = unformatted(tmp_path)
    before = terms.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE, "fmt", "--terms", str(terms)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 128 + signal.SIGTERM, done.stderr
    assert terms.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def _glossary(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "glossary", *args],
        capture_output=True,
        timeout=HANG_GUARD,
        cwd=ROOT,
        env={**os.environ, **ENV, **env},
        check=False,
    )


@pytest.mark.slow  # another interpreter, in another locale
def test_locate_in_the_c_locale_finds_a_passage_that_exists() -> None:
    # Without UTF-8 mode, the C locale decodes the argument as undecodable bytes.
    c_locale = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    done = _glossary("locate", "乃設楅于中庭", "--corpus", str(MINI_CORPUS), env=c_locale)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert b"internal error" not in done.stderr


@pytest.mark.slow  # another interpreter, with a Latin-1 terminal
def test_a_latin1_terminal_gets_escapes_not_an_internal_error(tmp_path: Path) -> None:
    terms = unformatted(tmp_path)
    done = _glossary("fmt", "--check", "--terms", str(terms), env={"PYTHONIOENCODING": "latin-1"})
    assert done.returncode == 1, done.stderr
    assert b"internal error" not in done.stderr and b"Traceback" not in done.stderr
    assert b"would be reformatted" in done.stdout and b"\\u" in done.stdout


@pytest.mark.slow  # the real anki package
def test_every_csv_row_reaches_anki_whatever_its_guid_starts_with(
    tmp_path: Path, monkeypatch
) -> None:
    import csv
    import io

    from anki.collection import (
        Collection,
        ImportAnkiPackageOptions,
        ImportAnkiPackageRequest,
        ImportCsvRequest,
    )

    import glossary.render.anki.notes as notes
    import glossary.render.anki.passages as passages
    from glossary.render.anki.ids import note_guid as real_guid  # what notes calls

    starts = "#@+-="
    count = iter(range(10**6))

    def guid(entry_id: str, kind: str = "term") -> str:
        # The GUIDs a spreadsheet or Anki's comment syntax would take for something else.
        return starts[next(count) % len(starts)] + real_guid(entry_id, kind)[1:]

    monkeypatch.setattr(notes, "note_guid", guid)
    monkeypatch.setattr(passages, "note_guid", guid)
    project = make_project(tmp_path / "project")
    assert build(project, tmp_path / "dist").exit_code == 0
    path = tmp_path / "dist" / "yili-glossary.csv"
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(True)
    header = next(i for i, line in enumerate(lines) if line.startswith("#columns:"))
    rows = list(csv.reader(io.StringIO("".join(lines[header + 1 :]))))
    assert {row[0][0] for row in rows} == set(starts)
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        # The deck first, so that each CSV row names a note Anki has: it must find it by its GUID.
        col.import_anki_package(
            ImportAnkiPackageRequest(
                package_path=str(tmp_path / "dist" / "yili-glossary.apkg"),
                options=ImportAnkiPackageOptions(with_scheduling=False),
            )
        )
        notes_before = len(col.find_notes(""))
        log = col.import_csv(
            ImportCsvRequest(path=str(path), metadata=col.get_csv_metadata(str(path), None))
        ).log
        matched = [*log.updated, *log.duplicate]
        # Every row read (none taken for a comment), each matched to its note by its GUID.
        assert len(matched) == len(rows) and not log.new and not log.conflicting
        assert len(col.find_notes("")) == notes_before
        guids = {col.get_note(n).guid for n in col.find_notes("")}
        assert {row[0] for row in rows} <= guids
    finally:
        col.close()


def test_the_published_check_hook_runs_for_every_file_a_check_reads() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    pattern = re.compile(hooks["glossary-check"]["files"])
    for name in (
        "terms.yaml",
        "plan.yaml",
        "retired.yaml",
        "anki-ledger.json",
        "media/licenses.yaml",
    ):
        assert pattern.search(name), name
    assert not pattern.search("README.md")


def test_a_committed_leftover_of_a_killed_build_that_is_a_link_is_not_restored(
    project: Path, tmp_path: Path
) -> None:
    # What a build killed between its two renames leaves (.dist.old-*/old), forged as a link.
    victim = tmp_path / "home"
    victim.mkdir()
    (victim / "precious.txt").write_text(SECRET)
    shutil.rmtree(project / "dist")
    (project / ".dist.old-x1y2").mkdir()
    (project / ".dist.old-x1y2" / "old").symlink_to(victim, target_is_directory=True)
    result = build(project, project / "dist")
    assert result.exit_code == 0, result.output
    assert not (project / "dist").is_symlink() and (project / "dist" / MARKER).exists()
    assert (victim / "precious.txt").read_text() == SECRET
    # Neither restored as dist nor left behind beside it.
    assert [p.name for p in project.iterdir() if p.name.startswith(".")] == []
