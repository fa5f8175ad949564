"""glossary/render/chromium.py: the Chromium command line — offline always, sandboxed unless
root — and the errors of a browser that cannot start, stops or never answers.

The command is looked at, not run (subprocess.run and Popen are replaced, or the browser is a
shell script); real Chromium prints in tests/render/test_print.py and
tests/contribute/test_preview.py (slow).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from glossary.errors import PdfError
from glossary.render import chromium


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

    monkeypatch.setattr(chromium, "find_chromium", lambda: "/usr/bin/chromium")
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
            chromium.print_pdf(b"<p>x</p>")
    else:
        assert chromium.screenshot(b"<p>x</p>") == b"%PDF-1.4 stand-in"
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
    monkeypatch.setattr(chromium, "find_chromium", lambda: browser)
    with pytest.raises(PdfError, match=r"Chromium stopped \(3\): renderer crashed"):
        chromium.print_pdf(b"<p>x</p>")
    monkeypatch.setattr(subprocess, "run", run)
    with pytest.raises(PdfError, match="Chromium failed"):
        chromium.screenshot(b"<p>x</p>")


def test_a_print_that_takes_too_long_says_how_to_allow_more(monkeypatch, tmp_path: Path) -> None:
    """A browser that never answers is stopped at the limit, and the error names the setting."""
    browser = fake_browser(tmp_path, "exec sleep 30")
    monkeypatch.setattr(chromium, "find_chromium", lambda: browser)
    monkeypatch.setenv(chromium.TIMEOUT_ENV, "1")
    with pytest.raises(PdfError, match="within 1 s .*GLOSSARY_PDF_TIMEOUT=SECONDS"):
        chromium.print_pdf(b"<p>x</p>")


def test_a_missing_chromium_says_what_to_install(monkeypatch) -> None:
    monkeypatch.setattr(chromium, "find_chromium", lambda: None)
    with pytest.raises(PdfError, match="apt-get install chromium"):
        chromium.print_pdf(b"<p>x</p>")
