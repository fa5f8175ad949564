"""Headless Chromium (Debian package ``chromium``), offline and sandboxed unless root: the
printing of HTML to PDF and pictures of pages, driven through the DevTools protocol on a pipe
(a screenshot of one window by the command line)."""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
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


def require_chromium() -> str:
    """The Chromium executable, or a :class:`PdfError` that says what to install."""
    browser = find_chromium()
    if browser is None:
        raise PdfError(
            "printing to PDF needs headless Chromium: install the Debian package `chromium` "
            "(apt-get install chromium fonts-noto-cjk)"
        )
    return browser


#: How long Chromium may take: a minute to start, and two more per megabyte of page (the book,
#: about 4 MB, prints in 1–2 minutes on an idle machine); $GLOSSARY_PDF_TIMEOUT overrides it.
TIMEOUT_BASE = 60
TIMEOUT_PER_MB = 120
TIMEOUT_ENV = "GLOSSARY_PDF_TIMEOUT"


def timeout_for(html: bytes) -> float:
    """The seconds Chromium is given for ``html``: scaled with its size, or $GLOSSARY_PDF_TIMEOUT."""
    if value := os.environ.get(TIMEOUT_ENV):
        try:
            return max(1.0, float(value))
        except ValueError:
            raise PdfError(f"{TIMEOUT_ENV}={value!r} is not a number of seconds") from None
    return TIMEOUT_BASE + TIMEOUT_PER_MB * _work(html) / 1_000_000


def _work(html: bytes) -> int:
    """The page's size without inlined data (fonts as data URLs cost Chromium little)."""
    return len(_DATA_URL.sub(b"", html))


_DATA_URL = re.compile(rb"data:[^\"')\s]+")


def chromium_command(browser: str, folder: Path, *args: str, pipe: bool = False) -> list[str]:
    """The command line of a Chromium run in ``folder`` (its profile there): offline, headless,
    sandboxed unless root; ``pipe``: driven through DevTools on fds 3 and 4."""
    # Chromium's sandbox cannot run as root; anyone else keeps it.
    sandbox = ("--no-sandbox",) if os.geteuid() == 0 else ()
    # --no-pdf-header-footer is for --print-to-pdf, and with the pipe it kills the renderer
    # (Chromium 156); a print through the pipe asks for no header and footer itself.
    flags = [f for f in FLAGS if f != "--no-pdf-header-footer"] if pipe else list(FLAGS)
    pipe_flags = ("--remote-debugging-pipe",) if pipe else ()
    return [browser, *flags, *sandbox, f"--user-data-dir={folder / 'profile'}", *pipe_flags, *args]


def run_chromium(html: bytes, folder: Path, *args: str, timeout: float | None = None) -> None:
    """Run headless Chromium on an HTML document written into ``folder`` (``timeout``: seconds,
    by default :func:`timeout_for` the document)."""
    timeout = timeout_for(html) if timeout is None else timeout
    page = folder / "page.html"
    page.write_bytes(html)
    command = chromium_command(require_chromium(), folder, *args, page.as_uri())
    try:
        subprocess.run(command, cwd=folder, capture_output=True, timeout=timeout, check=True)
    except subprocess.CalledProcessError as exc:
        raise PdfError(
            f"Chromium failed ({exc.returncode}): {exc.stderr.decode(errors='replace')[-500:]}"
        ) from None
    except subprocess.TimeoutExpired:
        raise PdfError(
            f"Chromium did not finish printing a {_work(html) / 1_000_000:.1f} MB page within "
            f"{timeout:.0f} s (the limit is {TIMEOUT_BASE} s + {TIMEOUT_PER_MB} s per MB); on a "
            f"busy or slow machine allow more: {TIMEOUT_ENV}=SECONDS glossary build --pdf"
        ) from None


def print_pdf(html: bytes, *, outline: bool = False) -> bytes:
    """The PDF Chromium prints from ``html`` (page size and margins from its @page rules);
    ``outline``: with bookmarks made from the headings (h1 > h2 > …).

    Printed through the DevTools protocol, not ``--print-to-pdf``, so that the printing waits
    for the page's fonts and pictures (``document.fonts.ready``, each image decoded): the
    command line prints at the load event, when a font may still be loading on a busy machine
    (the likely cause of a book that once printed in other bytes under load). The bytes are
    those ``--print-to-pdf --no-pdf-header-footer`` writes, once finished (:func:`finish`)."""
    timeout = timeout_for(html)
    browser = require_chromium()
    with tempfile.TemporaryDirectory(prefix="glossary-pdf-") as tmp:
        deadline = time.monotonic() + timeout
        try:
            with _DevTools(browser, Path(tmp), deadline, job="print") as tools:
                return tools.print(html, outline)
        except PdfError:
            if time.monotonic() < deadline:
                raise
            raise PdfError(
                f"Chromium did not finish printing a {_work(html) / 1_000_000:.1f} MB page "
                f"within {timeout:.0f} s (the limit is {TIMEOUT_BASE} s + {TIMEOUT_PER_MB} s "
                f"per MB); on a busy or slow machine allow more: "
                f"{TIMEOUT_ENV}=SECONDS glossary build --pdf"
            ) from None


def screenshot(html: bytes, width: int = 1000, height: int = 2200) -> bytes:
    """A PNG of the page as Chromium draws it at ``width`` × ``height`` pixels."""
    with tempfile.TemporaryDirectory(prefix="glossary-png-") as tmp:
        target = Path(tmp) / "out.png"
        run_chromium(
            html,
            Path(tmp),
            f"--screenshot={target}",
            f"--window-size={width},{height}",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        )
        if not target.exists() or target.stat().st_size == 0:
            raise PdfError("Chromium wrote no screenshot")
        return target.read_bytes()


#: Chromium's limit for one screenshot, in device pixels.
MAX_SCREENSHOT_PIXELS = 16384
#: How tall the window of :func:`screenshots` is, in CSS pixels (a phone's screen): what ``vh``
#: units of a page are measured by; the picture itself is as tall as the page.
SCREENSHOT_WINDOW_HEIGHT = 800


def screenshots(
    pages: Sequence[tuple[bytes, int]], scale: float = 2, timeout: float | None = None
) -> list[bytes]:
    """A PNG of each of ``pages`` (HTML, width in CSS pixels), as tall as the page is (up to
    Chromium's limit), at ``scale`` device pixels per CSS pixel: one Chromium for them all, driven
    through the DevTools protocol on a pipe (``--remote-debugging-pipe``), so each page costs a
    navigation, not a browser start. ``timeout``: seconds for them all (by default a minute to
    start and 20 s a page)."""
    if not pages:
        return []
    timeout = TIMEOUT_BASE + 20 * len(pages) if timeout is None else timeout
    with tempfile.TemporaryDirectory(prefix="glossary-png-") as tmp:
        with _DevTools(require_chromium(), Path(tmp), time.monotonic() + timeout) as tools:
            return [tools.screenshot(html, width, scale) for html, width in pages]


class _DevTools:
    """A headless Chromium and one page of it, spoken to in the DevTools protocol over the pipe
    Chromium reads on fd 3 and writes on fd 4 (JSON messages, each ended by a NUL byte)."""

    def __init__(self, browser: str, folder: Path, deadline: float, job: str = "pictures") -> None:
        import fcntl

        self.folder, self.deadline, self.pages, self.last = folder, deadline, 0, 0
        self.job = job  # what a timeout says Chromium did not finish
        self.buffer = b""
        self.events: list[dict] = []  # those that came while a call waited for its answer
        # The child's ends numbered from 10, so that putting them at 3 and 4 clobbers neither.
        to_child, self.send_fd = os.pipe()
        self.read_fd, from_child = os.pipe()
        child_in = fcntl.fcntl(to_child, fcntl.F_DUPFD_CLOEXEC, 10)
        child_out = fcntl.fcntl(from_child, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(to_child)
        os.close(from_child)

        def pipe_fds() -> None:  # in the child, before exec: the only fds it inherits
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.log = folder / "chromium.log"
        command = chromium_command(browser, folder, "--hide-scrollbars", "about:blank", pipe=True)
        try:
            with self.log.open("wb") as log:
                self.process = subprocess.Popen(
                    command,
                    cwd=folder,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=log,
                    close_fds=False,  # Python's own fds are not inheritable: only 3 and 4 pass
                    preexec_fn=pipe_fds,
                )
        except OSError as exc:
            for fd in (self.send_fd, self.read_fd):
                os.close(fd)
            raise PdfError(f"Chromium could not start ({browser}): {exc.strerror}") from None
        finally:
            os.close(child_in)
            os.close(child_out)

    def __enter__(self) -> _DevTools:
        try:
            target = self.call("Target.createTarget", url="about:blank")["targetId"]
            self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
                "sessionId"
            ]
            self.call("Page.enable", session=self.session)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                if time.monotonic() >= self.deadline:  # it did not answer: no time to ask
                    raise subprocess.TimeoutExpired(self.process.args, 0)
                self._send("Browser.close")
                self.process.wait(timeout=10)
            except (OSError, PdfError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        os.close(self.send_fd)
        os.close(self.read_fd)

    def _failed(self, why: str) -> PdfError:
        tail = self.log.read_bytes()[-500:].decode(errors="replace") if self.log.exists() else ""
        return PdfError(f"Chromium {why}" + (f": {tail}" if tail else ""))

    def _send(self, method: str, session: str | None = None, **params: object) -> int:
        self.last += 1
        message: dict[str, object] = {"id": self.last, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        try:
            os.write(self.send_fd, json.dumps(message).encode() + b"\0")
        except BrokenPipeError:  # it stopped before reading: say how, as a read would
            raise self._failed(f"stopped ({self.process.wait()})") from None
        return self.last

    def _receive(self) -> dict:
        import select

        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            ready = select.select([self.read_fd], [], [], max(0.0, left))[0] if left > 0 else []
            if not ready:
                raise self._failed(f"did not finish the {self.job} in time")
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise self._failed(f"stopped ({self.process.wait()})")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        found: dict = json.loads(message)
        return found

    def call(self, method: str, session: str | None = None, **params: object) -> dict:
        sent = self._send(method, session, **params)
        while (message := self._receive()).get("id") != sent:
            if "method" in message:
                self.events.append(message)
        if "error" in message:
            raise self._failed(f"refused {method}: {message['error'].get('message')}")
        result: dict = message["result"]
        return result

    def _open(self, html: bytes) -> None:
        """Load ``html`` (written to a file of its own) and wait for its load event, its fonts
        and its pictures."""
        self.pages += 1
        page = self.folder / f"page-{self.pages}.html"
        page.write_bytes(html)
        self.events.clear()
        self.call("Page.navigate", self.session, url=page.as_uri())
        while not any(
            event.get("method") == "Page.loadEventFired" and event.get("sessionId") == self.session
            for event in self.events
        ):
            self.events.append(self._receive())
        self.call(
            "Runtime.evaluate",
            self.session,
            expression="document.fonts.ready.then(() => Promise.all(Array.from(document.images,"
            " (image) => image.decode().catch(() => null)))).then(() => true)",
            awaitPromise=True,
            returnByValue=True,
        )

    def print(self, html: bytes, outline: bool) -> bytes:
        """The PDF of ``html`` as the command line's ``--print-to-pdf --no-pdf-header-footer``
        prints it (the page's own @page size and margins, backgrounds, tagged), once loaded."""
        self._open(html)
        printed = self.call(
            "Page.printToPDF",
            self.session,
            printBackground=True,
            preferCSSPageSize=True,
            displayHeaderFooter=False,
            generateTaggedPDF=True,
            generateDocumentOutline=outline,
        )
        return base64.b64decode(printed["data"])

    def screenshot(self, html: bytes, width: int, scale: float) -> bytes:
        self.call(
            "Emulation.setDeviceMetricsOverride",
            self.session,
            width=width,
            height=SCREENSHOT_WINDOW_HEIGHT,
            deviceScaleFactor=scale,
            mobile=False,
        )
        self._open(html)
        # The page's own height once its fonts are in (the <html> box: its body and margins).
        measured = self.call(
            "Runtime.evaluate",
            self.session,
            expression="Math.ceil(document.documentElement.getBoundingClientRect().height)",
            returnByValue=True,
        )
        height = min(max(1, int(measured["result"]["value"])), int(MAX_SCREENSHOT_PIXELS / scale))
        shot = self.call(
            "Page.captureScreenshot",
            self.session,
            format="png",
            captureBeyondViewport=True,
            clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1},
        )
        return base64.b64decode(shot["data"])
