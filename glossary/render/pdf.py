"""Printing HTML to PDF with headless Chromium (Debian package ``chromium``)."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from glossary.errors import PdfError

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Flags for a headless, offline run: no background traffic, no proxy, and a host resolver that
#: resolves nothing, so a page (or a font or image it names) can never reach the network.
FLAGS = (
    "--headless",
    "--disable-gpu",
    "--no-proxy-server",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--no-pdf-header-footer",
)


def find_chromium() -> str | None:
    """The Chromium executable ($CHROMIUM, else the usual names on PATH)."""
    if explicit := os.environ.get("CHROMIUM"):
        return explicit if shutil.which(explicit) else None
    return next((path for name in BROWSERS if (path := shutil.which(name))), None)


def run_chromium(html: bytes, folder: Path, *args: str, timeout: int = 180) -> None:
    """Run headless Chromium on an HTML document written into ``folder``."""
    browser = find_chromium()
    if browser is None:
        raise PdfError("printing to PDF needs headless Chromium: install the Debian package `chromium` "
                       "(apt-get install chromium fonts-noto-cjk)")
    page = folder / "page.html"
    page.write_bytes(html)
    # Chromium's sandbox cannot run as root; anyone else keeps it.
    sandbox = ("--no-sandbox",) if os.geteuid() == 0 else ()
    command = [browser, *FLAGS, *sandbox, f"--user-data-dir={folder / 'profile'}", *args, page.as_uri()]
    try:
        subprocess.run(command, cwd=folder, capture_output=True, timeout=timeout, check=True)
    except subprocess.CalledProcessError as exc:
        raise PdfError(f"Chromium failed ({exc.returncode}): {exc.stderr.decode(errors='replace')[-500:]}") from None
    except subprocess.TimeoutExpired:
        raise PdfError(f"Chromium did not finish within {timeout} s") from None


def print_pdf(html: bytes) -> bytes:
    """The PDF Chromium prints from ``html`` (page size and margins from its @page rules)."""
    with tempfile.TemporaryDirectory(prefix="glossary-pdf-") as tmp:
        target = Path(tmp) / "out.pdf"
        run_chromium(html, Path(tmp), f"--print-to-pdf={target}")
        if not target.exists() or target.stat().st_size == 0:
            raise PdfError("Chromium wrote no PDF")
        return target.read_bytes()


def screenshot(html: bytes, width: int = 1000, height: int = 2200) -> bytes:
    """A PNG of the page as Chromium draws it at ``width`` × ``height`` pixels."""
    with tempfile.TemporaryDirectory(prefix="glossary-png-") as tmp:
        target = Path(tmp) / "out.png"
        run_chromium(html, Path(tmp), f"--screenshot={target}", f"--window-size={width},{height}",
                     "--hide-scrollbars", "--force-device-scale-factor=1")
        if not target.exists() or target.stat().st_size == 0:
            raise PdfError("Chromium wrote no screenshot")
        return target.read_bytes()
