"""The PDF Chromium prints (glossary.render.chromium) made reproducible, compact and its text
copy-safe (qpdf, by pikepdf), and read for where each link target lies."""

from __future__ import annotations

import hashlib
import io
import re
import time
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pikepdf import Pdf


def destinations(pdf: bytes) -> dict[str, int]:
    """Anchor id → the page (from 1) its named destination lies on. Chromium writes one for every
    element a link of the document points to (``href="#id"``), visible or not, in the catalog's
    ``/Dests`` (PDF 1.1); a ``/Names`` tree (PDF 1.2) is read too."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        root = document.Root
        named: list[tuple[str, pikepdf.Object]] = []
        if isinstance(dests := root.get("/Dests"), pikepdf.Dictionary):
            named += [(key.lstrip("/"), dests[key]) for key in dests.keys()]
        names = root.get("/Names")
        if isinstance(names, pikepdf.Dictionary) and "/Dests" in names:
            named += list(pikepdf.NameTree(names["/Dests"]).items())
        pages: dict[tuple[int, int], int] = {
            page.obj.objgen: number for number, page in enumerate(document.pages, 1)
        }
        found = {}
        for name, dest in named:
            target = dest.get("/D") if isinstance(dest, pikepdf.Dictionary) else dest
            # A destination on no page of the document is no page to refer to.
            if isinstance(target, pikepdf.Array) and len(target) and target[0].objgen in pages:
                found[name] = pages[target[0].objgen]
        return found


@lru_cache(maxsize=1)
def radical_ideographs() -> dict[int, str]:
    """CJK radical code point → its ideograph (``data/radical_ideographs.tsv``, from Unicode)."""
    text = (
        resources.files("glossary.data")
        .joinpath("radical_ideographs.tsv")
        .read_text(encoding="utf-8")
    )
    return {
        ord(line[0]): line.split("\t")[1]
        for line in text.splitlines()
        if line and not line.startswith("#")
    }


_BLOCK = re.compile(r"\d+\s+begin(bfchar|bfrange)(.*?)end\1", re.S)
_HEX = re.compile(r"<([0-9A-Fa-f]*)>|\[([^\]]*)\]")


def _cmap_pairs(data: str) -> list[tuple[str, str]]:
    """Every (source code as hex, destination text) of a ToUnicode CMap's bfchar and bfrange blocks."""
    pairs: list[tuple[str, str]] = []
    for kind, body in _BLOCK.findall(data):
        tokens = _HEX.findall(body)
        step = 2 if kind == "bfchar" else 3
        for i in range(0, len(tokens) - step + 1, step):
            if kind == "bfchar":
                pairs.append(
                    (tokens[i][0], bytes.fromhex(tokens[i + 1][0]).decode("utf-16-be", "replace"))
                )
                continue
            low, high, dst = tokens[i][0], tokens[i + 1][0], tokens[i + 2]
            width = len(low)
            for n, code in enumerate(range(int(low, 16), int(high, 16) + 1)):
                if dst[1]:  # an array: one destination per code
                    target = re.findall(r"<([0-9A-Fa-f]*)>", dst[1])[n]
                    text = bytes.fromhex(target).decode("utf-16-be", "replace")
                else:  # the last UTF-16 unit counts up
                    raw = bytearray(bytes.fromhex(dst[0]))
                    raw[-2:] = (int.from_bytes(raw[-2:], "big") + n).to_bytes(2, "big")
                    text = bytes(raw).decode("utf-16-be", "replace")
                pairs.append((f"{code:0{width}X}", text))
    return pairs


def copy_safe_cmap(data: str) -> str | None:
    """The CMap with every glyph named by a CJK radical renamed by the ideograph (None if none is).

    The book prints no radicals (its radical index names them by ideographs), so a glyph the
    writer named ⿅ was printed for 鹿: named 鹿, text copied from the PDF finds 鹿 again.
    """
    table = radical_ideographs()
    pairs = _cmap_pairs(data)
    if not any(ord(ch) in table for _, text in pairs for ch in text):
        return None
    fixed = [(code, "".join(table.get(ord(ch), ch) for ch in text)) for code, text in pairs]
    head = data[: data.index("endcodespacerange") + len("endcodespacerange")]
    body = []
    for start in range(0, len(fixed), 100):  # at most 100 mappings per block (PDF reference)
        chunk = fixed[start : start + 100]
        body.append(f"{len(chunk)} beginbfchar")
        body.extend(f"<{code}> <{text.encode('utf-16-be').hex().upper()}>" for code, text in chunk)
        body.append("endbfchar")
    return (
        head
        + "\n"
        + "\n".join(body)
        + "\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    )


def pdf_date(epoch: int) -> str:
    """A PDF date string in UTC: ``D:20231114221320+00'00'``."""
    return time.strftime("D:%Y%m%d%H%M%S+00'00'", time.gmtime(epoch))


def finish(pdf: bytes, epoch: int, title: str | None = None) -> bytes:
    """The PDF made reproducible, copy-safe and compact (qpdf, by pikepdf): creation and
    modification dates from ``epoch`` (SOURCE_DATE_EPOCH), a document id from the content, no
    glyph named by a CJK radical, and its small objects packed into compressed object streams.

    Chromium stamps the time of printing and names shared glyphs by radicals; everything else it
    writes depends only on the page, so the same HTML and epoch give the same bytes. It writes the
    book's accessibility tags (about 144,000 structure elements) and links as plain objects with
    a cross-reference table of 20 bytes per object: 27 MB of the book, 8.5 MB packed.
    """
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as document:
        done: set[tuple[int, int]] = set()
        for page in document.pages:
            resources = page.obj.get("/Resources")
            fonts = resources.get("/Font") if isinstance(resources, pikepdf.Dictionary) else None
            if not isinstance(fonts, pikepdf.Dictionary):
                continue
            for name in fonts.keys():
                cmap = fonts[name].get("/ToUnicode")
                if cmap is None or cmap.objgen in done:
                    continue
                done.add(cmap.objgen)
                fixed = copy_safe_cmap(cmap.read_bytes().decode("latin-1"))
                if fixed is not None:
                    cmap.write(fixed.encode("latin-1"))
        date = pdf_date(epoch)
        info = document.docinfo
        info["/CreationDate"] = date
        info["/ModDate"] = date
        info["/Producer"] = "Skia/PDF (Chromium), qpdf"
        if title:
            info["/Title"] = title
        # A document id of nothing but the content and the epoch (Chromium's is drawn at random);
        # qpdf's deterministic id, the second, is a digest of the file written.
        digest = hashlib.sha256(date.encode() + b"\0" + _content_digest(document)).digest()[:16]
        document.trailer.ID = pikepdf.Array([pikepdf.String(digest), pikepdf.String(digest)])
        out = io.BytesIO()
        document.save(
            out,
            object_stream_mode=pikepdf.ObjectStreamMode.generate,
            compress_streams=True,
            deterministic_id=True,
        )
    return out.getvalue()


def _content_digest(document: Pdf) -> bytes:
    """A hash of the pages' content streams (what was printed), for the document id."""
    import pikepdf

    digest = hashlib.sha256()
    for page in document.pages:
        contents = page.obj.get("/Contents")
        streams = contents if isinstance(contents, pikepdf.Array) else [contents]
        for stream in streams:
            if isinstance(stream, pikepdf.Stream):
                digest.update(stream.read_bytes())
    return digest.digest()
