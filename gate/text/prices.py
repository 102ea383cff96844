"""Prices stated in an answer: 5499 元, ¥5,499, 约 5.5k, 1.2 万, 1万2, 两千元, 五六百元, 人均 280,
2999-3999 元 (upper end), 300 多元 / 1500+ 元 / 两千出头 (just above the number).

A price in a clause about what things usually cost ("商务宴请一般人均 500 元以上"), in advice on the
budget ("建议把预算提高到人均 500 元左右"), an amount named as a budget ("按 2000 元预算") or of another product named after it beside the item's own
("约 349 元，效果只有 1899 元的 AirPods Pro 2 的六七成") is not a price of what the answer recommends,
and is left out.

Only yuan count: an amount in dollars, yen or euros ($149, 999 美元) is not a yuan price.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from gate import lexicon
from gate.lexicon import LINE_BREAK, WHITESPACE, charset, source
from gate.text.amounts import in_ten_thousands, in_thousands, price_re, value
from gate.text.canonical import nfkc
from gate.text.deferred import deferred
from gate.text.numerals import to_int

_foreign_before_re = deferred(lambda: rf"{source('foreign_currency_before')}\s*$")  # $ is dollars, ¥ is yuan
_foreign_after_re = deferred(lambda: rf"\s*{source('foreign_currency')}")
# A price word may be followed by a few characters ("价格区间 2000-3000", "人均消费 280");
# a hedge such as 约 must stand right before the number.
_keyword_before_re = deferred(lambda: rf"(?:{source('price_word')}{source('han')}{{0,3}}|{source('price_hedge')})"
                                      rf"{charset('colon', also=WHITESPACE)}*(?:{source('yuan_before')})?\s*$")
# What a number is followed by when it is not money (hours, battery, screen, weight …).
_not_money_after_re = deferred(lambda: rf"(?!\s*{source('not_money_unit')})")
# Thousands (5k, 3千, 两千) are money only when a money word follows: 5k 左右, 1k 出头, 3千以内.
_thousands_money_after_re = deferred(lambda: rf"\s*{source('amount_qualifier')}")
_count_before_re = deferred(lambda: rf"{source('count_word')}\s*$")
_above_after_re = deferred(lambda: rf"\s*{source('just_over')}")
_PLUS_BEFORE_RE = re.compile(r"\d\s*\+\s*$")
_PLUS_AFTER_RE = re.compile(r"\s*\+\s*\d")
_NAME_DASH_RE = re.compile(r"\d{1,3}(?:\s+[-–—]\s*|\s*[–—]\s*)(?=\d)")  # the end of a name, then a dash
_SLASH_RE = re.compile(r"\s*/\s*")
# 多 / 余 / + / 出头 put the price just above the number: "2k 出头" is over 2000, not 2000.
_ABOVE = 1.0


@dataclass(frozen=True)
class Price:
    """A price mention: its value in yuan (a range's upper end) and the text it came from."""

    value: float
    text: str
    party: int = 1
    """How many people the price is for, when it says ("4 人套餐 ¥1,088", "双人餐 ¥198")."""


# A launch price (``launch_price_before``) is the item's price only when the answer gives no current
# one beside it. A price in a clause about prices in general (``price_in_general``, unless the clause
# speaks of the item itself: ``own_item``) or in advice on the budget (``budget_advice``), an amount
# named as a budget (``budget_after``) and the price of another product the item is compared with
# (``other_product_after``) are no prices of what is recommended. A clause is read at most
# _CLAUSE_WINDOW back.
_clause_end_re = deferred(lambda: charset("full_stop", "semicolon", "exclamation_mark", "question_mark",
                                          "enumeration_comma", "comma", also=LINE_BREAK))
_CLAUSE_WINDOW = 40


# What _candidate reads after a number: a unit, a currency or a money word, a few spaces off. A
# window, not the rest of the text: one pass over an answer of any length.
_AFTER_WINDOW = 32


@dataclass
class _Candidate:
    match: re.Match[str]
    money: bool
    value: float
    text: str
    launch: bool = False
    general: bool = False


def _general(text: str, start: int) -> bool:
    """The price at ``start`` stands in a clause about prices in general (一般…, 通常…) or in advice on
    the budget (提高到…, 如果预算能到…), not in what states this one's."""
    window = text[max(0, start - _CLAUSE_WINDOW):start]
    ends = list(_clause_end_re().finditer(window))
    clause = window[ends[-1].end():] if ends else window
    if lexicon.pattern("budget_advice").search(clause):
        return True
    return (lexicon.pattern("price_in_general").search(clause) is not None
            and lexicon.pattern("own_item").search(clause) is None)


def _candidate(text: str, match: re.Match[str], bare_number_is_price: bool) -> _Candidate | None:
    """The match as a possible price, or ``None`` when it is certainly not one."""
    before = text[max(0, match.start() - 12) : match.start()]
    after = text[match.end() : match.end() + _AFTER_WINDOW]
    previous = text[match.start() - 1] if match.start() > 0 else ""
    if previous.isalnum() and not match.group("pre") and not lexicon.pattern("han").match(previous):
        named = _NAME_DASH_RE.match(match.group(0)) if match.group("low") else None
        if named is None:
            return None  # part of a model name such as "XM5" or "M3"
        # "Free3 - 499 元", "X3 — 899 元": the name ends in a digit and a dash leads to its price
        price = price_re().match(text, match.start() + named.end())
        return _candidate(text, price, bare_number_is_price) if price else None
    if (_foreign_before_re().search(before) or _foreign_after_re().match(after)
            or lexicon.pattern("discount_before").search(before)):
        return None
    high = match.group("high") or match.group("single")
    amount = value(high)
    above = _above_after_re().match(after)
    if match.group("above") or above:
        amount += _ABOVE
    quoted = match.group(0).strip() + (above.group(0) if above else "")
    if match.group("pre") or match.group("post"):
        return _Candidate(match, True, amount, quoted)
    if _not_money_after_re().match(after) is None:
        return None
    if _PLUS_BEFORE_RE.search(before) or _PLUS_AFTER_RE.match(after):
        return None  # a memory configuration such as 12+256
    counted = _count_before_re().search(before) is not None
    if in_thousands(high):
        money = _thousands_money_after_re().match(after) is not None
    else:
        money = in_ten_thousands(high) and not counted  # "1.2 万"
    money = money or _keyword_before_re().search(before) is not None or (bare_number_is_price and not counted)
    return _Candidate(match, money, amount, quoted)


def _spread_over_variants(text: str, candidates: list[_Candidate]) -> None:
    """In "2499/2799 元" each variant is a price when one of them is (values of one magnitude)."""
    for _ in range(2):  # forwards then backwards covers a run of variants
        for left, right in pairwise(candidates):
            joined = _SLASH_RE.fullmatch(text, left.match.end(), right.match.start())
            low, high = sorted((left.value, right.value))
            similar = low >= 10 and high <= 3 * low  # not a date (5/1) or a fraction
            if joined and similar and (left.money or right.money):
                left.money = right.money = True
        candidates.reverse()


def find_prices(text: str, *, bare_number_is_price: bool = False) -> list[Price]:
    """Every yuan price mention in ``text``, discounts, foreign currency and non-money numbers left out.

    A number is money when a yuan mark stands before or after it, a price word (价格, 人均, 到手,
    约 …) just before it, or it is in 万 (1.2 万) or in thousands with 左右/出头/以内 after it.
    ``bare_number_is_price`` is for a cell under a price header: every amount in it that is not
    excluded counts ("2999（国补后 2549）", "2499/2799").
    """
    # NFKC turns the full-width comma into ","; keep it a separator, so "¥2,999，128GB" is not 2999128.
    text = nfkc(text)
    candidates = [
        candidate
        for match in price_re().finditer(text)
        if (candidate := _candidate(text, match, bare_number_is_price)) is not None
    ]
    _spread_over_variants(text, candidates)
    for candidate in candidates:
        before = text[max(0, candidate.match.start() - 8) : candidate.match.start()]
        candidate.launch = lexicon.pattern("launch_price_before").search(before) is not None
        candidate.general = (_general(text, candidate.match.start())
                             or lexicon.pattern("budget_after").match(text, candidate.match.end()) is not None)
    money = [c for c in candidates if c.money and not c.general]
    # Another product's price is left out beside the item's own — alone it is the item's ("1299 元的 Bose 平替").
    own = [c for c in money if lexicon.pattern("other_product_after").match(text, c.match.end()) is None]
    money = own or money
    current = [c for c in money if not c.launch]
    return [Price(c.value, c.text, _party(text, c.match)) for c in (current or money)]


# A party size in the price's clause: "【商务 4 人套餐】券后 ¥1,088", "¥1,088（4 人份）", "双人餐 ¥198".
_party_re = deferred(lambda: rf"(?:(?P<size>\d{{1,2}}|(?:{source('cn_digit')}|{source('cn_ten')}){{1,3}})\s*"
                             rf"|(?P<pair>{source('party_pair')})){source('party_meal')}")
_PARTY_BEFORE = 16
_PARTY_AFTER = 10


def _party(text: str, match: re.Match[str]) -> int:
    """The party the price at ``match`` is for: the nearest party size in its clause, else 1."""
    window = text[max(0, match.start() - _PARTY_BEFORE):match.start()]
    ends = list(_clause_end_re().finditer(window))
    before = list(_party_re().finditer(window[ends[-1].end():] if ends else window))
    after = _party_re().search(text[match.end():match.end() + _PARTY_AFTER])
    found = before[-1] if before else after
    if found is None:
        return 1
    size = 2 if found.group("pair") else to_int(found.group("size"))
    return size if size and 1 < size <= 20 else 1

