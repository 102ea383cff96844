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


