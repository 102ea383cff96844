"""Prices: the corpus cases/prices.yaml (text → the amounts read), and the readings it cannot state."""

from __future__ import annotations

from typing import Any

import pytest

from gate.text.prices import find_prices
from tests.text.cases import corpus


@pytest.mark.parametrize("case", corpus("prices"))
def test_prices_read_as_the_corpus_says(case: dict[str, Any]) -> None:
    found = [p.value for p in find_prices(case["text"], bare_number_is_price=case.get("bare", False))]
    assert found == case["values"], case.get("why", "")


def test_bare_number_under_a_price_header() -> None:
    assert [p.value for p in find_prices("2999", bare_number_is_price=True)] == [2999]
    assert [p.value for p in find_prices("2999 起", bare_number_is_price=True)] == [2999]
    assert find_prices("2999") == []


def test_model_number_before_a_price() -> None:
    assert [p.text for p in find_prices("小米14 3999元")] == ["3999元"]




@pytest.mark.parametrize(("text", "party"), [
    ("🎫 【商务 4 人套餐】券后 ¥1,088（含整只烤鸭）", 4),
    ("券后 ¥1,088（四人份）", 4),
    ("经典 2 人餐｜券后 ¥198", 2),
    ("双人套餐 298 元", 2),
    ("人均 280 元", 1),
    ("三人餐吃不完，人均 120 元", 1),  # the party is in another clause
])
def test_a_price_for_a_stated_party_says_how_many_it_is_for(text: str, party: int) -> None:
    (price,) = find_prices(text)
    assert price.party == party


def test_a_per_person_bound_shares_a_party_price_and_a_per_item_bound_does_not() -> None:
    from tests.conftest import run_checker

    answer = "推荐**四季民福烤鸭店（故宫店）**：【商务 4 人套餐】券后 ¥1,088（4 人份）。"
    per_person = run_checker("items:price", {"max": 300, "per": "person"}, answer)
    assert per_person.status.value == "pass" and "272" in per_person.detail
    assert run_checker("items:price", {"max": 300}, answer).status.value == "fail"


def test_a_bare_amount_first_after_a_name_is_its_price() -> None:
    from gate.text.items import extract

    post = "宝子们看过来👇\n① 联想小新Pro 14：5499，学生党闭眼入\n② 华为MateBook 14：5999，鸿蒙生态好用\n"
    assert [[p.value for p in item.prices] for item in extract(post).items] == [[5499.0], [5999.0]]
    years = "1. **Bose QC Ultra**：2024 款，降噪最强\n2. **AirPods Pro 2**：USB-C 版\n"
    assert [item.prices for item in extract(years).items] == [(), ()]  # 2024 款 is a model year, not a price
