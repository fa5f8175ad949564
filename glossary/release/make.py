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
import os
import re
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

from glossary import version
from glossary.build import gather, render_all, write_outputs
from glossary.cache import IndexCache
from glossary.check import check_project
from glossary.errors import ReleaseError
from glossary.model import Release
from glossary.release.notes import changes_file, import_file
from glossary.render import ALL_SHEETS, RENDERERS, RenderOptions
from glossary.render.anki.ledger import FILENAME as LEDGER_FILE

#: A version tag: ``v`` and pyproject.toml's version (``v0.1.0``).
TAG = re.compile(r"v(\d+(?:\.\d+)*)")
#: The papers every PDF is printed on, and the suffix its name takes (``glossary-a4.pdf``).
PAPERS = ("a4", "letter")
CHECKSUMS = "SHA256SUMS"


@dataclass(frozen=True)
class Tags:
    """The version tag at HEAD and every earlier version tag HEAD contains, newest first."""

    current: str
    earlier: tuple[str, ...] = ()

    @property
    def previous(self) -> str | None:
        return self.earlier[0] if self.earlier else None


def git(repo: Path, *args: str) -> str:
    """What ``git args`` prints in ``repo`` (a failure is a :class:`ReleaseError`)."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=repo, capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ReleaseError(f"{repo}: cannot run git: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise ReleaseError(f"{repo}: git {' '.join(args)}: {message}")
    return done.stdout.decode("utf-8", "replace")


def version_key(tag: str) -> tuple[int, ...] | None:
    """``v0.10.1`` → (0, 10, 1); None for a tag that is no version tag."""
    match = TAG.fullmatch(tag)
    return tuple(int(part) for part in match.group(1).split(".")) if match else None


def find_tags(repo: Path, wanted: str, tag: str | None = None) -> Tags:
    """The tags of a release of version ``wanted``: HEAD must carry ``v<wanted>``, and ``tag`` (the
    pushed tag a workflow was started by), when given, must be that very name."""
    name = f"v{wanted}"
    if tag is not None and tag != name:
        raise ReleaseError(
            f"the tag {tag!r} is not {name!r}, the version pyproject.toml holds: tag the "
            f"commit {name}, or change the version in pyproject.toml and tag again"
        )
    if name not in git(repo, "tag", "--points-at", "HEAD").split():
        raise ReleaseError(
            f"HEAD is not tagged {name} (the version in pyproject.toml): a release is made from "
            f"the commit its tag names (`git tag {name}`, then check it out)"
        )
    current = version_key(name)
    assert current is not None
    merged = git(repo, "tag", "--merged", "HEAD", "--list", "v*").split()
    earlier = [t for t in merged if (key := version_key(t)) is not None and key < current]
    return Tags(name, tuple(sorted(earlier, key=version_key, reverse=True)))  # type: ignore[arg-type]


def require_clean(repo: Path, out: Path) -> None:
    """A release is made from the commit as committed: no change to a tracked file, no file git
    does not ignore (the output folder aside)."""
    listed = git(repo, "status", "--porcelain=v1", "-z", "--untracked-files=all").split("\0")
    inside = os.path.relpath(out.resolve(), repo.resolve())
    dirty = [
        line[3:]
        for line in listed
        if line and not (inside != "." and not inside.startswith("..") and _under(line[3:], inside))
    ]
    if dirty:
        shown = ", ".join(dirty[:5]) + (f" and {len(dirty) - 5} more" if len(dirty) > 5 else "")
        raise ReleaseError(
            f"{repo}: not a clean checkout ({shown}): a release is built from the tagged commit "
            "as committed; commit or remove the changes, or release from a fresh clone"
        )


def _under(path: str, folder: str) -> bool:
    return path == folder or path.rstrip("/") == folder or path.startswith(folder.rstrip("/") + "/")


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
    if report.failed():
        shown = "\n".join(str(p) for p in sorted(report.problems)[:20])
        raise ReleaseError(f"the glossary does not pass `glossary check`:\n{shown}")
    glossary = replace(gather(report, project), release=Release(version(), url))
    rendered = render_all(glossary, RenderOptions(paper=PAPERS[0], sheets=(ALL_SHEETS,), pdf=pdf))
    files = {
        (paper_name(name, PAPERS[0]) if name.endswith(".pdf") else name): data
        for name, data in rendered.files.items()
    }
    for paper in PAPERS[1:] if pdf else ():
        options = RenderOptions(paper=paper, sheets=(ALL_SHEETS,), pdf=True)
        for renderer in RENDERERS.values():
            for name, data in renderer(glossary, options).files.items():
                if name.endswith(".pdf"):
                    files[paper_name(name, paper)] = data
    ledger_path = os.path.relpath(project / LEDGER_FILE, repo)
    committed = (project / LEDGER_FILE).read_bytes() if (project / LEDGER_FILE).exists() else None
    if rendered.state.get(LEDGER_FILE) != committed:
        raise ReleaseError(
            f"{ledger_path}: the build changes the Anki ledger: run `glossary build`, commit the "
            f"ledger it writes, and tag that commit {tags.current} (the published ledger is what "
            "the next release's updates are measured against)"
        )
    new_ledger = rendered.state[LEDGER_FILE]
    earlier = {t: _ledger_at(repo, t, ledger_path) for t in tags.earlier}
    files["CHANGES.md"] = changes_file(
        repo, terms, tags, glossary, new_ledger, earlier, files
    ).encode("utf-8")
    files["IMPORT.md"] = import_file(tags, new_ledger, earlier, files).encode("utf-8")
    files[CHECKSUMS] = checksums(files)
    write_outputs(out, files, {}, keep=(terms, corpus, repo))
    return files
