"""glossary/render/pdf.py: the Chromium command line — offline always, sandboxed unless root.

The command is looked at, not run (subprocess.run is replaced); real Chromium prints in
tests/render/test_print.py and tests/contribute/test_preview.py (slow).
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from glossary.errors import PdfError
from glossary.render import pdf


@pytest.fixture()
def commands(monkeypatch) -> list[list[str]]:
    """Every command run_chromium would run; each "prints" an empty-looking but present file."""
    ran: list[list[str]] = []

    def run(command, **kwargs):
        ran.append(command)
        for arg in command:
            if arg.startswith(("--print-to-pdf=", "--screenshot=")):
                Path(arg.split("=", 1)[1]).write_bytes(b"%PDF-1.4 stand-in")
        return subprocess.CompletedProcess(command, 0, b"", b"")

    monkeypatch.setattr(pdf, "find_chromium", lambda: "/usr/bin/chromium")
    monkeypatch.setattr(pdf.subprocess, "run", run)
    return ran


@pytest.mark.parametrize("uid", [0, 1000])
@pytest.mark.parametrize("what", ["pdf", "png"])
def test_chromium_runs_offline_and_sandboxed_unless_root(commands, monkeypatch, uid: int, what: str) -> None:
    monkeypatch.setattr(pdf.os, "geteuid", lambda: uid)
    data = pdf.print_pdf(b"<p>x</p>") if what == "pdf" else pdf.screenshot(b"<p>x</p>")
    assert data == b"%PDF-1.4 stand-in"
    [command] = commands
    assert command[0] == "/usr/bin/chromium" and "--headless" in command
    # No proxy, and a resolver that resolves no name: a page (or a font or image it names) reaches no network.
    assert "--no-proxy-server" in command
    assert "--host-resolver-rules=MAP * ~NOTFOUND" in command
    assert "--disable-background-networking" in command
    # The sandbox is off only where Chromium cannot run it: as root.
    assert ("--no-sandbox" in command) == (uid == 0)
    # The page is the file written into the private temporary folder, opened as file://.
    assert command[-1].startswith("file:///") and command[-1].endswith("/page.html")
    assert not any(arg.startswith("http") for arg in command)


def test_a_failing_chromium_is_a_pdf_error(monkeypatch) -> None:
    def run(command, **kwargs):
        raise subprocess.CalledProcessError(1, command, b"", b"\x1b[31mcrash\n")

    monkeypatch.setattr(pdf, "find_chromium", lambda: "/usr/bin/chromium")
    monkeypatch.setattr(pdf.subprocess, "run", run)
    with pytest.raises(PdfError, match="Chromium failed"):
        pdf.print_pdf(b"<p>x</p>")


def test_a_missing_chromium_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setattr(pdf, "find_chromium", lambda: None)
    with pytest.raises(PdfError, match="apt-get install chromium"):
        pdf.print_pdf(b"<p>x</p>")
