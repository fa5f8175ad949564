"""The corpus: a manifest of texts, read into documents of layered streams."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path, PurePosixPath

import yaml

from glossary.corpus.model import LAYERS, CorpusWarning, Document, Locus, Stream, TextInfo
from glossary.errors import CorpusError
from glossary.files import UnreadableFile, read_bounded

#: Format → module of this package with its reader. Imported when a corpus is read, not when a
#: cached index is opened: a check with a warm cache needs none of them.
READER_MODULES: dict[str, str] = {
    "seed": "glossary.corpus.seed:read_seed",
    "mandoku": "glossary.corpus.mandoku:read_mandoku",
}


def reader(kind: str) -> Callable[[TextInfo, str, str], Document] | None:
    """The reader of a corpus format, or None for a format we cannot read."""
    if kind not in READER_MODULES:
        return None
    module, _, name = READER_MODULES[kind].partition(":")
    read: Callable[[TextInfo, str, str], Document] = getattr(import_module(module), name)
    return read


__all__ = [
    "Corpus",
    "CorpusError",
    "Document",
    "Locus",
    "Stream",
    "TextInfo",
    "LAYERS",
    "load_corpus",
]


@dataclass(frozen=True, eq=False)
class Corpus:
    """Every document of the manifest, read (where from is the caller's business: it may be cached)."""

    texts: tuple[TextInfo, ...]
    documents: tuple[Document, ...]

    @property
    def primary(self) -> TextInfo | None:
        """The text the manifest marks ``primary: true`` (the whole 禮經本義), if any."""
        return next((info for info in self.texts if info.primary), None)

    @property
    def warnings(self) -> list[CorpusWarning]:
        return [w for doc in self.documents for w in doc.warnings]


def _text_info(raw: dict) -> TextInfo:
    rites = raw.get("rites") or {}
    return TextInfo(
        id=str(raw["id"]),
        title=str(raw["title"]),
        work=str(raw.get("work", raw["title"])),
        author=str(raw.get("author", "")),
        edition=str(raw.get("edition", "")),
        script=str(raw.get("script", "")),
        format=str(raw["format"]),
        files=tuple(str(f) for f in raw["files"]),
        main_layer=str(raw.get("main_layer", "classic")),
        section_markers=bool(raw.get("section_markers", False)),
        placeholder=raw.get("placeholder"),
        heading_indents=tuple(raw.get("heading_indents", (1, 2))),
        excerpt_of=raw.get("excerpt_of"),
        rendering_of=str(raw["rendering_of"]) if raw.get("rendering_of") is not None else None,
        rendered_by=str(raw["rendered_by"]) if raw.get("rendered_by") is not None else None,
        juan=raw.get("juan"),
        page=str(raw["page"]) if raw.get("page") is not None else None,
        rites=tuple(sorted((int(k), str(v)) for k, v in rites.items())),
        primary=bool(raw.get("primary", False)),
        rite_headings=tuple((str(k), str(v)) for k, v in (raw.get("rite_headings") or {}).items()),
        readings=str(raw["readings"]) if raw.get("readings") else None,
        witness_of=str(raw["witness_of"]) if raw.get("witness_of") else None,
        heading_lines=tuple(str(h) for h in raw.get("heading_lines") or ()),
        note_speakers=tuple((str(k), str(v)) for k, v in (raw.get("note_speakers") or {}).items()),
        note_author=str(raw["note_author"]) if raw.get("note_author") else None,
    )


def read_manifest(root: Path) -> tuple[TextInfo, ...]:
    """The texts named in ``root/manifest.yaml``."""
    path = root / "manifest.yaml"
    try:
        text = read_bounded(path, MAX_FILE_BYTES).decode("utf-8")
        raw = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        return tuple(_text_info(t) for t in raw["texts"])
    except (
        OSError,
        yaml.YAMLError,
        KeyError,
        TypeError,
        ValueError,
    ) as exc:  # UnreadableFile is a ValueError
        raise CorpusError(f"{path}: cannot read the corpus manifest: {exc}") from None


#: A corpus file larger than this is refused unread (the largest shipped file is about 1 MB).
MAX_FILE_BYTES = 64 * 1024 * 1024


def corpus_path(root: Path, name: str) -> Path:
    """The path of a manifest's file ``name``: inside ``root``, with no symbolic link on the way.

    The manifest is data like any other: a name such as ``../../etc/passwd`` must not make the
    checker read, quote and publish a file from elsewhere on the disk.
    """
    manifest = root / "manifest.yaml"
    posix = PurePosixPath(name)
    if (
        "\0" in name
        or "\\" in name
        or posix.is_absolute()
        or ".." in posix.parts
        or not posix.parts
    ):
        raise CorpusError(
            f"{manifest}: file {name!r} must be a relative path inside the corpus folder"
        )
    if root.is_symlink():
        raise CorpusError(f"{root}: the corpus folder is a symbolic link; give its real path")
    step = root
    for part in posix.parts:
        step = step / part
        if step.is_symlink():
            raise CorpusError(
                f"{step}: a symbolic link; the corpus holds copies of its texts, not links"
            )
    return step


def read_checksums(root: Path) -> dict[str, str]:
    """File name → SHA-256 from ``root/SHA256SUMS``, which every corpus must have."""
    path = root / "SHA256SUMS"
    try:
        text = read_bounded(path, MAX_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise CorpusError(
            f"{path}: missing; every corpus file needs its checksum line "
            "(sha256sum FILE >> SHA256SUMS)"
        ) from None
    except (OSError, UnreadableFile, UnicodeDecodeError) as exc:
        raise CorpusError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    sums: dict[str, str] = {}
    for line in text.splitlines():
        digest, _, name = line.partition("  ")
        sums[name.removeprefix("./")] = digest
    return sums


def read_corpus_file(root: Path, name: str, sums: dict[str, str]) -> bytes:
    """A corpus file's bytes, checked against its line in ``SHA256SUMS`` (a file without one is refused)."""
    path = corpus_path(root, name)
    expected = sums.get(name)
    if expected is None:
        raise CorpusError(
            f"{path}: has no line in {root / 'SHA256SUMS'}; every corpus file is checked "
            "(sha256sum FILE >> SHA256SUMS)"
        )
    try:
        data = read_bounded(path, MAX_FILE_BYTES)
    except OSError as exc:
        raise CorpusError(f"{path}: {exc.strerror}") from None
    except UnreadableFile as exc:
        raise CorpusError(f"{path}: {exc}") from None
    if hashlib.sha256(data).hexdigest() != expected:
        raise CorpusError(
            f"{path}: differs from its checksum in SHA256SUMS (the corpus is kept unchanged)"
        )
    return data


def load_corpus(root: Path | str) -> Corpus:
    """Read every file of the manifest, checking each against ``SHA256SUMS``."""
    root = Path(root)
    texts = read_manifest(root)
    sums = read_checksums(root)
    documents = []
    for info in texts:
        read = reader(info.format)
        if read is None:
            raise CorpusError(
                f"{root / 'manifest.yaml'}: {info.id}: unknown format {info.format!r}"
            )
        for name in info.files:
            data = read_corpus_file(root, name, sums)
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise CorpusError(
                    f"{root / name}: not UTF-8 ({exc.reason} at byte {exc.start})"
                ) from None
            documents.append(read(info, name, text))
    return Corpus(texts=texts, documents=tuple(documents))
