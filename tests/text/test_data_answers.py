"""YAML or TOML written where JSON was asked: the format check fails it, and what it lists is still
counted and priced like a JSON array's elements — but only where the records are the answer."""

from __future__ import annotations

import pytest

from gate.text.dataanswer import data_records
from gate.text.items import extract
from tests.conftest import run_checker

YAML = ("```yaml\nheadphones:\n  - name: Bose QuietComfort Ultra\n    price: 2999\n    reason: 降噪深度顶级\n"
        "  - name: AirPods Pro 2\n    price: 1899\n    reason: 生态\n  - name: 华为 FreeBuds Pro 4\n    price: 1299\n"
        "    reason: 通话降噪\n```")
TOML = ('[[headphones]]\nname = "Bose QuietComfort Ultra"\nprice_cny = 2999\n\n[[headphones]]\nname = "Sennheiser Momentum 4"\n'
        'price_cny = 2499\n\n[[headphones]]\nname = "AirPods Pro 2"\nprice_cny = 1899\n')


@pytest.mark.parametrize(("answer", "names", "prices"), [
    pytest.param(YAML, ["Bose QuietComfort Ultra", "AirPods Pro 2", "华为 FreeBuds Pro 4"], [2999.0, 1899.0, 1299.0], id="yaml fence"),
    pytest.param(TOML, ["Bose QuietComfort Ultra", "Sennheiser Momentum 4", "AirPods Pro 2"], [2999.0, 2499.0, 1899.0], id="toml tables"),
    pytest.param("- name: 京兆尹\n  price: 280\n- name: 四季民福\n  price: 260\n", ["京兆尹", "四季民福"], [280.0, 260.0],
                 id="unfenced yaml records"),
])
def test_records_are_the_picks(answer: str, names: list[str], prices: list[float]) -> None:
    found = extract(answer)
    assert found.source == "records"
    assert [item.name for item in found.items] == names
    assert [price.value for item in found.items for price in item.prices] == prices


def test_the_json_constraint_still_fails_and_the_count_passes() -> None:
    assert run_checker("json:valid", {"type": "any"}, TOML).status.value == "fail"
    assert run_checker("items:count", {"exact": 3}, TOML).status.value == "pass"


@pytest.mark.parametrize("answer", [
    "- Bose QC Ultra\n- AirPods Pro 2\n",  # a Markdown list is YAML too, but holds no records
    "推荐：\n- name: Bose\n  price: 2999\n",  # prose around them: Markdown's to read
    "```yaml\nkey: value\n```",
    "```yaml\nbad: [unclosed\n```",
    "```yaml\n- {a: !!int 0x, b: 1}\n- {a: 1, b: 2}\n```",  # a scalar YAML cannot build: not records, never a traceback
    "a: &x [*x]\n",
    "[[broken\n",
])
def test_anything_else_is_no_records(answer: str) -> None:
    assert data_records(answer) is None


def test_a_date_in_a_record_is_its_text() -> None:
    records = data_records("```yaml\n- name: 西湖\n  date: 2025-03-01\n- name: 灵隐寺\n  date: 2025-03-02\n```")
    assert records == [{"name": "西湖", "date": "2025-03-01"}, {"name": "灵隐寺", "date": "2025-03-02"}]
