"""glossary/render/pdf.py: the printed PDF made reproducible, compact and copy-safe."""

from __future__ import annotations

from typing import Any

from glossary.render import pdf


def test_glyphs_named_by_radicals_are_renamed_by_ideographs() -> None:
    """Chromium names a glyph that 鹿 and ⿅ share by the radical: the PDF's text map names it 鹿."""
    cmap = (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n1 begincodespacerange\n<0000> <FFFF>\n"
        "endcodespacerange\n2 beginbfchar\n<0003> <0020>\n<007F> <2FC5>\nendbfchar\n"
        "1 beginbfrange\n<0010> <0012> <2F00>\nendbfrange\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n"
    )
    fixed = pdf.copy_safe_cmap(cmap)
    assert fixed is not None
    pairs = dict(pdf._cmap_pairs(fixed))
    assert pairs == {"0003": " ", "007F": "鹿", "0010": "一", "0011": "丨", "0012": "丶"}
    assert pdf.copy_safe_cmap(fixed) is None  # nothing left to rename


def test_finished_pdfs_depend_only_on_content_and_epoch() -> None:
    import io

    from pypdf import PdfReader, PdfWriter

    def blank(stamp: str) -> bytes:
        writer = PdfWriter()
        writer.add_blank_page(100, 100)
        writer.add_metadata({"/CreationDate": stamp, "/ModDate": stamp})
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()

    one, two = (
        pdf.finish(blank("D:20260101000000"), 1700000000),
        pdf.finish(blank("D:20261201101010"), 1700000000),
    )
    assert one == two
    metadata = PdfReader(io.BytesIO(one)).metadata
    assert metadata is not None and metadata.creation_date_raw == "D:20231114221320+00'00'"
    assert pdf.finish(blank("D:1"), 1700000001) != one


def _pdf_with(objects: int = 0, cmap: str | None = None) -> bytes:
    """A one-page PDF, with ``objects`` small dictionaries hung on the page (as Chromium hangs its
    structure elements) and a font whose ToUnicode map is ``cmap``."""
    import io

    from pypdf import PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
        NumberObject,
    )

    writer = PdfWriter()
    page = writer.add_blank_page(100, 100)
    items = ArrayObject()
    for n in range(objects):
        element = DictionaryObject(
            {NameObject("/S"): NameObject("/P"), NameObject("/K"): NumberObject(n)}
        )
        items.append(writer._add_object(element))
    page[NameObject("/Elements")] = items
    if cmap is not None:
        stream = DecodedStreamObject()
        stream.set_data(cmap.encode("latin-1"))
        font = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type0"),
                NameObject("/ToUnicode"): writer._add_object(stream),
            }
        )
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): writer._add_object(font)})}
        )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_finished_pdfs_pack_their_small_objects_into_object_streams() -> None:
    """Issue 26: the book's 144,000 structure elements as plain objects and a cross-reference table
    made 27 MB of it; packed into compressed object streams they cost a fraction."""
    raw = _pdf_with(objects=5000)
    packed = pdf.finish(raw, 1700000000)
    assert b"/ObjStm" in packed and b"\nxref\n" not in packed
    assert len(packed) * 4 < len(raw)
    import io

    from pypdf import PdfReader

    page: Any = PdfReader(io.BytesIO(packed)).pages[0]  # read back by the other library
    assert [e.get_object()["/K"] for e in page["/Elements"]] == list(range(5000))


def test_finish_renames_radical_glyphs_inside_the_pdf() -> None:
    """The copy-safe text map is written into the PDF's own font, not only computed."""
    import io

    from pypdf import PdfReader

    cmap = (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n1 begincodespacerange\n<0000> <FFFF>\n"
        "endcodespacerange\n1 beginbfchar\n<007F> <2FC5>\nendbfchar\nendcmap\n"
        "CMapName currentdict /CMap defineresource pop\nend\nend\n"
    )
    finished = pdf.finish(_pdf_with(cmap=cmap), 1700000000)
    page: Any = PdfReader(io.BytesIO(finished)).pages[0]
    font = page["/Resources"]["/Font"]["/F1"].get_object()
    written = font["/ToUnicode"].get_object().get_data().decode("latin-1")
    assert dict(pdf._cmap_pairs(written)) == {"007F": "鹿"}
