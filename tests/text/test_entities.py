"""Every entity an answer recommends, across the structures it composes: groups, several tables,
lists set aside, passages that add a pick."""

from __future__ import annotations

from gate.text.items import extract


def _names(answer: str) -> list[str]:
    return [item.name for item in extract(answer).items]


def test_numbering_restarting_under_each_label_counts_across_the_groups() -> None:
    labels = "**🚇 适合通勤：**\n1. **Bose QC Ultra 耳塞** —— 降噪强\n2. **AirPods Pro 2** —— 苹果首选\n\n" \
             "**🏃 适合运动：**\n1. **Beats Powerbeats Pro 2** —— 不掉\n\n**✈️ 适合出差：**\n1. **森海塞尔 Momentum 4** —— 续航长\n"
    assert _names(labels) == ["Bose QC Ultra 耳塞", "AirPods Pro 2", "Beats Powerbeats Pro 2", "森海塞尔 Momentum 4"]
    headings = "### 通勤\n1. **Bose QC Ultra 耳塞**：降噪强\n\n### 运动\n1. **Beats Powerbeats Pro 2**：不掉\n\n" \
               "### 出差\n1. **森海塞尔 Momentum 4**：续航长\n"
    assert _names(headings) == ["Bose QC Ultra 耳塞", "Beats Powerbeats Pro 2", "森海塞尔 Momentum 4"]


def test_one_numbered_point_under_each_item_heading_is_its_sub_point() -> None:
    answer = "### 1. Bose QC Ultra\n1. 降噪最强\n\n### 2. AirPods Pro 2\n1. 适合苹果用户\n"
    assert _names(answer) == ["Bose QC Ultra", "AirPods Pro 2"]
