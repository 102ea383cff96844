"""Amounts as answers write them, and their values: 5499, 5,499, 5.5k, 1.2 万, 1万2, 3千5, 两千,
五六百 (the upper end), 2999-3999 (a range), 300 多 (a little over).

The grammar is here; its words — the scales, the Chinese digits, the currency marks, the range
separators — are the lexicon's.
"""

from __future__ import annotations

import re
from functools import cache

from gate import lexicon
from gate.lexicon import charset, source
from gate.text.deferred import deferred
from gate.text.numerals import to_int

# Thousands separators only in valid groups: "5,499" is one number, "2999,128" is two.
_NUMBER = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?"
_SCALES = ("thousand_abbreviation", "ten_thousand_abbreviation", "cn_ten", "cn_hundred", "cn_thousand",
           "cn_ten_thousand")


@cache
def _nonzero_digit() -> str:
    """The Chinese digits one to nine (two of them for 2: 二 and 两), as a character set."""
    digits = lexicon.numbered("cn_digit")
    return "[" + "".join(digit for digit, value in digits.items() if value) + "]"


@cache
def _neighbour_pairs() -> str:
    """Two neighbouring digits, an approximate range (五六百 = 500-600) whose upper end counts."""
    digits = [(digit, value) for digit, value in lexicon.numbered("cn_digit").items() if value]
    pairs = [low + high for low, low_value in digits for high, high_value in digits if high_value == low_value + 1]
    return "(?:" + "|".join(pairs) + ")"


def _arabic() -> str:
    # A digit right after the scale continues the number: 1万2 = 12000, 1万2500 = 12500, 3千5 = 3500.
    # "W" is watts (120W 快充), never 万.
    latin = charset("thousand_abbreviation", "ten_thousand_abbreviation")
    thousand, hundred, ten_thousand = source("cn_thousand"), source("cn_hundred"), source("cn_ten_thousand")
    return (rf"{_NUMBER}(?:\s?(?:{latin}(?![A-Za-z])|{thousand}(?:\d(?![\d.]){hundred}?)?"
            rf"|{ten_thousand}(?:\d{{4}}(?![\d.])|\d(?![\d.]){thousand}?)?))?")


def _chinese() -> str:
    digit, pair = _nonzero_digit(), _neighbour_pairs()
    # A trailing digit (两千五, 一万二) only when nothing but money words follow it (not 一万一个月).
    tail = rf"(?:(?={source('money_tail')})|(?!{source('han')}))"
    blocker = charset("amount_blocker", "cn_digit", *_SCALES[2:])
    ten, hundred = source("cn_ten"), source("cn_hundred")
    thousand, ten_thousand = source("cn_thousand"), source("cn_ten_thousand")
    return (rf"(?<!{blocker})(?:{digit}?{ten}{digit}?|{pair}|{digit})"
            rf"(?:{thousand}(?:{digit}{hundred}?{tail})?|{ten_thousand}(?:{digit}{thousand}?{tail})?"
            rf"|{hundred}(?:{digit}{ten}?{tail})?)")


def _price_pattern() -> str:
    amount = rf"(?:{_arabic()}|{_chinese()})"
    in_range = rf"(?P<low>{amount})\s*{source('range_separator')}\s*(?P<high>{amount})"
    # 300 多元, 300 余元, 1500+ 元: a little more than the number (not the 12+256 of a memory size);
    # 来 (三百来块) is "about": no more than the number.
    more = rf"(?P<more>\s*(?:(?P<above>{source('more_than')})|{source('about_amount')}))?"
    return (rf"(?P<pre>{source('yuan_before')}\s*)?(?:{in_range}|(?P<single>{amount})){more}"
            rf"(?P<post>\s*{source('yuan_after')})?")


price_re = deferred(_price_pattern)
"""An amount or a range, with a currency mark before or after it and "a little more" (多 / 余 / +)."""
_arabic_parts_re = deferred(lambda: rf"(\d+(?:\.\d+)?)({charset(*_SCALES[:2], 'cn_thousand', 'cn_ten_thousand')})?"
                                    rf"(?:(\d+)({charset('cn_thousand', 'cn_hundred')})?)?")
_chinese_parts_re = deferred(lambda: rf"(.+?)({charset('cn_thousand', 'cn_ten_thousand', 'cn_hundred')})"
                                     rf"(?:(.)({charset('cn_thousand', 'cn_hundred', 'cn_ten')})?)?")
_SEPARATORS_RE = re.compile(r"[,\s]")


@cache
def _units() -> dict[str, float]:
    return {word: float(value) for scale in _SCALES for word, value in lexicon.numbered(scale).items()}


def value(text: str) -> float:
    """The value of an amount ``price_re`` found (a range's end): 5.5k → 5500, 1万2 → 12000, 五六百 → 600."""
    text = _SEPARATORS_RE.sub("", text)
    arabic = _arabic_parts_re().fullmatch(text)
    if arabic:
        base, unit, tail, tail_unit = arabic.groups()
        return _combine(float(base), unit, int(tail) if tail else None, len(tail or ""), tail_unit)
    chinese = _chinese_parts_re().fullmatch(text)
    assert chinese, text  # the grammar admits only these two shapes
    head, unit, tail, tail_unit = chinese.groups()
    if re.fullmatch(_neighbour_pairs(), head):
        head = head[1]  # 五六百: the upper end
    return _combine(float(to_int(head) or 0), unit, to_int(tail) if tail else None, 1, tail_unit)


def _combine(base: float, unit: str | None, tail: int | None, tail_digits: int, tail_unit: str | None) -> float:
    units = _units()
    scale = units[unit] if unit else 1.0
    total = base * scale
    if tail is not None:
        if tail_unit:
            total += tail * units[tail_unit]
        elif tail_digits == 1:
            total += tail * scale / 10  # 1万2: the digit counts in the next lower unit
        else:
            total += tail
    return total


def in_thousands(amount: str) -> bool:
    """5k / 3千 / 两千 / 一万二: amounts that are money only with a money word near them."""
    thousands = (*lexicon.words("thousand_abbreviation"), *lexicon.words("cn_thousand"))
    return amount.strip().endswith(thousands) or not amount[:1].isdigit()


def in_ten_thousands(amount: str) -> bool:
    """1.2 万 / 1.2w: an amount in ten thousands, money by its size."""
    return any(word in amount for scale in ("cn_ten_thousand", "ten_thousand_abbreviation")
               for word in lexicon.words(scale))
