"""`glossary release` on the fixture project in a git repository with two tags (tests/release_repo.py).

Quick: the PDFs are left out here (``--no-pdf``); tests/release/test_release_workflow.py runs the release
workflow's steps, which print them on A4 and Letter.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import set_field
from release_repo import CURRENT, PREVIOUS, URL, clone, git, make_release_repo

import glossary
from glossary.cli import cli
from glossary.errors import ReleaseError
from glossary.release.git import find_tags, version_key
from glossary.release.make import CHECKSUMS, WEB_ZIP, make_release, paper_name


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_release_repo(tmp_path_factory.mktemp("release") / "repo")


def release(checkout: Path, out: Path, *extra: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        cli,
        [
            "release",
            "--terms",
            str(checkout / "terms.yaml"),
            "--corpus",
            str(checkout / "corpus"),
            "--out",
            str(out),
            "--url",
            URL,
            "--no-pdf",
            *extra,
        ],
    )
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def released(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    checkout = clone(repo, tmp_path_factory.mktemp("clone") / "repo")
    status, output = release(checkout, checkout / "release", "--tag", CURRENT)
    assert status == 0, output
    return checkout / "release"


def root_description(package: Path, tmp_path: Path) -> str:
    with zipfile.ZipFile(package) as archive:
        (tmp_path / "collection.anki2").write_bytes(archive.read("collection.anki2"))
    db = sqlite3.connect(tmp_path / "collection.anki2")
    decks = json.loads(db.execute("select decks from col").fetchone()[0])
    db.close()
    return next(d["desc"] for d in decks.values() if d["name"] == "Yili 仪礼 Glossary")


def test_the_folder_holds_every_output_of_a_build_and_checksums_that_verify(
    repo: Path, released: Path, tmp_path: Path
) -> None:
    checkout = clone(repo, tmp_path / "build")
    result = CliRunner().invoke(
        cli,
        ["build", "--terms", str(checkout / "terms.yaml"), "--corpus", str(checkout / "corpus")]
        + ["--out", str(tmp_path / "dist"), "--sheet", "all"],
    )
    assert result.exit_code == 0, result.output
    built = {p.name for p in (tmp_path / "dist").iterdir() if not p.name.startswith(".")}
    names = {p.name for p in released.iterdir() if not p.name.startswith(".")}
    # The reader view's folder (read/) is the build's only folder: no release asset, but in the
    # web zip beside the glossary whose "in the text" links open it.
    assert names == built - {"read"} | {"CHANGES.md", "IMPORT.md", CHECKSUMS, WEB_ZIP}
    assert (tmp_path / "dist" / "read").is_dir() and not any(p.is_dir() for p in released.iterdir())
    with zipfile.ZipFile(released / WEB_ZIP) as archive:
        inside = {i.filename.removeprefix("yili-glossary/"): i for i in archive.infolist()}
        assert (
            archive.read("yili-glossary/glossary.html") == (released / "glossary.html").read_bytes()
        )
        pages = {p.name for p in (tmp_path / "dist" / "read").iterdir()}
        assert {n.removeprefix("read/") for n in inside if n.startswith("read/")} == pages
        for name in pages:
            assert (
                archive.read(f"yili-glossary/read/{name}")
                == (tmp_path / "dist" / "read" / name).read_bytes()
            ), name
        assert {i.date_time for i in inside.values()} == {(1980, 1, 1, 0, 0, 0)}
    assert {"sheet-xiangshe.html", "sheet-shiyu.html", "yili-xiangshe.apkg"} <= names
    # The data is the build's; only what names the release differs (deck descriptions, colophon).
    for name in ("terms.json", "yili-glossary.csv"):
        assert (released / name).read_bytes() == (tmp_path / "dist" / name).read_bytes(), name
    listed = (released / CHECKSUMS).read_text(encoding="utf-8").splitlines()
    assert sorted(line.split("  ", 1)[1] for line in listed) == sorted(names - {CHECKSUMS})
    done = subprocess.run(
        ["sha256sum", "--check", "--strict", CHECKSUMS], cwd=released, capture_output=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (released / "terms.json").write_bytes(b"{}")  # and a changed file fails them
    try:
        bad = subprocess.run(["sha256sum", "--check", CHECKSUMS], cwd=released, capture_output=True)
        assert bad.returncode != 0 and b"terms.json: FAILED" in bad.stdout
    finally:
        (released / "terms.json").write_bytes((tmp_path / "dist" / "terms.json").read_bytes())


def test_same_commit_same_bytes(repo: Path, released: Path, tmp_path: Path) -> None:
    again = clone(repo, tmp_path / "again")
    status, output = release(again, tmp_path / "out")
    assert status == 0, output
    files = sorted(p.name for p in released.iterdir())
    assert files == sorted(p.name for p in (tmp_path / "out").iterdir())
    for name in files:
        assert (released / name).read_bytes() == (tmp_path / "out" / name).read_bytes(), name


def test_the_changes_say_what_is_new_and_corrected_in_a_students_words(released: Path) -> None:
    changes = (released / "CHANGES.md").read_text(encoding="utf-8")
    assert changes.startswith(f"# Yili glossary {glossary.version()}\n")
    assert f"What changed since {PREVIOUS}: 1 new word, 2 corrected entries" in changes
    new = changes.split("## New words (1)", 1)[1].split("## Corrected entries", 1)[0]
    assert "### 乡射礼 鄉射禮 · The District Archery Rite (1)" in new
    assert "- 袒 tǎn: bare the left arm" in new
    corrected = changes.split("## Corrected entries (2)", 1)[1].split("##", 1)[0]
    assert "- 楅 fú: the English meaning" in corrected
    assert "- 司射 sī shè: the related words" in corrected
    # What the update changes, counted from the two releases' Anki ledgers: 袒's notes are new,
    # 楅's and 司射's term notes and the passage notes that ask them are updated.
    assert "- word notes: 1 new, 2 updated, 11 left as they are" in changes
    # and the import instructions follow
    assert f"## Importing {CURRENT} into Anki" in changes
    assert (
        (released / "IMPORT.md")
        .read_text(encoding="utf-8")
        .startswith(f"# Importing {CURRENT} into Anki")
    )


def test_the_import_instructions_name_the_earlier_release_and_its_boxes(released: Path) -> None:
    text = (released / "IMPORT.md").read_text(encoding="utf-8")
    plain = text.split(f"## Updating from {PREVIOUS}\n", 1)[1].split("\n## ", 1)[0]
    # The note types are those of v0.0.9: the dialog's defaults update exactly the changed notes.
    assert "Leave **Merge note types** unticked" in plain and "*If newer*" in plain
    merge = text.split(f"## Updating from decks built before {PREVIOUS}", 1)[1].split("\n## ")[0]
    assert "Tick **Merge note types**" in merge and "**Update notes** to **Always**" in merge
    assert "Tick **Import any deck presets**" in text.split("## New to the decks", 1)[1]


def test_the_decks_and_the_book_name_the_release_and_where_the_next_will_be(
    released: Path, tmp_path: Path
) -> None:
    description = root_description(released / "yili-glossary.apkg", tmp_path)
    assert f"Version {glossary.version()}." in description
    assert f'<a href="{URL}/latest">' in description
    html = (released / "glossary.html").read_text(encoding="utf-8")
    colophon = html.split('id="colophon"', 1)[1]
    assert f"<dt>Release</dt><dd>{glossary.version()}; newer releases will be at" in colophon
    assert f'href="{URL}/latest"' in colophon


def test_a_build_names_no_release(repo: Path, tmp_path: Path) -> None:
    checkout = clone(repo, tmp_path / "repo")
    result = CliRunner().invoke(
        cli,
        ["build", "--terms", str(checkout / "terms.yaml"), "--corpus", str(checkout / "corpus")]
        + ["--out", str(tmp_path / "dist")],
    )
    assert result.exit_code == 0, result.output
    assert "This release" not in root_description(
        tmp_path / "dist" / "yili-glossary.apkg", tmp_path
    )
    assert "<dt>Release</dt>" not in (tmp_path / "dist" / "glossary.html").read_text("utf-8")


def test_a_tag_that_is_not_the_version_is_refused(repo: Path, tmp_path: Path) -> None:
    checkout = clone(repo, tmp_path / "repo")
    status, output = release(checkout, tmp_path / "out", "--tag", PREVIOUS)
    assert status == 1
    assert f"the tag '{PREVIOUS}' is not '{CURRENT}', the version pyproject.toml holds" in output
    assert not (tmp_path / "out").exists()


def test_a_checkout_not_at_the_versions_tag_is_refused(repo: Path, tmp_path: Path) -> None:
    checkout = clone(repo, tmp_path / "repo", tag=PREVIOUS)
    status, output = release(checkout, tmp_path / "out")
    assert status == 1 and f"HEAD is not tagged {CURRENT}" in output


def test_a_changed_checkout_is_refused(repo: Path, tmp_path: Path) -> None:
    checkout = clone(repo, tmp_path / "repo")
    terms = checkout / "terms.yaml"
    terms.write_text(terms.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    (checkout / "notes.txt").write_text("mine", encoding="utf-8")
    status, output = release(checkout, checkout / "release")
    assert status == 1 and "not a clean checkout (" in output
    assert "terms.yaml" in output and "notes.txt" in output


def test_a_release_whose_ledger_was_not_committed_is_refused(repo: Path, tmp_path: Path) -> None:
    checkout = clone(repo, tmp_path / "repo")
    git(checkout, "tag", "-d", CURRENT)
    text = (checkout / "terms.yaml").read_text(encoding="utf-8")
    (checkout / "terms.yaml").write_text(text.replace("(corrected)", "(corrected again)"), "utf-8")
    git(checkout, "commit", "-qam", "an edit without its ledger")
    git(checkout, "tag", CURRENT)
    status, output = release(checkout, tmp_path / "out")
    assert status == 1 and "anki-ledger.json: the build changes the Anki ledger" in output
    assert git(checkout, "status", "--porcelain") == ""  # and the checkout is left as it was


def test_the_previous_release_is_the_newest_earlier_version_tag(repo: Path) -> None:
    git(repo, "tag", "v0.0.10", f"{PREVIOUS}^{{}}")  # 0.0.10 > 0.0.9: by number, not by text
    git(repo, "tag", "not-a-version")
    try:
        tags = find_tags(repo, glossary.version())
        assert tags.current == CURRENT and tags.earlier == ("v0.0.10", PREVIOUS)
        assert tags.previous == "v0.0.10"
    finally:
        git(repo, "tag", "-d", "v0.0.10", "not-a-version")
    with pytest.raises(ReleaseError, match="is not 'v"):
        find_tags(repo, glossary.version(), "v9.9.9")


def test_names() -> None:
    assert version_key("v0.10.1") == (0, 10, 1) and version_key("0.1") is None
    assert paper_name("glossary.pdf", "letter") == "glossary-letter.pdf"
    assert paper_name("sheet-xiangshe.pdf", "a4") == "sheet-xiangshe-a4.pdf"


def test_make_release_refuses_outside_a_repository(mini_project: Path, tmp_path: Path) -> None:
    with pytest.raises(ReleaseError, match="not a git repository"):
        make_release(mini_project / "terms.yaml", mini_project / "corpus", tmp_path / "o", url=URL)


def test_a_warning_stops_a_release_as_it_stops_ci(repo: Path, tmp_path: Path) -> None:
    checkout = clone(repo, tmp_path / "repo")
    git(checkout, "tag", "-d", CURRENT)
    text = (checkout / "terms.yaml").read_text(encoding="utf-8")
    (checkout / "terms.yaml").write_text(set_field(text, "bi", "pinyin", "bì"), encoding="utf-8")
    git(checkout, "commit", "-qam", "a reading no source gives")
    git(checkout, "tag", CURRENT)
    status, output = release(checkout, tmp_path / "out")
    assert status == 1 and "does not pass `glossary check --strict`" in output
    assert re.search(r"bi\.pinyin: warning: Y4\d\d [a-z-]+: 楅 bì", output)
    assert not (tmp_path / "out").exists()
