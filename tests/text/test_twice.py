"""A product listed twice under two names is one pick to a reader: a count it decides is uncertain."""

from __future__ import annotations

import pytest

from gate.text.twice import named_twice
from tests.conftest import run_checker


@pytest.mark.parametrize(("names", "twice"), [
    pytest.param(["索尼 WH-1000XM5", "Sony 1000XM5 头戴式", "Bose QC Ultra"], 1, id="one model code, two brand spellings"),
    pytest.param(["Soundcore Liberty 4 NC", "漫步者 Lolli Pro 3", "声阔 Liberty 4 NC"], 1, id="the same model words, a brand word before"),
    pytest.param(["iPhone 16 Pro", "iPhone 16 Pro Max"], 0, id="two models of one line"),
    pytest.param(["AirPods Pro 2", "Galaxy Buds Pro 2"], 0, id="one suffix, two products"),
    pytest.param(["华硕 灵耀 14 2024", "荣耀 MagicBook 14 2024"], 0, id="numbers alone name no model"),
    pytest.param(["华为 Mate 70", "华为 Mate 70 Pro"], 0, id="a variant"),
])
def test_a_product_named_twice(names: list[str], twice: int) -> None:
    assert named_twice(names) == twice


def test_a_count_a_product_named_twice_decides_is_uncertain_with_both_readings() -> None:
    answer = ("推荐 3 款：\n\n1. **索尼 WH-1000XM5**：降噪顶级\n2. **Bose QC Ultra**：佩戴舒适\n"
              "3. **Sony 1000XM5 头戴式**：音质好\n")
    outcome = run_checker("items:count", {"exact": 3}, answer)
    assert outcome.status.value == "uncertain", outcome.detail
    assert "already named" in outcome.detail
    assert {reading.verdict.value for reading in outcome.readings} == {"pass", "fail"}


@pytest.mark.slow  # timed at two sizes
def test_a_list_of_many_names_is_read_in_linear_time() -> None:
    assert named_twice([f"Model X{n} Pro" for n in range(20_000)]) == 0
