"""glossary/render/pdf.py: the Chromium command line — offline always, sandboxed unless root.

The command is looked at, not run (subprocess.run and Popen are replaced, or the browser is a
shell script); real Chromium prints in
tests/render/test_print.py and tests/contribute/test_preview.py (slow).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from glossary.errors import PdfError
from glossary.render import pdf


@pytest.fixture()
def commands(monkeypatch) -> list[list[str]]:
    """Every command Chromium would be started with. A screenshot (``subprocess.run``) "writes"
    a stand-in file; a print (``subprocess.Popen``, driven on a pipe) fails to start."""
    ran: list[list[str]] = []

    def run(command, **kwargs):
        ran.append(command)
        for arg in command:
            if arg.startswith(("--print-to-pdf=", "--screenshot=")):
                Path(arg.split("=", 1)[1]).write_bytes(b"%PDF-1.4 stand-in")
        return subprocess.CompletedProcess(command, 0, b"", b"")

    def popen(command, **kwargs):
        ran.append(command)
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(pdf, "find_chromium", lambda: "/usr/bin/chromium")
    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.setattr(subprocess, "Popen", popen)
    return ran


@pytest.mark.parametrize("uid", [0, 1000])
@pytest.mark.parametrize("what", ["pdf", "png"])
def test_chromium_runs_offline_and_sandboxed_unless_root(
    commands, monkeypatch, uid: int, what: str
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: uid)
    if what == "pdf":
        with pytest.raises(PdfError, match=r"Chromium could not start \(/usr/bin/chromium\)"):
            pdf.print_pdf(b"<p>x</p>")
    else:
        assert pdf.screenshot(b"<p>x</p>") == b"%PDF-1.4 stand-in"
    [command] = commands
    assert command[0] == "/usr/bin/chromium" and "--headless" in command
    # No proxy, and a resolver that resolves no name: a page (or a font or image it names) reaches no network.
    assert "--no-proxy-server" in command
    assert "--host-resolver-rules=MAP * ~NOTFOUND" in command
    assert "--disable-background-networking" in command
    # The sandbox is off only where Chromium cannot run it: as root.
    assert ("--no-sandbox" in command) == (uid == 0)
    assert not any(arg.startswith("http") for arg in command)
    if what == "pdf":
        # Printed through DevTools on a pipe; the page is navigated to after the start.
        assert "--remote-debugging-pipe" in command and command[-1] == "about:blank"
        assert "--no-pdf-header-footer" not in command  # it kills the renderer on the pipe
    else:
        # The page is the file written into the private temporary folder, opened as file://.
        assert command[-1].startswith("file:///") and command[-1].endswith("/page.html")


def fake_browser(folder: Path, body: str) -> str:
    """An executable standing in for Chromium: a shell script of ``body``."""
    script = folder / "chromium"
    script.write_text("#!/bin/sh\n" + body + "\n", encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def test_a_failing_chromium_is_a_pdf_error(monkeypatch, tmp_path: Path) -> None:
    """A browser that stops (a screenshot's run, a print's pipe) is a PdfError with its stderr."""

    def run(command, **kwargs):
        raise subprocess.CalledProcessError(1, command, b"", b"\x1b[31mcrash\n")

    browser = fake_browser(tmp_path, "echo 'renderer crashed' >&2; exit 3")
    monkeypatch.setattr(pdf, "find_chromium", lambda: browser)
    with pytest.raises(PdfError, match=r"Chromium stopped \(3\): renderer crashed"):
        pdf.print_pdf(b"<p>x</p>")
    monkeypatch.setattr(subprocess, "run", run)
    with pytest.raises(PdfError, match="Chromium failed"):
        pdf.screenshot(b"<p>x</p>")


def test_a_print_that_takes_too_long_says_how_to_allow_more(monkeypatch, tmp_path: Path) -> None:
    """A browser that never answers is stopped at the limit, and the error names the setting."""
    browser = fake_browser(tmp_path, "exec sleep 30")
    monkeypatch.setattr(pdf, "find_chromium", lambda: browser)
    monkeypatch.setenv(pdf.TIMEOUT_ENV, "1")
    with pytest.raises(PdfError, match="within 1 s .*GLOSSARY_PDF_TIMEOUT=SECONDS"):
        pdf.print_pdf(b"<p>x</p>")


def test_a_missing_chromium_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setattr(pdf, "find_chromium", lambda: None)
    with pytest.raises(PdfError, match="apt-get install chromium"):
        pdf.print_pdf(b"<p>x</p>")


def test_glyphs_named_by_radicals_are_renamed_by_ideographs() -> None:
    """Chromium names a glyph that 鹿 and ⿅ share by the radical: the PDF's text map names it 鹿."""
    cmap = (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n1 begincodespacerange\n<0000> <FFFF>\n"
        "endcodespacerange\n2 beginbfchar\n<0003> <0020>\n<007F> <2FC5>\nendbfchar\n"
        "1 beginbfrange\n<0010> <0012> <2F00>\nendbfrange\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    )
    fixed = pdf.copy_safe_cmap(cmap)
    assert fixed is not None
    pairs = dict(pdf._cmap_pairs(fixed))
    assert pairs == {"0003": " ", "007F": "鹿", "0010": "一", "0011": "丨", "0012": "丶"}
    assert pdf.copy_safe_cmap(fixed) is None  # nothing left to rename


def test_finished_pdfs_depend_only_on_content_and_epoch() -> None:
    import io

    from pypdf import PdfReader, PdfWriter

    def blank(stamp: str) -> bytes:
        writer = PdfWriter()
        writer.add_blank_page(100, 100)
        writer.add_metadata({"/CreationDate": stamp, "/ModDate": stamp})
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()

    one, two = (
        pdf.finish(blank("D:20260101000000"), 1700000000),
        pdf.finish(blank("D:20261201101010"), 1700000000),
    )
    assert one == two
    metadata = PdfReader(io.BytesIO(one)).metadata
    assert metadata is not None and metadata.creation_date_raw == "D:20231114221320+00'00'"
    assert pdf.finish(blank("D:1"), 1700000001) != one


def _pdf_with(objects: int = 0, cmap: str | None = None) -> bytes:
    """A one-page PDF, with ``objects`` small dictionaries hung on the page (as Chromium hangs its
    structure elements) and a font whose ToUnicode map is ``cmap``."""
    import io

    from pypdf import PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
        NumberObject,
    )

    writer = PdfWriter()
    page = writer.add_blank_page(100, 100)
    items = ArrayObject()
    for n in range(objects):
        element = DictionaryObject(
            {NameObject("/S"): NameObject("/P"), NameObject("/K"): NumberObject(n)}
        )
        items.append(writer._add_object(element))
    page[NameObject("/Elements")] = items
    if cmap is not None:
        stream = DecodedStreamObject()
        stream.set_data(cmap.encode("latin-1"))
        font = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type0"),
                NameObject("/ToUnicode"): writer._add_object(stream),
            }
        )
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}
        )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_finished_pdfs_pack_their_small_objects_into_object_streams() -> None:
    """Issue 26: the book's 144,000 structure elements as plain objects and a cross-reference table
    made 27 MB of it; packed into compressed object streams they cost a fraction."""
    raw = _pdf_with(objects=5000)
    packed = pdf.finish(raw, 1700000000)
    assert b"/ObjStm" in packed and b"\nxref\n" not in packed
    assert len(packed) * 4 < len(raw)
    import io

    from pypdf import PdfReader

    page: Any = PdfReader(io.BytesIO(packed)).pages[0]  # read back by the other library
    assert [e.get_object()["/K"] for e in page["/Elements"]] == list(range(5000))


def test_finish_renames_radical_glyphs_inside_the_pdf() -> None:
    """The copy-safe text map is written into the PDF's own font, not only computed."""
    import io

    from pypdf import PdfReader

    cmap = (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n1 begincodespacerange\n<0000> <FFFF>\n"
        "endcodespacerange\n1 beginbfchar\n<007F> <2FC5>\nendbfchar\nendcmap\n"
        "CMapName currentdict /CMap defineresource pop\nend\nend\n"
    )
    finished = pdf.finish(_pdf_with(cmap=cmap), 1700000000)
    page: Any = PdfReader(io.BytesIO(finished)).pages[0]
    font = page["/Resources"]["/Font"]["/F1"].get_object()
    written = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    assert dict(pdf._cmap_pairs(written)) == {"007F": "鹿"}
