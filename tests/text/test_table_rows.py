"""Table rows that are not picks: variants and continuations of the row above, group labels and
notes, a restated header, a summary, a baseline — each read as what it is."""

from __future__ import annotations

import pytest

from gate.text.items import extract


def names(answer: str) -> list[str]:
    return [item.name for item in extract(answer).items]


@pytest.mark.parametrize(("answer", "expected"), [
    pytest.param("| 型号 | 配置 | 价格 |\n|---|---|---|\n| 联想小新 Pro 14 | 16G/512G | 4999 |\n| 〃 | 32G/1T | 5999 |\n"
                 "| 华为 MateBook 14 | 16G/1T | 5499 |\n| 同上 | 32G/1T | 6299 |\n",
                 ["联想小新 Pro 14", "华为 MateBook 14"], id="variant rows: 〃 and 同上"),
    pytest.param("| 鞋款 | 版本 | 价格 |\n|---|---|---|\n| Nike Pegasus 41 | 标准楦 | 899 |\n|  | 宽楦 | 899 |\n"
                 "| HOKA Clifton 9 | 男款 | 1099 |\n",
                 ["Nike Pegasus 41", "HOKA Clifton 9"], id="an empty name cell carries the row above on"),
    pytest.param("| 地点 | 特点 | 季节 |\n|---|---|---|\n| 华东 |  |  |\n| 莫干山 | 竹林营地 | 夏 |\n| 地点 | 特点 | 季节 |\n"
                 "| 华北 |  |  |\n| 坝上草原 | 草原 | 7-8 月 |\n",
                 ["莫干山", "坝上草原"], id="group label rows and the header restated"),
    pytest.param("| 笔记本 | 价格 | 说明 |\n|---|---|---|\n| 红米 Book 14 | 999 元 | 入门 |\n| 合计 | 1 款 |  |\n"
                 "| 注：以上为电商常规价 |  |  |\n",
                 ["红米 Book 14"], id="a summary row and a note row"),
    pytest.param("| 方案 | 航班 | 价格 |\n|---|---|---|\n| 1 | MU729 | 1700 |\n| 2 | CA925 | 1900 |\n"
                 "| 对比基线 | 原定 NH920 | 2300 |\n",
                 ["MU729", "CA925"], id="a baseline row"),
    pytest.param("| 名称 | 价格 |\n|---|---|\n| Bose QC Ultra |  |\n| AirPods Pro 2 | 1899 |\n",
                 ["Bose QC Ultra", "AirPods Pro 2"], id="two columns: a row without a price is still a pick"),
])
def test_rows_that_are_not_picks(answer: str, expected: list[str]) -> None:
    assert names(answer) == expected


def test_a_variant_row_joins_its_pick_s_description() -> None:
    (first, *_) = extract("| 型号 | 配置 |\n|---|---|\n| 小新 Pro 14 | 16G |\n| 〃 | 32G |\n| MateBook 14 | 16G |\n").items
    assert "32G" in first.description and "〃" in first.text
