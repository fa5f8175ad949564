"""glossary/render/fonts.py: every character drawn — the BabelStone subset, the glyph check, the
files and media it ships. Uses the installed fonts (fonts-noto-cjk, fonts-babelstone-han)."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, make_project, set_field
from fontTools.ttLib import TTFont

from glossary.cli import cli
from glossary.errors import BuildError
from glossary.render import fonts

#: Extension B characters of the shipped glossary that Noto CJK lacks.
RARE = "𤣥𦵏"
#: A character no installed font draws (CJK Extension I, Unicode 15.1).
NO_GLYPH = "\U0002ebf0"


def build(root: Path, out: Path):
    return CliRunner(env={"SOURCE_DATE_EPOCH": "1700000000"}).invoke(
        cli,
        [
            "build",
            "--terms",
            str(root / "terms.yaml"),
            "--corpus",
            str(root / "corpus"),
            "--out",
            str(out),
            "--sheet",
            "乡射礼",
        ],
    )


def test_only_what_noto_lacks_goes_to_the_extra_font() -> None:
    assert fonts.extra_chars("西阶 xī jiē §" + RARE) == tuple(sorted(RARE))
    assert fonts.missing(RARE + "西") == ()
    assert fonts.missing(NO_GLYPH + RARE) == (NO_GLYPH,)


@pytest.mark.slow  # subsets a real font twice
def test_the_subset_is_those_characters_and_the_same_bytes_each_time() -> None:
    source = fonts.face(*fonts.EXTRA_SOURCE)
    first, second = fonts.subset(source, RARE), fonts.subset(source, RARE)
    assert first == second
    cmap = TTFont(io.BytesIO(first)).getBestCmap()
    assert set(cmap) == {ord(ch) for ch in RARE}


@pytest.mark.slow  # reads the cmap of every face with fontTools
@pytest.mark.parametrize("name", [*fonts.FACES, fonts.EXTRA_SOURCE])
def test_fontconfig_and_the_cmap_agree_on_what_a_face_draws(name) -> None:
    """The fast path (fc-query) gives exactly the face's best cmap, controls aside."""
    f = fonts.face(*name)
    listed = fonts._fc_charset(f)
    assert listed is not None, "fc-query (fontconfig) is installed with the fonts"
    with TTFont(f.file, fontNumber=f.index, lazy=True) as font:
        cmap = frozenset(cp for cp in font["cmap"].getBestCmap() if cp >= 0x20)
    assert listed == cmap


def test_fontconfig_charset_notation_is_read_and_anything_else_refused() -> None:
    expected = frozenset({0x20, 0x21, 0x41, 0x4E00, 0x4E01, 0x4E02})
    assert fonts.parse_charset("0-21 41 4e00-4e02\n") == expected
    assert fonts.parse_charset("Can't query face 9") is None


@pytest.mark.slow  # reads BabelStone Han's cmap with fontTools
def test_without_fontconfig_the_cmap_is_read(monkeypatch) -> None:
    fonts.coverage.cache_clear()
    monkeypatch.setattr("shutil.which", lambda name: None)
    try:
        slow = fonts.coverage(*fonts.EXTRA_SOURCE)
    finally:
        fonts.coverage.cache_clear()
    assert ord(RARE[0]) in slow and 0x1D not in slow
    assert slow == fonts.coverage(*fonts.EXTRA_SOURCE)


@pytest.mark.slow  # subsets every Noto face of the PDF
def test_print_faces_are_truetype() -> None:
    rules = fonts.print_font_faces("西阶 xī")
    assert rules.count("@font-face") == len(fonts.FACES)
    data = fonts.subset(fonts.face("Noto Serif CJK SC"), "西阶", truetype=True)
    font = TTFont(io.BytesIO(data))
    assert "glyf" in font and "CFF " not in font  # Chromium prints CFF as Type 3


def test_a_character_without_glyph_is_a_located_error() -> None:
    page = f'<article id="e-bi"><p>arrow {NO_GLYPH} rack</p></article>'
    with pytest.raises(BuildError) as failure:
        fonts.check_drawn({"glossary.html": page}, {"e-bi": "terms.yaml:7 (bi)"})
    message = str(failure.value.message)
    assert "[missing-glyph]" in message and "U+2EBF0" in message
    assert "glossary.html" in message and "terms.yaml:7 (bi)" in message


def test_a_build_ships_the_subset_with_its_licence_and_draws_with_it(tmp_path: Path) -> None:
    terms = set_field(
        (FIXTURES / "terms-mini.yaml").read_text(encoding="utf-8"),
        "bi",
        "gloss",
        f"arrow rack ({RARE})",
    )
    root = make_project(tmp_path / "repo", terms)
    result = build(root, tmp_path / "out")
    assert result.exit_code == 0, result.output
    out = tmp_path / "out"
    font = (out / fonts.EXTRA_FONT_FILE).read_bytes()
    assert set(TTFont(io.BytesIO(font)).getBestCmap()) == {ord(ch) for ch in RARE}
    assert "Arphic" in (out / fonts.EXTRA_LICENSE_FILE).read_text(encoding="utf-8")
    for page in ("glossary.html", "sheet-xiangshe.html"):
        html = (out / page).read_text(encoding="utf-8")
        assert f'font-family: "{fonts.EXTRA_FAMILY}"' in html
        assert "unicode-range: U+248E5, U+26D4F" in html  # 𤣥 𦵏, and only they
    assert "BabelStone Han for" in (out / "glossary.html").read_text(encoding="utf-8")  # colophon
    with zipfile.ZipFile(out / "yili-glossary.apkg") as package:
        names = set(json.loads(package.read("media")).values())
    assert {fonts.EXTRA_FONT_FILE, fonts.EXTRA_LICENSE_FILE} <= names


def test_without_rare_characters_nothing_extra_is_shipped(tmp_path: Path) -> None:
    root = make_project(tmp_path / "repo")
    result = build(root, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "out" / fonts.EXTRA_FONT_FILE).exists()
    html = (tmp_path / "out" / "glossary.html").read_text(encoding="utf-8")
    assert "@font-face" not in html and "BabelStone Han for" not in html  # colophon


def test_a_build_with_an_undrawable_character_fails_naming_it(tmp_path: Path) -> None:
    terms = set_field(
        (FIXTURES / "terms-mini.yaml").read_text(encoding="utf-8"),
        "bi",
        "gloss",
        f"arrow rack {NO_GLYPH}",
    )
    root = make_project(tmp_path / "repo", terms)
    result = build(root, tmp_path / "out")
    assert result.exit_code == 1, result.output
    assert "[missing-glyph] U+2EBF0" in result.output
    # The cards (the Anki renderer runs first) name the note and the entry's line.
    assert "(terms.yaml:7): [missing-glyph]" in result.output and "Anki note" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_the_timeout_scales_with_the_page(monkeypatch) -> None:
    from glossary.render import chromium

    monkeypatch.delenv(chromium.TIMEOUT_ENV, raising=False)
    small, large = chromium.timeout_for(b"x" * 1000), chromium.timeout_for(b"x" * 4_000_000)
    assert large > small + 400
    # Inlined fonts are no work to lay out.
    fonts_only = b'<style>src: url("data:font/ttf;base64,' + b"A" * 4_000_000 + b'")</style>'
    assert chromium.timeout_for(fonts_only) < small + 1
    monkeypatch.setenv(chromium.TIMEOUT_ENV, "999")
    assert chromium.timeout_for(b"x") == 999
    assert os.environ[chromium.TIMEOUT_ENV] == "999"
