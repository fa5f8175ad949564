"""The corpus: a manifest of texts, read into documents of layered streams."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

from glossary.corpus.mandoku import read_mandoku
from glossary.errors import CorpusError
from glossary.corpus.model import LAYERS, CorpusWarning, Document, Locus, Stream, TextInfo
from glossary.corpus.seed import read_seed

READERS: dict[str, Callable[[TextInfo, str, str], Document]] = {
    "seed": read_seed,
    "mandoku": read_mandoku,
}

__all__ = ["Corpus", "CorpusError", "Document", "Locus", "Stream", "TextInfo", "LAYERS", "load_corpus"]


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
        juan=raw.get("juan"),
        page=str(raw["page"]) if raw.get("page") is not None else None,
        rites=tuple(sorted((int(k), str(v)) for k, v in rites.items())),
        primary=bool(raw.get("primary", False)),
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
        reader = READERS.get(info.format)
        if reader is None:
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
            documents.append(reader(info, name, data.decode("utf-8")))
    return Corpus(texts=texts, documents=tuple(documents))
