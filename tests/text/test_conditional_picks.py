"""Picks given under conditions — "如果你更看重 X，选 A", a condition before the pick, groups of
picks nested under the needs they serve — are the picks, not the conditions."""

from __future__ import annotations

import pytest

from gate.text.items import extract


def picks(answer: str) -> list[tuple[str, list[float]]]:
    return [(item.name, [p.value for p in item.prices]) for item in extract(answer).items]


def test_a_pick_for_each_condition_in_prose() -> None:
    answer = ("推荐这 3 款，按你的侧重来选：如果你最看重降噪，选 Bose QuietComfort Ultra（约 2999 元），地铁上很安静；"
              "如果更看重续航，选森海塞尔 Momentum 4（约 2499 元），能用 60 小时；如果预算在 1500 元以内，就选华为 FreeBuds Pro 4"
              "（约 1299 元）。")
    assert picks(answer) == [("Bose QuietComfort Ultra", [2999.0]), ("森海塞尔 Momentum 4", [2499.0]),
                             ("华为 FreeBuds Pro 4", [1299.0])]


@pytest.mark.parametrize("answer", ["选购的时候，选降噪深的更好。", "如果预算有限，选择入门款就够了。"])
def test_choosing_in_general_names_no_pick(answer: str) -> None:
    assert picks(answer) == []


def test_a_condition_before_the_pick_is_not_its_name() -> None:
    answer = ("按出发地给你配了 3 个：\n\n- 从上海出发：**苏州**，园林和平江路\n- 从上海出发：**杭州**，西湖骑行\n"
              "- 从北京出发：**天津**，五大道洋楼\n")
    assert [name for name, _ in picks(answer)] == ["苏州", "杭州", "天津"]


def test_picks_nested_under_the_needs_they_serve() -> None:
    answer = ("看你的跑步习惯来选：\n\n- **刚开始跑、体重偏大**：优先缓震\n  - HOKA Clifton 9，约 1199 元\n"
              "  - ASICS Gel-Nimbus 26，约 1290 元\n- **想冲成绩**：碳板竞速鞋\n  - 特步 160X 6.0，约 1499 元\n")
    assert picks(answer) == [("HOKA Clifton 9", [1199.0]), ("ASICS Gel-Nimbus 26", [1290.0]), ("特步 160X 6.0", [1499.0])]


def test_a_named_pick_keeps_its_nested_qualities_as_sub_points() -> None:
    answer = "- **Bose QC Ultra**：降噪最强\n  - 价格 2999 元\n  - ANC 模式\n- **AirPods Pro 2**：生态\n  - 价格 1899 元\n"
    assert picks(answer) == [("Bose QC Ultra", [2999.0]), ("AirPods Pro 2", [1899.0])]


def test_a_need_with_figures_is_still_a_need() -> None:
    answer = ("- **日常训练、每周 20-40 公里**：选耐磨的\n  - Nike Pegasus 41，约 899 元\n  - 李宁 赤兔 7 Pro，约 599 元\n"
              "- **想冲成绩**：碳板\n  - 特步 160X 6.0，约 1499 元\n")
    assert [name for name, _ in picks(answer)] == ["Nike Pegasus 41", "李宁 赤兔 7 Pro", "特步 160X 6.0"]


def test_labelled_lines_under_a_place_are_its_description() -> None:
    answer = ("- **塔公草原**\n  - Why: 雪山下的大草原\n  - Tips: 海拔高，注意保暖\n"
              "- **新都桥**\n  - Why: 摄影天堂\n  - Tips: 秋天最美\n")
    assert [name for name, _ in picks(answer)] == ["塔公草原", "新都桥"]
