"""Reading a rendered hall plan back: every text's size in CSS px at a card width, and its box.

Computed from the SVG alone, independently of the renderer's own layout code: a text of font size
``s`` (viewBox units) and ``n`` characters is ``s`` high and ``s`` per CJK character wide (0.62 ``s``
for any other character, which a browser test confirms as an upper bound).
"""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass

SVG = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class TextBox:
    text: str
    px: float  # font size in CSS px at the card width
    box: tuple[float, float, float, float]  # viewBox units: x0, y0, x1, y1


def _advance(text: str) -> float:
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.62 for c in text)


def text_boxes(svg: str, card_width: float = 400) -> list[TextBox]:
    """Every <text> of ``svg``: its size when the SVG is shown ``card_width`` CSS px wide, and its box."""
    root = ET.fromstring(svg)
    _, _, view_w, _ = (float(v) for v in root.attrib["viewBox"].split())
    scale = card_width / view_w
    boxes = []
    for node in root.iter(f"{SVG}text"):
        text = "".join(node.itertext())
        size = float(node.attrib["font-size"])
        x, y = float(node.attrib["x"]), float(node.attrib["y"])
        width = size * _advance(text)
        anchor = node.attrib.get("text-anchor", "start")
        x0 = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        boxes.append(
            TextBox(text, size * scale, (x0, y - 0.88 * size, x0 + width, y + 0.12 * size))
        )
    return boxes


def overlapping(boxes: list[TextBox]) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes overlap."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (
                a.box[0] < b.box[2]
                and b.box[0] < a.box[2]
                and a.box[1] < b.box[3]
                and b.box[1] < a.box[3]
            ):
                found.append((a.text, b.text))
    return found


def outside(svg: str, boxes: list[TextBox]) -> list[str]:
    """Texts that stick out of the drawing."""
    x, y, w, h = (float(v) for v in ET.fromstring(svg).attrib["viewBox"].split())
    return [
        b.text
        for b in boxes
        if b.box[0] < x or b.box[1] < y or b.box[2] > x + w or b.box[3] > y + h
    ]
