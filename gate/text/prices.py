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
import unicodedata
from dataclasses import dataclass
from itertools import pairwise

from gate.text.numerals import to_int

# Thousands separators only in valid groups: "5,499" is one number, "2999,128" is two.
_NUMBER = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?"
# A digit right after the scale continues the number: 1万2 = 12000, 1万2500 = 12500, 3千5 = 3500.
# "W" is watts (120W 快充), never 万.
_ARABIC = rf"{_NUMBER}(?:\s?(?:[kKw](?![A-Za-z])|千(?:\d(?![\d.])百?)?|万(?:\d{{4}}(?![\d.])|\d(?![\d.])千?)?))?"
_CN_DIGIT = "[一二两三四五六七八九]"
# Two neighbouring digits give an approximate range (五六百 = 500-600); its upper end counts.
_CN_PAIR = "(?:一[二两]|[二两]三|三四|四五|五六|六七|七八|八九)"
# A trailing digit (两千五, 一万二) only when nothing but money words follow it (not 一万一个月).
_CN_TAIL = r"(?=[元块左出以起上多余]|[^\u4e00-\u9fff]|$)"
_CHINESE = (
    rf"(?<![第统唯单同每几零〇十百千万一二两三四五六七八九])(?:{_CN_DIGIT}?十{_CN_DIGIT}?|{_CN_PAIR}|{_CN_DIGIT})"
    rf"(?:千(?:{_CN_DIGIT}百?{_CN_TAIL})?|万(?:{_CN_DIGIT}千?{_CN_TAIL})?|百(?:{_CN_DIGIT}十?{_CN_TAIL})?)"
)
_AMOUNT = rf"(?:{_ARABIC}|{_CHINESE})"
_RANGE = rf"(?P<low>{_AMOUNT})\s*(?:-|~|～|–|—|至|到)\s*(?P<high>{_AMOUNT})"
_CURRENCY_BEFORE = r"(?:¥|RMB|CNY|rmb|人民币)"  # ￥ is ¥ after NFKC; $ is dollars, not yuan
_CURRENCY_AFTER = r"(?:元|块钱|块|rmb|RMB|CNY)"
_FOREIGN_BEFORE_RE = re.compile(r"(?:[$€£₩]|\b(?:USD|HKD|EUR|JPY|GBP|TWD|NTD))\s*$", re.IGNORECASE)
_FOREIGN_AFTER_RE = re.compile(
    r"\s*(?:美元|美金|欧元|日元|日币|韩元|港币|港元|澳元|加元|英镑|新台币|台币|卢布|泰铢|"
    r"(?:USD|HKD|EUR|JPY|GBP|TWD|dollars?|euros?|yen)\b)",
    re.IGNORECASE,
)
# A price word may be followed by a few characters ("价格区间 2000-3000", "人均消费 280");
# a hedge such as 约 must stand right before the number.
_PRICE_WORD = (
    r"(?:价格|售价|价位|报价|参考价|到手价?|入手价|首发价|官方价|定价|价钱|预算|人均|均价|"
    r"客单价|起售价?|券后价?|活动价|现价|折后价?|国补后|国补价|补贴后|优惠后|price|Price)[\u4e00-\u9fff]{0,3}"
)
_HEDGE = r"(?:约|大约|仅需|只要|不到)"
# What a number is followed by when it is not money (hours, battery, screen, weight …).
_NOT_MONEY_AFTER = (
    r"(?!\s*(?:小时|h\b|mAh|Hz|GB|TB|G\b|英寸|寸|kg|克|g\b|mm|cm|分钟|分\b|天|km|公里|W\b|瓦|核|代|款|家|"
    r"个|%|人|年|月|日|号|次|位|岁|米|层|期|倍|dB|ms|nit|尼特|万像素|像素|帧|fps|p\b|P\b|折|星|"
    r"条|步|张|份|套|名|篇|字|件|台|部|辆|间|晚|周|页|首|瓶|杯|斤|升|毫升|ml))"
)
# Thousands (5k, 3千, 两千) are money only when a money word follows: 5k 左右, 1k 出头, 3千以内.
_THOUSANDS_MONEY_AFTER_RE = re.compile(r"\s*(?:左右|出头|以内|以下|上下|起|档)")
_COUNT_BEFORE = r"(?:销量|月销|已售|评价|评论|好评|粉丝|播放|浏览|阅读|下载|里程|超过|超)\s*$"
# Amounts saved or compared are not what the item costs ("立省 500 元", "直降 300 元", "贵 500 元").
_DISCOUNT_BEFORE = (
    # 教育优惠 / 学生优惠 name a price ("教育优惠约 6,499 元"), not an amount taken off
    r"(?:原价|划线价|降价前|立省|节省|省下?|便宜|(?<!教育)(?<!学生)优惠|补贴|立减|减|直降|降价?|少|差价|差|贵|涨价?|多花|加价|返)"
    r"了?\s*(?:约|近|超|高达|达)?\s*$"
)

# 300 多元, 300 余元, 1500+ 元: a little more than the number (not the 12+256 of a memory size).
_MORE = r"(?:多|余|来|\+(?!\s*\d))"  # 来 (三百来块) is "about": no more than the number
_PRICE_RE = re.compile(
    rf"(?P<pre>{_CURRENCY_BEFORE}\s*)?(?:{_RANGE}|(?P<single>{_AMOUNT}))(?P<more>\s*{_MORE})?"
    rf"(?P<post>\s*{_CURRENCY_AFTER})?"
)
_ABOVE_AFTER_RE = re.compile(r"\s*出头")
_NOT_MONEY_AFTER_RE = re.compile(_NOT_MONEY_AFTER)
_DISCOUNT_BEFORE_RE = re.compile(_DISCOUNT_BEFORE)
_COUNT_BEFORE_RE = re.compile(_COUNT_BEFORE)
_PLUS_BEFORE_RE = re.compile(r"\d\s*\+\s*$")
_PLUS_AFTER_RE = re.compile(r"\s*\+\s*\d")
_SEPARATORS_RE = re.compile(r"[,\s]")
_NAME_DASH_RE = re.compile(r"\d{1,3}(?:\s+[-–—]\s*|\s*[–—]\s*)(?=\d)")  # the end of a name, then a dash
_SLASH_RE = re.compile(r"\s*/\s*")
_KEYWORD_BEFORE_RE = re.compile(rf"(?:{_PRICE_WORD}|{_HEDGE})[\s:：]*(?:{_CURRENCY_BEFORE})?\s*$")
_ARABIC_PARTS_RE = re.compile(r"(\d+(?:\.\d+)?)([kKw千万])?(?:(\d+)([千百])?)?")
_CHINESE_PARTS_RE = re.compile(r"(.+?)([千万百])(?:(.)([千百十])?)?")
_UNITS = {"k": 1_000.0, "K": 1_000.0, "千": 1_000.0, "w": 10_000.0, "万": 10_000.0, "百": 100.0, "十": 10.0}
# 多 / 余 / + / 出头 put the price just above the number: "2k 出头" is over 2000, not 2000.
_ABOVE = 1.0


@dataclass(frozen=True)
class Price:
    """A price mention: its value in yuan (a range's upper end) and the text it came from."""

    value: float
    text: str


def _amount(text: str) -> float:
    text = _SEPARATORS_RE.sub("", text)
    arabic = _ARABIC_PARTS_RE.fullmatch(text)
    if arabic:
        base, unit, tail, tail_unit = arabic.groups()
        return _combine(float(base), unit, int(tail) if tail else None, len(tail or ""), tail_unit)
    chinese = _CHINESE_PARTS_RE.fullmatch(text)
    assert chinese, text  # _AMOUNT admits only these two shapes
    head, unit, tail, tail_unit = chinese.groups()
    if re.fullmatch(_CN_PAIR, head):
        head = head[1]  # 五六百: the upper end
    return _combine(float(to_int(head) or 0), unit, to_int(tail) if tail else None, 1, tail_unit)


def _combine(base: float, unit: str | None, tail: int | None, tail_digits: int, tail_unit: str | None) -> float:
    scale = _UNITS[unit] if unit else 1.0
    value = base * scale
    if tail is not None:
        if tail_unit:
            value += tail * _UNITS[tail_unit]
        elif tail_digits == 1:
            value += tail * scale / 10  # 1万2: the digit counts in the next lower unit
        else:
            value += tail
    return value


def _in_thousands(amount: str) -> bool:
    """5k / 3千 / 两千 / 一万二: amounts that are money only with a money word near them."""
    return amount.strip().endswith(("k", "K", "千")) or not amount[:1].isdigit()


# A launch price is the item's price only when the answer gives no current one beside it.
_LAUNCH_BEFORE_RE = re.compile(r"(?:首发价|发售价|上市价|首发)\s*(?:约|为|是)?\s*[¥￥]?\s*$")
# A price that states what things of a kind usually cost, not what this one costs: "北京高端商务宴请
# 一般人均 500 元以上", "这类餐厅人均普遍在 600 元左右" — but "一般售价 2999 元" is this product's usual
# price. Read in its clause, at most _CLAUSE_WINDOW back.
_GENERAL_RE = re.compile(r"(?:一般|通常|普遍|大多|大部分|多数|往往|多半|基本上)(?!售价|价格|零售|卖|标价|定价|要价|报价|到手)"
                         r"|市面上|行情|平均水平")
_OWN_RE = re.compile(r"这家|该店|本店|它家|这里|这款|该款|它的|它")
# Advice on the budget is not a price either: "建议把预算提高到人均 500 元左右", "如果预算能到人均 500".
_BUDGET_ADVICE_RE = re.compile(r"(?:提高|提升|增加|放宽|上调|调高|加)(?:到|至)|预算[^。；;\n]{0,8}?(?:能|可以|允许)?(?:到|至)"
                               r"|(?:如果|假如|若|要是)[^。；;\n]{0,4}?(?:预算|人均)")
# An amount named as a budget is no price: "要我按 2000 元预算再推荐几款吗？", "5000 元左右的预算" — but
# "预算党" is a kind of buyer ("999 元预算党首选" states the price), and "约 3999 元 / 预算有限时的轻薄
# 之选" (a sub-point on the next line) speaks of a budget after the price: on the same line, next to it.
_BUDGET_AFTER_RE = re.compile(r"[ \t]?(?:左右|以内|以下|上下)?的?预算(?!党|有限|不|紧|充|够|多|少)")
# The price of another product the item is compared with: "只有 1899 元的 AirPods Pro 2 的六七成".
_OTHER_PRODUCT_AFTER_RE = re.compile(r"\s*(?:左右|上下)?\s*的\s*[A-Za-z]")
_CLAUSE_END_RE = re.compile(r"[。；;!！?？\n、,]")
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
    ends = list(_CLAUSE_END_RE.finditer(window))
    clause = window[ends[-1].end():] if ends else window
    if _BUDGET_ADVICE_RE.search(clause):
        return True
    return _GENERAL_RE.search(clause) is not None and _OWN_RE.search(clause) is None


def _candidate(text: str, match: re.Match[str], bare_number_is_price: bool) -> _Candidate | None:
    """The match as a possible price, or ``None`` when it is certainly not one."""
    before = text[max(0, match.start() - 12) : match.start()]
    after = text[match.end() : match.end() + _AFTER_WINDOW]
    previous = text[match.start() - 1] if match.start() > 0 else ""
    if previous.isalnum() and not match.group("pre") and not re.match(r"[\u4e00-\u9fff]", previous):
        named = _NAME_DASH_RE.match(match.group(0)) if match.group("low") else None
        if named is None:
            return None  # part of a model name such as "XM5" or "M3"
        # "Free3 - 499 元", "X3 — 899 元": the name ends in a digit and a dash leads to its price
        price = _PRICE_RE.match(text, match.start() + named.end())
        return _candidate(text, price, bare_number_is_price) if price else None
    if _FOREIGN_BEFORE_RE.search(before) or _FOREIGN_AFTER_RE.match(after) or _DISCOUNT_BEFORE_RE.search(before):
        return None
    high = match.group("high") or match.group("single")
    value = _amount(high)
    above = _ABOVE_AFTER_RE.match(after)
    if (match.group("more") and match.group("more").strip() != "来") or above:
        value += _ABOVE
    quoted = match.group(0).strip() + (above.group(0) if above else "")
    if match.group("pre") or match.group("post"):
        return _Candidate(match, True, value, quoted)
    if _NOT_MONEY_AFTER_RE.match(after) is None:
        return None
    if _PLUS_BEFORE_RE.search(before) or _PLUS_AFTER_RE.match(after):
        return None  # a memory configuration such as 12+256
    counted = _COUNT_BEFORE_RE.search(before) is not None
    if _in_thousands(high):
        money = _THOUSANDS_MONEY_AFTER_RE.match(after) is not None
    else:
        money = ("万" in high or "w" in high) and not counted  # "1.2 万"
    money = money or _KEYWORD_BEFORE_RE.search(before) is not None or (bare_number_is_price and not counted)
    return _Candidate(match, money, value, quoted)


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
    text = unicodedata.normalize("NFKC", text.replace("，", "、"))
    candidates = [
        candidate
        for match in _PRICE_RE.finditer(text)
        if (candidate := _candidate(text, match, bare_number_is_price)) is not None
    ]
    _spread_over_variants(text, candidates)
    for candidate in candidates:
        candidate.launch = _LAUNCH_BEFORE_RE.search(text[max(0, candidate.match.start() - 8) : candidate.match.start()]) is not None
        candidate.general = (_general(text, candidate.match.start())
                             or _BUDGET_AFTER_RE.match(text, candidate.match.end()) is not None)
    money = [c for c in candidates if c.money and not c.general]
    # Another product's price is left out beside the item's own — alone it is the item's ("1299 元的 Bose 平替").
    own = [c for c in money if _OTHER_PRODUCT_AFTER_RE.match(text, c.match.end()) is None]
    money = own or money
    current = [c for c in money if not c.launch]
    return [Price(c.value, c.text) for c in (current or money)]
