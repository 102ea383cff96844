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


_PICKS = ("为您推荐 3 款：\n\n| 型号 | 参考价格 |\n|---|---|\n| Bose QuietComfort Ultra | 约 2500 元 |\n"
          "| Apple AirPods Pro 2 | 约 1500 元 |\n| 森海塞尔 Momentum 4 | 约 1700 元 |\n\n")


def _entities(answer: str) -> dict[str, tuple[str, list[str]]]:
    return {entity.name: (entity.status, [evidence.reason for evidence in entity.evidence])
            for entity in extract(answer).entities}


def test_a_budget_table_naming_the_picks_and_one_more_recommends_that_one() -> None:
    answer = _PICKS + ("**按预算选择：**\n\n| 预算 | 推荐 |\n|---|---|\n| 2000 元以上 | Bose QuietComfort Ultra |\n"
                       "| 1500 元左右 | Apple AirPods Pro 2 |\n| 1000 元以内 | 小米 Buds 5 Pro |\n")
    found = extract(answer)
    assert [item.name for item in found.items][-1] == "小米 Buds 5 Pro" and found.extras == 1
    assert _entities(answer)["Bose QuietComfort Ultra"] == ("recommended", ["main", "restated"])
    assert _entities(answer)["小米 Buds 5 Pro"] == ("recommended", ["beside the picks"])
    assert [p.value for p in found.items[-1].prices] == [1000]


def test_a_budget_table_of_the_picks_only_adds_nothing() -> None:
    answer = _PICKS + ("**按预算选择：**\n\n| 预算 | 推荐 |\n|---|---|\n| 2000 元以上 | Bose QC Ultra |\n"
                       "| 1500 元左右 | AirPods Pro 2 |\n")
    assert len(extract(answer)) == 3


def test_a_comparison_or_a_baseline_beside_the_picks_is_only_mentioned() -> None:
    compared = _PICKS + ("和上一代对比：\n\n| 型号 | 降噪 |\n|---|---|\n| Bose QuietComfort Ultra | 强 |\n"
                         "| Bose QC45 | 一般 |\n")
    assert len(extract(compared)) == 3 and _entities(compared)["Bose QC45"][0] == "mentioned"
    baseline = _PICKS + ("价格参照：\n\n- **Apple AirPods Pro 2**：约 1500 元\n- **当前在用的 Sony XM4（参考）**：约 1200 元\n")
    assert len(extract(baseline)) == 3


def test_a_choosing_guide_mapping_needs_to_picks_recommends_a_new_pick() -> None:
    guide = _PICKS + "### 怎么选\n\n- 飞机高铁坐得多 → Bose QC Ultra\n- 苹果全家桶 → AirPods Pro 2\n"
    assert len(extract(guide)) == 3
    sneaked = guide + "- 预算有限 → 小米 Buds 5 Pro（约 600 元）\n"
    assert [item.name for item in extract(sneaked).items][-1] == "小米 Buds 5 Pro"


def test_options_set_aside_are_rejected_unless_their_own_words_endorse_them() -> None:
    answer = _PICKS + ("有几款我考虑过，但没有放进主推：\n\n- **Beats Studio Pro**：降噪弱一截，不推荐。\n"
                       "- **Sony WH-1000XM5**：降噪很强，但超预算了。\n"
                       "- **Bose QC Ultra 耳塞**：没放进主推只是因为已有一款 Bose；通勤坐地铁的话，直接买它也完全没问题。\n")
    found = extract(answer)
    assert [item.name for item in found.items] == ["Bose QuietComfort Ultra", "Apple AirPods Pro 2", "森海塞尔 Momentum 4",
                                                    "Bose QC Ultra 耳塞"]
    assert [entity.name for entity in found.set_aside()] == ["Beats Studio Pro", "Sony WH-1000XM5"]
    assert _entities(answer)["Bose QC Ultra 耳塞"] == ("recommended", ["endorsed"])


def test_names_match_across_structures_by_their_words() -> None:
    from gate.text.entities import key, same

    assert same(key("Bose QC Ultra"), key("Bose QuietComfort Ultra 头戴式"))
    assert same(key("AirPods Pro 2"), key("Apple AirPods Pro 2（USB-C 版）"))
    assert same(key("WH-1000XM5"), key("索尼 WH-1000XM5"))
    assert not same(key("Bose QC Ultra 耳塞"), key("Bose QuietComfort Ultra 头戴式"))
    assert not same(key("Sony XM4"), key("Sony XM5"))
    assert not same(key("Bose QC45"), key("Bose QuietComfort Ultra"))
