"""`glossary build`: outputs written whole, deterministically, or not at all (mini project)."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT, make_project, mini_entries

from glossary.check import check_project
from glossary.cli import cli
from glossary.render import RENDERERS, Rendered


def build(project: Path, out: Path, terms: Path | None = None, record: bool = True):
    """Build ``project`` (its terms.yaml unless ``terms``) against its own corpus/ into ``out``;
    ``record``: as a release does, writing the Anki ledger too (``--record-ledger``)."""
    return CliRunner(env={"SOURCE_DATE_EPOCH": "1700000000"}).invoke(
        cli,
        [
            "build",
            "--terms",
            str(terms or project / "terms.yaml"),
            "--corpus",
            str(project / "corpus"),
            "--out",
            str(out),
            *(["--record-ledger"] if record else []),
        ],
    )


def digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.slow  # a second interpreter
def test_build_deck_script_runs_the_same_build(mini_project: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "build_deck.py"),
            "--terms",
            str(mini_project / "terms.yaml"),
            "--corpus",
            str(mini_project / "corpus"),
            "--out",
            str(tmp_path / "d"),
        ],
        cwd=mini_project,
        capture_output=True,
        text=True,
        env={**os.environ, "SOURCE_DATE_EPOCH": "1700000000"},
    )
    assert result.returncode == 0, result.stderr
    assert build(mini_project, tmp_path / "cli").exit_code == 0
    assert digest(tmp_path / "d") == digest(tmp_path / "cli")


def test_build_writes_terms_json_with_resolved_citations(
    mini_project: Path, tmp_path: Path, index
) -> None:
    result = build(mini_project, tmp_path / "dist")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "dist" / "terms.json").read_text(encoding="utf-8"))
    entries = mini_entries()
    assert [t["id"] for t in data["terms"]] == list(entries)
    report = check_project(mini_project / "terms.yaml", mini_project / "corpus", index=index)
    for term in data["terms"]:
        entry = entries[term["id"]]
        assert (term["term"], term["gloss"]) == (entry.term, entry.gloss)
        assert [c["quote"] for c in term["citations"]] == [c.quote for c in entry.citations]
        resolved = report.results_for(entry.id)
        for citation, result in zip(term["citations"], resolved, strict=True):
            assert [l["page"] for l in citation["loci"]] == [l.page for l in result.loci]
        assert (
            term["concordance"]["total"] > 0
        )  # every headword stands in the corpus it is cited from
    assert "kanripo.org" in data["attribution"]


def test_same_input_same_bytes(mini_project: Path, tmp_path: Path) -> None:
    assert build(mini_project, tmp_path / "a").exit_code == 0
    assert build(mini_project, tmp_path / "b").exit_code == 0
    assert digest(tmp_path / "a") == digest(tmp_path / "b")


def test_build_writes_the_ledger_beside_the_terms(mini_project: Path, tmp_path: Path) -> None:
    assert not (mini_project / "anki-ledger.json").exists()
    assert build(mini_project, tmp_path / "dist").exit_code == 0
    ledger = json.loads((mini_project / "anki-ledger.json").read_text(encoding="utf-8"))
    assert {f"note:{ident}" for ident in mini_entries()} <= set(ledger)
    assert {stamp["mod"] for stamp in ledger.values()} == {1700000000}


def test_a_plain_build_reads_the_ledger_and_leaves_it_as_it_was(
    mini_project: Path, tmp_path: Path
) -> None:
    # A fresh clone's first build must leave `git status` clean (issue 28.6): only a release
    # (--record-ledger) writes anki-ledger.json.
    assert build(mini_project, tmp_path / "none", record=False).exit_code == 0
    assert not (mini_project / "anki-ledger.json").exists()
    assert build(mini_project, tmp_path / "recorded").exit_code == 0
    recorded = (mini_project / "anki-ledger.json").read_bytes()
    text = (mini_project / "terms.yaml").read_text(encoding="utf-8")
    edited = text.replace("gloss: ", "gloss: the ", 1)
    assert edited != text
    (mini_project / "terms.yaml").write_text(edited, encoding="utf-8")
    assert build(mini_project, tmp_path / "edited", record=False).exit_code == 0
    assert (mini_project / "anki-ledger.json").read_bytes() == recorded
    # The recorded ledger still decides the modification times: the plain build and a recording
    # build of the same commit write the same decks.
    assert build(mini_project, tmp_path / "edited-recorded").exit_code == 0
    assert digest(tmp_path / "edited") == digest(tmp_path / "edited-recorded")
    assert (mini_project / "anki-ledger.json").read_bytes() != recorded


def test_a_fresh_clones_build_leaves_git_status_clean(mini_project: Path, tmp_path: Path) -> None:
    # The README's build command in a fresh clone: dist/ is ignored, the ledger only read.
    assert build(mini_project, tmp_path / "release").exit_code == 0  # the ledger a release records
    shutil.copyfile(ROOT / ".gitignore", mini_project / ".gitignore")
    # An entry edited since that release, as on main between releases: a build that wrote the
    # ledger would change it now.
    terms = mini_project / "terms.yaml"
    terms.write_text(terms.read_text("utf-8").replace("gloss: ", "gloss: the ", 1), "utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(mini_project)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "release"], check=True)
    text = (mini_project / "terms.yaml").read_text(encoding="utf-8")
    old = os.getcwd()
    try:
        os.chdir(mini_project)
        result = CliRunner().invoke(cli, ["build", "--corpus", "corpus"])
    finally:
        os.chdir(old)
    assert result.exit_code == 0, result.output
    assert (mini_project / "dist" / "yili-glossary.apkg").exists()
    status = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True)
    assert status.stdout == "" and text == (mini_project / "terms.yaml").read_text("utf-8")


def test_failed_build_leaves_the_previous_output_untouched(
    mini_project: Path, tmp_path: Path
) -> None:
    out = tmp_path / "dist"
    assert build(mini_project, out).exit_code == 0
    before = digest(out)
    ledger = (mini_project / "anki-ledger.json").read_bytes()
    broken = mini_project / "broken.yaml"
    text = (mini_project / "terms.yaml").read_text(encoding="utf-8")
    assert "楅长如笴博三寸" in text
    broken.write_text(text.replace("楅长如笴博三寸", "楅长如竿博三寸", 1), encoding="utf-8")
    result = build(mini_project, out, terms=broken)
    assert result.exit_code == 1
    assert "nothing written" in result.output
    assert digest(out) == before
    assert (mini_project / "anki-ledger.json").read_bytes() == ledger
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dist", "project"]


def test_rebuild_replaces_stale_outputs(mini_project: Path, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    assert build(mini_project, out).exit_code == 0
    (out / "stale.apkg").write_text("old", encoding="utf-8")
    assert build(mini_project, out).exit_code == 0
    assert not (out / "stale.apkg").exists()


@pytest.mark.parametrize(
    ("clash", "owner"),
    [
        ("terms.json", "renderer 'terms.json'"),
        ("YILI-GLOSSARY.APKG", "renderer 'anki'"),  # one file on a case-insensitive system
        (".glossary-build", "the build (its marker)"),
    ],
)
def test_two_outputs_of_one_name_fail_the_build(
    mini_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, clash: str, owner: str
) -> None:
    # A renderer registered after the others that picks a name already taken.
    monkeypatch.setitem(RENDERERS, "zz-late", lambda glossary, options: Rendered({clash: b"x"}))
    out = tmp_path / "dist"
    result = build(mini_project, out)
    assert result.exit_code == 1, result.output
    assert f"output {clash!r} of renderer 'zz-late' is also written by {owner}" in result.output
    assert not out.exists()


def test_two_state_files_of_one_name_fail_the_build(
    mini_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        RENDERERS,
        "zz-late",
        lambda glossary, options: Rendered({}, {"anki-ledger.json": b"{}"}),
    )
    result = build(mini_project, tmp_path / "dist")
    assert result.exit_code == 1, result.output
    assert (
        "state file 'anki-ledger.json' of renderer 'zz-late' is also written by renderer 'anki'"
        in (result.output)
    )


def test_refuses_to_replace_a_folder_it_did_not_write(mini_project: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    result = build(mini_project, mine)
    assert result.exit_code == 1
    assert "not a glossary build folder" in result.output
    assert (mine / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]


def test_a_refused_folder_is_refused_before_anything_is_checked_or_rendered(
    mini_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped build takes a minute: a wrong --out must not cost it."""
    import glossary.build as build_module

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the glossary was checked before the folder was refused")

    monkeypatch.setattr(build_module, "check_project", never)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine", encoding="utf-8")
    result = build(mini_project, mine)
    assert result.exit_code == 1
    assert "not a glossary build folder" in result.output


def test_a_broken_ledger_fails_the_build_by_name(mini_project: Path, tmp_path: Path) -> None:
    (mini_project / "anki-ledger.json").write_text("{not json", encoding="utf-8")
    result = build(mini_project, tmp_path / "dist")
    assert result.exit_code == 1
    assert "anki-ledger.json: Y801 ledger-unreadable: cannot read the Anki ledger" in result.output
    assert not (tmp_path / "dist").exists()
    assert (mini_project / "anki-ledger.json").read_text(encoding="utf-8") == "{not json"


def test_an_empty_ledger_is_the_same_as_none(tmp_path: Path) -> None:
    fresh = make_project(tmp_path / "fresh")
    empty = make_project(tmp_path / "empty")
    (empty / "anki-ledger.json").write_text("{}\n", encoding="utf-8")
    assert build(fresh, tmp_path / "a").exit_code == 0
    assert build(empty, tmp_path / "b").exit_code == 0
    assert digest(tmp_path / "a") == digest(tmp_path / "b")
    assert (fresh / "anki-ledger.json").read_bytes() == (empty / "anki-ledger.json").read_bytes()
