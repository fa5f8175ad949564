"""What a standard character is: one home for the definition the variant tables are built on.

A character is *standard* when it is encodable in GB2312 (the simplified standard) or Big5 (the
traditional one). Variant tables fold only non-standard forms (old and edition-specific forms:
賔, 歩, 戸) into standard characters, never one standard character into another
(``scripts/gen_variants.py``). ``glossary corpus --variants`` also counts as standard the
simplified form OpenCC gives a Big5 character (铏 for 鉶, 绖 for 絰: modern simplified
characters outside GB2312), see :func:`is_modern_form`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from opencc import OpenCC


def encodes(ch: str, encoding: str) -> bool:
    try:
        ch.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False


def is_gb2312(ch: str) -> bool:
    return encodes(ch, "gb2312")


def is_big5(ch: str) -> bool:
    return encodes(ch, "big5")


def is_standard(ch: str) -> bool:
    """True when the character is encodable in GB2312 or Big5."""
    return is_gb2312(ch) or is_big5(ch)


def is_modern_form(ch: str) -> bool:
    """A standard character, or the simplified form OpenCC gives a Big5 character (铏: 鉶)."""
    if is_standard(ch):
        return True
    traditional = _s2t().convert(ch)
    return (
        len(traditional) == 1
        and traditional != ch
        and is_big5(traditional)
        and _t2s().convert(traditional) == ch
    )


_CONVERTERS: dict[str, OpenCC] = {}


def _s2t() -> OpenCC:
    import opencc

    return _CONVERTERS.setdefault("s2t", opencc.OpenCC("s2t"))


def _t2s() -> OpenCC:
    import opencc

    return _CONVERTERS.setdefault("t2s", opencc.OpenCC("t2s"))
