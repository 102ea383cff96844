"""Chinese numerals as they appear in ordinal markers (一 … 九十九)."""

from __future__ import annotations

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
           "八": 8, "九": 9}


def to_int(token: str) -> int | None:
    """``token`` as an integer: Arabic digits or a Chinese numeral below 100; else ``None``."""
    token = token.strip()
    if token.isdigit():
        return int(token)
    if not token or any(ch not in _DIGITS and ch != "十" for ch in token):
        return None
    if "十" not in token:
        return _DIGITS[token] if len(token) == 1 else None
    tens, _, ones = token.partition("十")
    if len(tens) > 1 or len(ones) > 1:
        return None
    return (_DIGITS[tens] if tens else 1) * 10 + (_DIGITS[ones] if ones else 0)
