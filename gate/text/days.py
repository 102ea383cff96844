"""Day markers in an itinerary: 第一天 / 第 1 天 / Day 1 / Day One / D1 / 首日 / 次日 / 最后一天, and
ranges and lists of them: 第1-2天, 第一天到第三天, 第一、二、三天, Day1-Day3, Days 1-3, Day 1 & 2, D1-D3.
The words are the lexicon's (days.yaml)."""

from __future__ import annotations

import re

from gate import lexicon
from gate.lexicon import charset, source
from gate.text.deferred import deferred
from gate.text.numerals import to_int

# Days listed in one marker (第一、二、三天): bounded, so a crafted "第1、第1、…" chain is not
# rescanned from every "第" in it.
_MAX_LISTED = 30
_CN_SPAN = 64  # a 第…天 marker ends within this many characters: each 第 looks that far, no further


def _number() -> str:
    return charset("cn_count_numeral", also="0-9") + "{1,3}"


def _en_number() -> str:
    return rf"(?:\d{{1,2}}|{source('en_number_word')}\b)"


def _spans() -> str:
    """A separator that spans the days between ("1-3", "一至三", "1 to 3") rather than listing them ("一、三")."""
    return rf"(?:{source('range_separator')}|{source('range_word')})"


def _day_pattern() -> str:
    num, en_num = _number(), _en_number()
    first, unit = source("ordinal_prefix"), charset("day_unit")
    spans = _spans()
    cn_sep = rf"(?:{source('range_separator')}|{source('day_list_separator')})"
    d = source("day_abbreviation")
    return (
        rf"{first}(?={charset('day_unit', negated=True)}{{0,{_CN_SPAN}}}{unit})"
        rf"(?:\s*(?P<from>{num})\s*{unit}\s*{spans}\s*{first}\s*(?P<to>{num})\s*{unit}"
        rf"|\s*(?P<cn>{num}(?:\s*{cn_sep}\s*(?:{first}\s*)?{num}){{0,{_MAX_LISTED}}})\s*{unit})"
        rf"|(?<![A-Za-z]){source('day_word')}\s*(?P<en>{en_num}(?:\s*{source('en_day_separator')}\s*"
        rf"(?:{source('day_word')}\s*)?{en_num}){{0,{_MAX_LISTED}}})(?!\d)"
        rf"|(?<![A-Za-z0-9])(?P<d>{d}\d{{1,2}}(?:\s*[-~–]\s*{d}?\d{{1,2}})?)(?![0-9A-Za-z])"
        rf"|(?P<first>{source('first_day')})"
        rf"|(?P<next>{source('next_day')})"
    )


_day_re = deferred(_day_pattern)
_token_re = deferred(lambda: rf"(?P<sep>{_spans()})|(?P<num>{_number()}|{_en_number()})", re.IGNORECASE)
_day_label_re = deferred(lambda: rf"{source('day_word')}|{source('day_abbreviation')}(?=\d)")


def mentions_last_day(text: str) -> bool:
    """True when the text marks the last day without its number (最后一天, the last day): day N of
    an N-day plan, which only the caller knows."""
    return lexicon.pattern("last_day").search(text) is not None


def _number_of(token: str) -> int | None:
    token = token.strip().lower()
    words = lexicon.numbered("en_number_word")
    return words[token] if token in words else to_int(token)


def _expand(spec: str) -> set[int]:
    """The days of "1-3" / "一、二、三" / "1 & 2": a range separator spans, any other lists."""
    days: set[int] = set()
    previous: int | None = None
    spanning = False
    for token in _token_re().finditer(_day_label_re().sub(" ", spec)):
        if token.group("sep"):
            spanning = True
            continue
        day = _number_of(token.group("num"))
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
