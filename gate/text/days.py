"""Day markers in an itinerary: 第一天 / 第 1 天 / Day 1 / Day One / D1 / 首日 / 次日 / 最后一天, and
ranges and lists of them: 第1-2天, 第一天到第三天, 第一、二、三天, Day1-Day3, Days 1-3, Day 1 & 2, D1-D3."""

from __future__ import annotations

import re

from gate.text.deferred import deferred
from gate.text.numerals import to_int

_NUM = r"[0-9一二两三四五六七八九十]{1,3}"
_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_WORD = "|".join(_WORDS)
_EN_NUM = rf"(?:\d{{1,2}}|(?i:{_WORD})\b)"
# A separator that spans the days between ("1-3", "一至三") rather than listing them ("一、三").
_RANGE_SEP = r"(?:[-~～–—至到]|(?i:to))"
_CN_SEP = r"(?:[-~～–—至到、,]|和|及)"
_EN_SEP = r"(?:[-~–&]|(?i:and|to)\b)"
# Days listed in one marker (第一、二、三天): bounded, so a crafted "第1、第1、…" chain is not
# rescanned from every "第" in it.
_MAX_LISTED = 30
_CN_SPAN = 64  # a 第…天 marker ends within this many characters: each 第 looks that far, no further
_day_re = deferred(
    rf"第(?=[^天日]{{0,{_CN_SPAN}}}[天日])(?:\s*(?P<from>{_NUM})\s*[天日]\s*{_RANGE_SEP}\s*第\s*(?P<to>{_NUM})\s*[天日]"
    rf"|\s*(?P<cn>{_NUM}(?:\s*{_CN_SEP}\s*(?:第\s*)?{_NUM}){{0,{_MAX_LISTED}}})\s*[天日])"
    rf"|(?<![A-Za-z])(?i:days?)\s*(?P<en>{_EN_NUM}(?:\s*{_EN_SEP}\s*(?:(?i:day)\s*)?{_EN_NUM}){{0,{_MAX_LISTED}}})(?!\d)"
    rf"|(?<![A-Za-z0-9])(?P<d>D\d{{1,2}}(?:\s*[-~–]\s*D?\d{{1,2}})?)(?![0-9A-Za-z])"
    rf"|(?P<first>首日)"
    rf"|(?P<next>次日)"
)
_token_re = deferred(rf"(?P<sep>{_RANGE_SEP})|(?P<num>{_NUM}|{_EN_NUM})", re.IGNORECASE)


# "最后一天" / "the last day" is day N of an N-day plan; only the caller knows N.
_LAST_DAY_RE = re.compile(r"最后[一1]\s*[天日]|(?i:\b(?:the\s+)?last\s+day\b)")


def mentions_last_day(text: str) -> bool:
    """True when the text marks the last day without its number (最后一天, the last day)."""
    return _LAST_DAY_RE.search(text) is not None


def _number(token: str) -> int | None:
    token = token.strip().lower()
    return _WORDS.index(token) + 1 if token in _WORDS else to_int(token)


def _expand(spec: str) -> set[int]:
    """The days of "1-3" / "一、二、三" / "1 & 2": a range separator spans, any other lists."""
    days: set[int] = set()
    previous: int | None = None
    spanning = False
    for token in _token_re().finditer(re.sub(r"(?i:day)|D(?=\d)", " ", spec)):
        if token.group("sep"):
            spanning = True
            continue
        day = _number(token.group("num"))
        if day is None:
            return set()
        if spanning and previous is not None:
            if day < previous or day - previous > 30:
                return set()  # not a plausible span of days (第1-99天)
            days.update(range(previous, day + 1))
        days.add(day)
        previous, spanning = day, False
    return days


def days_mentioned(text: str) -> set[int]:
    """Day numbers the text marks, ranges expanded (第1-2天 → 1, 2); 第一、三天 is days 1 and 3."""
    days: set[int] = set()
    previous: set[int] = set()  # the days of the marker before
    for match in _day_re().finditer(text):
        if match.group("first"):
            marked = {1}
        elif match.group("next"):
            # 次日 is "the next day": day 2 right after a day-1 marker (首日…次日…), else unknown.
            marked = {2} if previous == {1} else set()
        elif match.group("from"):
            marked = _expand(f"{match.group('from')}-{match.group('to')}")
        else:
            marked = _expand(match.group("cn") or match.group("en") or match.group("d"))
        days |= marked
        previous = marked
    return days
