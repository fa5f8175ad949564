"""Chinese numerals as used for 卷 numbers (一 … 九十九)."""

from __future__ import annotations

DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}


#: More digits than any 卷 number has: such a text is not a 卷 number.
MAX_DIGITS = 6


def parse_number(text: str) -> int | None:
    """``"十四"`` → 14, ``"卷四"`` → 4, ``"004"`` → 4; None when it is not a number."""
    text = text.strip().removeprefix("卷").removeprefix("第").strip()
    if text.isdigit():
        # ASCII digits only ("²" and "٣" are digits to str.isdigit, not to int), and few of them:
        # no 卷 has a number of 5,000 digits (past what int() will read).
        return int(text) if text.isascii() and len(text) <= MAX_DIGITS else None
    if not text or any(ch not in DIGITS and ch != "十" for ch in text):
        return None
    if "十" not in text:
        value = 0
        for ch in text:
            value = value * 10 + DIGITS[ch]
        return value
    tens, _, units = text.partition("十")
    if "十" in units or len(tens) > 1 or len(units) > 1:
        return None
    return (DIGITS[tens] if tens else 1) * 10 + (DIGITS[units] if units else 0)
