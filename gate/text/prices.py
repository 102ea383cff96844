"""Prices stated in an answer: 5499 元, ¥5,499, 约 5.5k, 1.2 万, 人均 280, 2999-3999 元 (upper end)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Thousands separators only in valid groups: "5,499" is one number, "2999,128" is two.
_NUMBER = r"(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?"
_SCALE = r"(?:\s?(?:k|K|千|w|万))?"  # "W" is watts (120W 快充), never 万
_AMOUNT = rf"{_NUMBER}{_SCALE}"
_RANGE = rf"(?P<low>{_AMOUNT})\s*(?:-|~|～|–|—|至|到)\s*(?P<high>{_AMOUNT})"
_CURRENCY_BEFORE = r"(?:¥|￥|RMB|CNY|rmb|人民币|\$|US\$)"
_CURRENCY_AFTER = r"(?:元|块钱|块|rmb|RMB|CNY)"
# A price word may be followed by a few characters ("价格区间 2000-3000", "人均消费 280");
# a hedge such as 约 must stand right before the number.
_PRICE_WORD = (
    r"(?:价格|售价|价位|报价|参考价|到手价|入手价|首发价|官方价|定价|价钱|预算|人均|均价|"
    r"客单价|起售价?|price|Price)[\u4e00-\u9fff]{0,3}"
)
_HEDGE = r"(?:约|大约|仅需|只要|不到)"
# What a number is followed by when it is not money (hours, battery, screen, weight …).
_NOT_MONEY_AFTER = (
    r"(?!\s*(?:小时|h\b|mAh|Hz|GB|TB|G\b|英寸|寸|kg|克|g\b|mm|cm|分钟|分\b|天|km|公里|W\b|瓦|核|代|款|家|"
    r"个|%|人|年|月|日|号|次|位|岁|米|层|期|倍|dB|ms|nit|尼特|万像素|像素|帧|fps|p\b|P\b|折|星|"
    r"条|步|张|份|套|名|篇|字|件|台|部|辆|间|晚|周|页|首|瓶|杯|斤|升|毫升|ml|美元|美金|欧元|日元|港币|港元|英镑))"
)
_COUNT_BEFORE = r"(?:销量|月销|已售|评价|评论|好评|粉丝|播放|浏览|阅读|下载|里程|超过|超)\s*$"
# Amounts saved or compared are not what the item costs ("立省 500 元", "直降 300 元", "贵 500 元").
_DISCOUNT_BEFORE = (
    r"(?:原价|划线价|降价前|立省|节省|省下?|便宜|优惠|补贴|立减|减|直降|降价?|少|差价|差|贵|涨价?|多花|加价|返)"
    r"了?\s*(?:约|近|超|高达|达)?\s*$"
)

_PRICE_RE = re.compile(
    rf"(?P<pre>{_CURRENCY_BEFORE}\s*)?(?:{_RANGE}|(?P<single>{_AMOUNT}))(?P<post>\s*{_CURRENCY_AFTER})?"
)
_KEYWORD_BEFORE_RE = re.compile(rf"(?:{_PRICE_WORD}|{_HEDGE})[\s:：]*(?:{_CURRENCY_BEFORE})?\s*$")


@dataclass(frozen=True)
class Price:
    """A price mention: its value in yuan (a range's upper end) and the text it came from."""

    value: float
    text: str


def _amount(text: str) -> float:
    text = text.replace(",", "").strip()
    scale = 1.0
    if text[-1:] in ("k", "K", "千"):
        scale, text = 1_000.0, text[:-1]
    elif text[-1:] in ("w", "万"):
        scale, text = 10_000.0, text[:-1]
    return float(text.strip()) * scale


def find_prices(text: str, *, bare_number_is_price: bool = False) -> list[Price]:
    """Every price mention in ``text``, discounts and non-money numbers left out.

    A number is money when a currency mark stands before or after it, or a price word (价格, 人均,
    约 …) just before it. ``bare_number_is_price`` is for a table cell under a price header.
    """
    # NFKC turns the full-width comma into ","; keep it a separator, so "¥2,999，128GB" is not 2999128.
    text = unicodedata.normalize("NFKC", text.replace("，", "、"))
    found: list[Price] = []
    for match in _PRICE_RE.finditer(text):
        before = text[max(0, match.start() - 12) : match.start()]
        previous = text[match.start() - 1] if match.start() > 0 else ""
        if previous.isalnum() and not match.group("pre") and not re.match(r"[\u4e00-\u9fff]", previous):
            continue  # part of a model name such as "XM5" or "M3"
        money = bool(match.group("pre") or match.group("post"))
        if not money and re.search(r"[万w]$", match.group(0)) and not re.search(_COUNT_BEFORE, before):
            money = re.match(_NOT_MONEY_AFTER, text[match.end() :]) is not None  # "1.2 万"
        if not money and _KEYWORD_BEFORE_RE.search(before):
            money = re.match(_NOT_MONEY_AFTER, text[match.end() :]) is not None
        if not money and bare_number_is_price:
            money = re.fullmatch(rf"\s*{_CURRENCY_BEFORE}?\s*(?:{_RANGE}|{_AMOUNT})\s*{_CURRENCY_AFTER}?\s*(?:起|左右)?\s*", text) is not None
        if not money or re.search(_DISCOUNT_BEFORE, before):
            continue
        high = match.group("high") or match.group("single")
        found.append(Price(_amount(high), match.group(0).strip()))
    return found
