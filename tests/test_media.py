"""media/ and its licence list (glossary/media.py): every used file has a licence, every record a
file, and unused files are reported."""

from __future__ import annotations

from pathlib import Path

from conftest import MINI_TERMS, make_project, set_field

from glossary.check import check_project

PNG = b"\x89PNG\r\n\x1a\n"


def project_with_media(
    tmp_path: Path, licenses: str | None, files: dict[str, bytes], used: list[str]
) -> Path:
    text = MINI_TERMS.read_text(encoding="utf-8")
    if used:
        text = set_field(text, "bi", "tags", ["archery"]).replace(
            '  tags: ["archery"]\n',
            f'  tags: ["archery"]\n  media: {used!r}\n'.replace("'", '"'),
            1,
        )
    project = make_project(tmp_path / "project", text, plan=False)
    (project / "media").mkdir(exist_ok=True)
    for name, data in files.items():
        (project / "media" / name).parent.mkdir(parents=True, exist_ok=True)
        (project / "media" / name).write_bytes(data)
    if licenses is not None:
        (project / "media" / "licenses.yaml").write_text(licenses, encoding="utf-8")
    return project


def problems(project: Path) -> list[str]:
    report = check_project(project / "terms.yaml", project / "corpus")
    return [
        f"{p.severity} {p.path} {p.message}"
        for p in report.problems
        if "media" in f"{p.file} {p.path} {p.message}"
    ]


def test_a_used_file_with_its_licence_is_clean(tmp_path: Path) -> None:
    project = project_with_media(
        tmp_path,
        "- {file: zu.png, license: CC-BY-SA-4.0, author: A, source: made here}\n",
        {"zu.png": PNG},
        ["media/zu.png"],
    )
    assert problems(project) == []


def test_a_used_file_without_a_licence_is_an_error_at_the_entry(tmp_path: Path) -> None:
    project = project_with_media(tmp_path, "[]\n", {"zu.png": PNG}, ["media/zu.png"])
    assert problems(project) == [
        "error bi.media[0] media file 'zu.png' has no licence record in media/licenses.yaml"
    ]


def test_a_record_without_its_file_and_a_licence_not_allowed(tmp_path: Path) -> None:
    project = project_with_media(
        tmp_path,
        "- {file: gone.png, license: CC-BY-SA-4.0, author: A, source: B}\n"
        "- {file: zu.png, license: CC-BY-NC-4.0, author: A, source: B}\n",
        {"zu.png": PNG},
        [],
    )
    found = problems(project)
    assert any(p.startswith("error [0].file") and "gone.png" in p for p in found), found
    assert any(p.startswith("error [1].license") for p in found), found


def test_a_file_no_entry_uses_is_reported(tmp_path: Path) -> None:
    project = project_with_media(
        tmp_path,
        "- {file: sub/zu.png, license: CC0-1.0, author: A, source: B}\n",
        {"sub/zu.png": PNG},
        [],
    )
    report = check_project(project / "terms.yaml", project / "corpus")
    assert [
        (p.file, p.severity, p.message) for p in report.problems if p.file.startswith("media/")
    ] == [("media/sub/zu.png", "warning", "no entry uses this media file")]


def test_a_media_file_too_large_for_the_decks_is_an_error_at_the_entry(
    tmp_path: Path, monkeypatch
) -> None:
    import glossary.media as media

    licences = "".join(
        f"- {{file: {n}.png, license: CC-BY-SA-4.0, author: A, source: made here}}\n"
        for n in ("zu", "ku")
    )
    big = PNG + b"\0" * 100
    project = project_with_media(
        tmp_path, licences, {"zu.png": big, "ku.png": big}, ["media/zu.png", "media/ku.png"]
    )
    assert problems(project) == []
    monkeypatch.setattr(media, "MAX_MEDIA_BYTES", 100)
    monkeypatch.setattr(media, "MAX_MEDIA_TOTAL", 200)
    assert problems(project) == [
        "error  the media files the entries use come to 216 bytes, more than the 200 the decks "
        "may carry",
        "error bi.media[0] media file 'media/zu.png' is 108 bytes, more than the 100 a card's file "
        "may be",
        "error bi.media[1] media file 'media/ku.png' is 108 bytes, more than the 100 a card's file "
        "may be",
    ]
