"""Day markers in an itinerary: 第一天 / 第 1 天 / Day 1 / Day One / D1 / 首日 / 第1-2天 / Day1-Day3 / 最后一天."""

from __future__ import annotations

import re

from gate.text.numerals import to_int

_NUM = r"[0-9一二两三四五六七八九十]{1,3}"
_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_WORD = "|".join(_WORDS)
_DAY_RE = re.compile(
    rf"第\s*(?P<a>{_NUM})\s*(?:(?P<sep>[-~～至到、])\s*(?:第\s*)?(?P<b>{_NUM})\s*)?[天日]"
    rf"|(?<![A-Za-z])(?i:day)\s*(?P<c>\d{{1,2}}|(?i:{_WORD})\b)"
    rf"(?:\s*[-~–]\s*(?:(?i:day)\s*)?(?P<d>\d{{1,2}}))?(?!\d)"
    rf"|(?<![A-Za-z0-9])D(?P<e>\d{{1,2}})(?![0-9A-Za-z])"
    rf"|(?P<first>首日)"
)


# "最后一天" / "the last day" is day N of an N-day plan; only the caller knows N.
_LAST_DAY_RE = re.compile(r"最后[一1]\s*[天日]|(?i:\b(?:the\s+)?last\s+day\b)")


def mentions_last_day(text: str) -> bool:
    """True when the text marks the last day without its number (最后一天, the last day)."""
    return _LAST_DAY_RE.search(text) is not None


def _number(token: str) -> int | None:
    token = token.strip().lower()
    return _WORDS.index(token) + 1 if token in _WORDS else to_int(token)


def days_mentioned(text: str) -> set[int]:
    """Day numbers the text marks, ranges expanded (第1-2天 → 1, 2); 第一、三天 is days 1 and 3."""
    days: set[int] = set()
    for match in _DAY_RE.finditer(text):
        if match.group("first"):
            days.add(1)
            continue
        start = _number(match.group("a") or match.group("c") or match.group("e") or "")
        end_token = match.group("b") or match.group("d")
        end = _number(end_token) if end_token else start
        if start is None or end is None or end < start or end - start > 30:
            continue
        days.update((start, end) if match.group("sep") == "、" else range(start, end + 1))
    return days
