"""The release folder: every output of a tagged commit, for students to download.

From a clean checkout of the commit tagged ``v<version>`` (pyproject.toml's version), the build's
outputs with every PDF printed on A4 and on Letter (``glossary-a4.pdf``, ``sheet-xiangshe-letter.pdf``
…), a study sheet for every rite, ``CHANGES.md`` (what changed since the previous version tag, in a
student's words), ``IMPORT.md`` (which boxes to tick in Anki's import dialog, by the version one
updates from) and ``SHA256SUMS``. The names carry no version, so the latest release's assets keep
their addresses (``…/releases/latest/download/yili-glossary.apkg``). Same commit, same bytes.
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from dataclasses import replace
from pathlib import Path

from glossary import version
from glossary.build import gather, render_all, write_outputs
from glossary.cache import IndexCache
from glossary.check import check_project
from glossary.errors import ReleaseError
from glossary.model import Release
from glossary.release.git import find_tags, git, require_clean
from glossary.release.notes import changes_file, import_file
from glossary.render import ALL_SHEETS, RENDERERS, RenderOptions
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE

#: The papers every PDF is printed on, and the suffix its name takes (``glossary-a4.pdf``).
PAPERS = ("a4", "letter")
CHECKSUMS = "SHA256SUMS"


def releases_url(explicit: str | None = None) -> str:
    """Where the releases are listed: ``explicit``, else the GitHub repository the workflow runs
    in (``$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/releases``)."""
    if explicit:
        return explicit.rstrip("/")
    server, repository = os.environ.get("GITHUB_SERVER_URL"), os.environ.get("GITHUB_REPOSITORY")
    if server and repository:
        return f"{server.rstrip('/')}/{repository}/releases"
    raise ReleaseError(
        "say where the releases are published (--url https://github.com/OWNER/REPO/releases): the "
        "decks and the book name it as the place of the next release"
    )


#: The web page with the reader view beside it, for reading offline: its "in the text" links
#: open read/<rite>.html, a folder, which no single-file release asset can hold.
WEB_ZIP = "yili-glossary-web.zip"


def web_zip(outputs: dict[str, bytes]) -> bytes:
    """``glossary.html`` and ``read/`` (with the font files the pages draw with) as one zip,
    the same bytes for the same outputs: names sorted, a fixed date, no extra attributes."""
    names = sorted(
        name
        for name in outputs
        if name == "glossary.html"
        or name.startswith("read/")
        or name.endswith(".ttf")
        or name.endswith("-LICENSE.txt")
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in names:
            info = zipfile.ZipInfo(f"yili-glossary/{name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, outputs[name])
    return out.getvalue()


def paper_name(name: str, paper: str) -> str:
    """``glossary.pdf`` printed on ``letter`` → ``glossary-letter.pdf``."""
    return f"{name.removesuffix('.pdf')}-{paper}.pdf"


def checksums(files: dict[str, bytes]) -> bytes:
    """``SHA256SUMS`` as ``sha256sum`` writes it (and ``sha256sum -c`` reads it), names sorted."""
    return "".join(
        f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n" for name in sorted(files)
    ).encode("utf-8")


def _ledger_at(repo: Path, tag: str, path: str) -> bytes | None:
    """The Anki ledger committed at ``tag`` (None where it had none)."""
    try:
        return git(repo, "show", "--no-textconv", "--end-of-options", f"{tag}:{path}").encode(
            "utf-8"
        )
    except ReleaseError:
        return None


def make_release(
    terms: Path | str,
    corpus: Path | str,
    out: Path | str,
    *,
    url: str,
    tag: str | None = None,
    pdf: bool = True,
    cache: IndexCache | None = None,
) -> dict[str, bytes]:
    """Write the release folder ``out`` and return its files (name → bytes).

    Refused unless the checkout is clean, HEAD carries ``v<version>``, the glossary passes its
    check and the build leaves the committed Anki ledger as it is (the ledger of a release is
    what the next one's "update if newer" is measured against). ``pdf=False`` leaves the PDFs
    out (a quick look at the rest; never a published release).
    """
    terms, corpus, out = Path(terms), Path(corpus), Path(out)
    project = terms.parent.resolve()
    repo = Path(git(project, "rev-parse", "--show-toplevel").strip())
    require_clean(repo, out)
    tags = find_tags(repo, version(), tag)
    report = check_project(terms, corpus, cache=cache, base=tags.previous)
    if report.failed(strict=True):  # as CI checks main: a warning stops a release too
        shown = "\n".join(str(p) for p in sorted(report.problems)[:20])
        raise ReleaseError(f"the glossary does not pass `glossary check --strict`:\n{shown}")
    glossary = replace(gather(report, project), release=Release(version(), url))
    # Everything but the PDFs first (seconds): a ledger that is not the committed one stops the
    # release before the printing (minutes).
    rendered = render_all(glossary, RenderOptions(paper=PAPERS[0], sheets=(ALL_SHEETS,)))
    ledger_path = os.path.relpath(project / LEDGER_FILE, repo)
    committed = (project / LEDGER_FILE).read_bytes() if (project / LEDGER_FILE).exists() else None
    if rendered.state.get(LEDGER_FILE) != committed:
        raise ReleaseError(
            f"{ledger_path}: the build changes the Anki ledger: run `glossary build "
            f"--record-ledger`, commit the ledger it writes, and tag that commit {tags.current} "
            "(the published ledger is what the next release's updates are measured against)"
        )
    if pdf:
        rendered = render_all(
            glossary, RenderOptions(paper=PAPERS[0], sheets=(ALL_SHEETS,), pdf=True)
        )
    files = {
        (paper_name(name, PAPERS[0]) if name.endswith(".pdf") else name): data
        for name, data in rendered.files.items()
        if "/" not in name  # release assets are files, not folders: the reader goes in a zip
    }
    files[WEB_ZIP] = web_zip(rendered.files)
    for paper in PAPERS[1:] if pdf else ():
        options = RenderOptions(paper=paper, sheets=(ALL_SHEETS,), pdf=True)
        for renderer in RENDERERS.values():
            for name, data in renderer(glossary, options).files.items():
                if name.endswith(".pdf"):
                    files[paper_name(name, paper)] = data
    new_ledger = rendered.state[LEDGER_FILE]
    earlier = {t: _ledger_at(repo, t, ledger_path) for t in tags.earlier}
    files["CHANGES.md"] = changes_file(
        repo, terms, tags, glossary, new_ledger, earlier, files
    ).encode("utf-8")
    files["IMPORT.md"] = import_file(tags, new_ledger, earlier, files).encode("utf-8")
    files[CHECKSUMS] = checksums(files)
    write_outputs(out, files, {}, keep=(terms, corpus, repo))
    return files
