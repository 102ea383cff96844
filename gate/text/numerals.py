"""Chinese numerals as they appear in ordinal markers (一 … 九十九): the digits and 十 of the lexicon."""

from __future__ import annotations

from functools import cache

from gate import lexicon


@cache
def _ten() -> str:
    return next(iter(lexicon.numbered("cn_ten")))


def to_int(token: str) -> int | None:
    """``token`` as an integer: Arabic digits or a Chinese numeral below 100; else ``None``."""
    token = token.strip()
    if token.isdigit():
        return int(token)
    digits, ten = lexicon.numbered("cn_digit"), _ten()
    if not token or any(ch not in digits and ch != ten for ch in token):
        return None
    if ten not in token:
        return digits[token] if len(token) == 1 else None
    tens, _, ones = token.partition(ten)
    if len(tens) > 1 or len(ones) > 1:
        return None
    return (digits[tens] if tens else 1) * 10 + (digits[ones] if ones else 0)
