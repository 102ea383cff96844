"""Regressions found while writing the B3 MC/AC golden cases: realistic answers misjudged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gate.text.prices import find_prices
from gate.verdict import Outcome, Status

Judge = Callable[..., Outcome]


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("到手价 949，128GB 固态", [949.0]),
        ("约 2199，120W 快充", [2199.0]),
        ("¥2,999，256GB 版 ¥3,299", [2999.0, 3299.0]),
        ("官方售价 ¥5,499，618 期间再降", [5499.0]),
        ("5,499 元", [5499.0]),
        ("1,299,000 元", [1299000.0]),
    ],
    ids=["hedge-then-storage", "hedge-then-watts", "two-prices", "price-then-date", "grouped", "grouped-twice"],
)
def test_a_full_width_comma_ends_a_number(text: str, values: list[float]) -> None:
    assert [price.value for price in find_prices(text)] == values


def test_a_comma_after_four_digits_is_no_thousands_separator() -> None:
    assert [price.value for price in find_prices("到手价 2999,128GB")] == [2999.0]


_LAPTOPS = "1. **机械师 Pocket Book**：{first}，轻办公够用\n2. **酷比魔方 GTBook 14**：899 元\n"


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        ("到手价 949，128GB 固态", Status.PASS),
        ("到手价 1949，128GB 固态", Status.FAIL),
    ],
    ids=["storage-after-the-price", "over-budget-still-found"],
)
def test_storage_after_a_price_is_not_part_of_it(judge: Judge, first: str, expected: Status) -> None:
    answer = _LAPTOPS.format(first=first)
    assert judge("items:price", {"max": 1000}, answer).status is expected
