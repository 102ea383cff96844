"""Several picks in one entry — alternatives side by side — counted as picks; a bare slash that may
name one thing two ways leaves a count it decides uncertain, both readings on the record."""

from __future__ import annotations

import pytest

from gate.text.items import extract
from tests.conftest import run_checker


def names(answer: str) -> list[str]:
    return [item.name for item in extract(answer).items]


@pytest.mark.parametrize(("answer", "expected"), [
    pytest.param("1. **Bose QC Ultra**：约 2999 元\n2. **AirPods Pro 2 / 华为 FreeBuds Pro 4 二选一**：看手机\n",
                 ["Bose QC Ultra", "AirPods Pro 2", "华为 FreeBuds Pro 4"], id="A / B 二选一"),
    pytest.param("1. 苏州 或 无锡 都行：园林古镇\n2. 杭州：西湖\n", ["苏州", "无锡", "杭州"], id="A 或 B 都行"),
    pytest.param("- 入门：首选 QCY MeloBuds Pro（199 元），备选 Redmi Buds 6 Pro（249 元）\n- 一加 Buds 3：449 元\n",
                 ["QCY MeloBuds Pro", "Redmi Buds 6 Pro", "一加 Buds 3"], id="a label, then a first choice and a backup"),
    pytest.param("1. 《程序员修炼之道》或《代码整洁之道》都行：一节一个主题\n2. 《人月神话》：随笔\n",
                 ["《程序员修炼之道》", "《代码整洁之道》", "《人月神话》"], id="titles"),
    pytest.param("| 类型 | 首选 | 备选 |\n|---|---|---|\n| 头戴 | Sony XM5 | Bose QC45 |\n| 入耳 | 华为 FreeBuds Pro 4 | — |\n",
                 ["Sony XM5", "Bose QC45", "华为 FreeBuds Pro 4"], id="picks side by side in a table"),
    pytest.param("| 场景 | 推荐 | 参考价 |\n|---|---|---|\n| 出差 | MateBook X Pro 或 MacBook Air 都行 | 7999 |\n",
                 ["MateBook X Pro", "MacBook Air"], id="a 推荐 column beside what each is for"),
])
def test_alternatives_are_picks(answer: str, expected: list[str]) -> None:
    assert names(answer) == expected


@pytest.mark.parametrize(("answer", "expected"), [
    pytest.param("1. 国航 CA925（6/10）：直飞\n2. 东航 MU5183（6/9）：直飞\n", ["国航 CA925（6/10）", "东航 MU5183（6/9）"],
                 id="a slash inside brackets"),
    pytest.param("1. 小新 Pro 14：16G/512G 版本\n2. MateBook 14：约 2680/3150 元\n", ["小新 Pro 14", "MateBook 14"],
                 id="specs and prices"),
    pytest.param("1. 《苏州或杭州游记》：一本书\n", ["《苏州或杭州游记》"], id="或 inside a title"),
])
def test_slashes_and_or_words_that_join_no_picks(answer: str, expected: list[str]) -> None:
    assert names(answer) == expected


def test_a_bare_slash_that_decides_the_count_is_uncertain_with_both_readings() -> None:
    answer = "| 景点 | 区域 |\n|---|---|\n" + "".join(f"| 景点{i} | 区域 |\n" for i in range(8)) + "| 乌布皇宫/圣猴森林公园 | 乌布 |\n"
    outcome = run_checker("items:count", {"min": 10}, answer)
    assert outcome.status.value == "uncertain"
    assert [(r.label, r.verdict.value) for r in outcome.readings] == [
        ("10 picks: a slash between two names offers both", "pass"), ("9 picks: each entry one pick", "fail")]
    decided = run_checker("items:count", {"min": 5}, answer)
    assert decided.status.value == "pass"  # both readings agree: no doubt to record


def test_a_json_element_s_alternative_is_a_pick_of_its_own() -> None:
    answer = ('[{"name": "Bose QC Ultra", "alternative": "Bose QC45", "reason": "降噪"},'
              ' {"name": "AirPods Pro 2", "reason": "生态"}, {"name": "FreeBuds Pro 4", "reason": "通话"}]')
    assert names(answer) == ["Bose QC Ultra", "Bose QC45", "AirPods Pro 2", "FreeBuds Pro 4"]


def test_one_pick_and_its_backup_in_prose_are_two() -> None:
    answer = ("首选 **京兆尹（雍和宫店）**，四合院环境，人均约 280 元；备选 **四季民福烤鸭店（故宫店）**，人均约 220 元。\n\n"
              "说明一下：人均 300 元偏紧。\n")
    assert len(names(answer)) == 2 and names(answer)[1].startswith("四季民福烤鸭店")
