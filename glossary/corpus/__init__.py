"""The corpus: a manifest of texts, read into documents of layered streams."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Callable

import yaml

from glossary.corpus.model import LAYERS, CorpusWarning, Document, Locus, Stream, TextInfo

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
    return getattr(import_module(module), name)


__all__ = ["Corpus", "CorpusError", "Document", "Locus", "Stream", "TextInfo", "LAYERS", "load_corpus"]


class CorpusError(Exception):
    """The corpus folder itself is broken (missing manifest or file, changed file)."""


@dataclass(frozen=True, eq=False)
class Corpus:
    """Every document of the manifest, read (where from is the caller's business: it may be cached)."""

    texts: tuple[TextInfo, ...]
    documents: tuple[Document, ...]

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
        juan=raw.get("juan"),
        page=str(raw["page"]) if raw.get("page") is not None else None,
        rites=tuple(sorted((int(k), str(v)) for k, v in rites.items())),
    )


def read_manifest(root: Path) -> tuple[TextInfo, ...]:
    """The texts named in ``root/manifest.yaml``."""
    path = root / "manifest.yaml"
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        return tuple(_text_info(t) for t in raw["texts"])
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise CorpusError(f"{path}: cannot read the corpus manifest: {exc}") from None


def _checksums(root: Path) -> dict[str, str]:
    sums: dict[str, str] = {}
    path = root / "SHA256SUMS"
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            digest, _, name = line.partition("  ")
            sums[name.removeprefix("./")] = digest
    return sums


def load_corpus(root: Path | str) -> Corpus:
    """Read every file of the manifest, checking it against ``SHA256SUMS``."""
    root = Path(root)
    texts = read_manifest(root)
    sums = _checksums(root)
    documents = []
    for info in texts:
        read = reader(info.format)
        if read is None:
            raise CorpusError(f"{root / 'manifest.yaml'}: {info.id}: unknown format {info.format!r}")
        for name in info.files:
            path = root / name
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise CorpusError(f"{path}: {exc.strerror}") from None
            expected = sums.get(name)
            if expected and hashlib.sha256(data).hexdigest() != expected:
                raise CorpusError(f"{path}: differs from its checksum in SHA256SUMS (the corpus is kept unchanged)")
            documents.append(read(info, name, data.decode("utf-8")))
    return Corpus(texts=texts, documents=tuple(documents))
