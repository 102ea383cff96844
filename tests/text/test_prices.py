"""Prices: the forms an answer states them in, and the numbers that are not prices."""

from __future__ import annotations

import pytest

from gate.text.prices import find_prices


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("售价 1.2 万", [12000]),
        ("约 5.5k", [5500]),
        ("¥5,499", [5499]),
        ("￥4999 起", [4999]),
        ("人均 200-300 元", [300]),
        ("价格在 2000 到 3000 元之间", [3000]),
        ("价格区间 2000-3000", [3000]),
        ("人均 280", [280]),
        ("人均消费 280", [280]),
        ("1-1.5 万元", [15000]),
        ("价格 1.5w", [15000]),
        ("$299", []),  # dollars are not yuan
        ("RMB 3000", [3000]),
        ("5千元", [5000]),
        ("约 200 元/人", [200]),
        ("券后 2999 元", [2999]),
        ("原价 6999 元，立省 500 元，到手价 6499 元", [6499]),
        # another product's price beside the item's own is the other's; alone it is the item's
        ("约 349 元，降噪效果大概只有 1899 元的 AirPods Pro 2 的六七成", [349]),
        ("¥1,299 的 Bose 平替", [1299]),
        ("首发价 3999 元，现降价 500 元", [3999]),
        ("直降 500 元，现价 5999 元", [5999]),
        ("比上代贵 500 元", []),
        ("便宜了 300 元", []),
        ("差价 300 元", []),
        ("3000mAh 电池，120Hz 屏幕，续航 15 小时", []),
        ("支持 120W 快充", []),
        ("约 3.5 小时", []),
        ("月销 1.2 万", []),
        ("好评 1.2 万条", []),
        ("约 2 万步", []),
        ("WH-1000XM5", []),
        ("v1.2 版", []),
        ("2025-05-10", []),
        ("3-5 天", []),
        ("售价 999 美元", []),  # another currency is not yuan
    ],
)
def test_prices_found(text: str, values: list[float]) -> None:
    assert [p.value for p in find_prices(text)] == values


def test_bare_number_under_a_price_header() -> None:
    assert [p.value for p in find_prices("2999", bare_number_is_price=True)] == [2999]
    assert [p.value for p in find_prices("2999 起", bare_number_is_price=True)] == [2999]
    assert find_prices("2999") == []


def test_model_number_before_a_price() -> None:
    assert [p.text for p in find_prices("小米14 3999元")] == ["3999元"]


@pytest.mark.parametrize(("text", "values"), [
    ("Free3 - 499 元", [499]),  # a name ending in a digit, a dash, its price: no range 3–499
    ("OPPO Enco X3 — 899 元", [899]),
    ("Buds3 – 1,299 元 · 降噪", [1299]),
    ("Free3-499元", []),  # without spaces it stays a model name
    ("三百来块", [300]),  # 来 is "about", not "more than"
    ("一百多块", [101]),
    ("教育优惠约 6,499 元", [6499]),  # an education price, not an amount off
    ("学生优惠 4,999 元起", [4999]),
    ("优惠约 500 元", []),  # an amount off
])
def test_name_dash_price_and_colloquial_amounts(text: str, values: list[float]) -> None:
    assert [p.value for p in find_prices(text)] == values


@pytest.mark.parametrize(("text", "values"), [
    # what things of a kind usually cost is background, not the price of what is recommended
    ("人均约 200-250 元。北京高端商务宴请一般人均 500 元以上，300 元以内的店会稍逊", [250, 300]),
    ("商务宴请通常人均 500+", []),
    ("这类餐厅人均普遍在 600 元左右", []),
    ("市面上同类耳机大多在 2000 元左右", []),
    # …but the item's own usual price is its price
    ("这家人均一般在 280 元左右", [280]),
    ("一般售价 2999 元，活动价 2599", [2999, 2599]),
    ("通常价格 1,899 元", [1899]),
    ("人均四五百元", [500]),
    ("人均 500 元起", [500]),
    # advice on the budget is not a price of the recommendation
    ("人均约 280 元。如果是重要客户，建议把预算提高到人均 500 元左右", [280]),
    ("如果预算能到人均 500 元左右，选择会多很多", []),
    ("预算可以放宽到 6000 元的话，推荐 X1 Carbon", []),
    ("建议零售价 2999 元", [2999]),
])
def test_a_general_price_is_not_the_items(text: str, values: list[float]) -> None:
    assert [p.value for p in find_prices(text)] == values
