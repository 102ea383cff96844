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


def test_a_later_paragraph_recommending_a_compared_model_makes_it_a_pick() -> None:
    compared = _PICKS + ("## 横向对比\n\n| 型号 | 降噪 |\n|---|---|\n| Bose QC Ultra | 强 |\n| 华为 FreeBuds Pro 4 | 强 |\n\n")
    assert len(extract(compared)) == 3
    recommended = compared + "安卓用户也可以看看表里的华为 FreeBuds Pro 4，性价比很高。\n"
    assert [item.name for item in extract(recommended).items][-1] == "华为 FreeBuds Pro 4"
    set_aside = compared + "华为 FreeBuds Pro 4 也值得一看，但超预算了。\n"
    assert len(extract(set_aside)) == 3


def test_a_bold_name_recommended_strongly_or_in_a_summary_is_a_pick() -> None:
    strong = _PICKS + "不过说实话，如果预算能提高一些，**索尼 WH-1000XM5** 是更合适的选择。\n"
    assert len(extract(strong)) == 4
    summary = _PICKS + "**一句话推荐**：苹果用户选 AirPods；想再省一点，**漫步者 NeoBuds Pro 2**（¥699）也完全够用。\n"
    assert [item.name for item in extract(summary).items][-1] == "漫步者 NeoBuds Pro 2"
    declined = _PICKS + "**总结**：**索尼 WH-1000XM5** 也很好，但超预算了。\n"
    assert len(extract(declined)) == 3


def test_adding_labels_with_a_remark_or_a_verb_of_their_own() -> None:
    backup = _PICKS + "**备选（稍超预算，但体验好很多）：**\n- **联想 IdeaPad 14s**：约 2699 元\n"
    assert [item.name for item in extract(backup).items][-1] == "联想 IdeaPad 14s"
    richer = _PICKS + "**预算充足可以上：**\n- **MacBook Air 15**：约 10499 元\n"
    assert [item.name for item in extract(richer).items][-1] == "MacBook Air 15"
    nearby = _PICKS + "📍 **附近还可以顺路去**：**花家怡园（簋街店）**——人均 150 元\n"
    assert [item.name for item in extract(nearby).items][-1] == "花家怡园（簋街店）"
    labelled = _PICKS + "**也可以考虑**\n- **ROG 魔霸新锐**：约 9499 元\n"
    assert [item.name for item in extract(labelled).items][3:] == ["ROG 魔霸新锐"]


def test_a_sentence_an_emoji_decorates_is_no_bullet() -> None:
    answer = ("✈️ 已为你查询 6 月 10 日北京→东京，并对比了 9 日和 11 日的价格。\n\n**直飞方案**\n1. **国航 CA925**：¥3,260/人\n"
              "2. **全日空 NH964**：¥3,580/人\n\n**转机方案**\n1. **东航 MU5138**：¥2,180/人\n\n"
              "📊 ±1 天对比：9 号直飞最低 ¥3,090/人。\n")
    assert _names(answer) == ["国航 CA925", "全日空 NH964", "东航 MU5138"]


def test_a_heading_setting_options_aside_holds_no_group_of_picks() -> None:
    answer = ("### 推荐这 3 款\n\n1. **Bose QC Ultra**：降噪强\n2. **Sony WH-1000XM5**：均衡\n3. **AirPods Pro 2**：通勤\n\n"
              "### 不推荐的几款（避坑）\n\n- **Sony WH-1000XM4**：已停产\n- **某宝杂牌降噪耳机**：噱头\n")
    found = extract(answer)
    assert len(found) == 3 and [entity.name for entity in found.set_aside()] == ["Sony WH-1000XM4", "某宝杂牌降噪耳机"]


def test_a_count_of_criteria_is_no_stated_count_of_items() -> None:
    answer = ("挑降噪耳机，我建议先看这三个标准：\n\n1. **降噪深度**：40dB 以上\n2. **续航**：6 小时以上\n3. **佩戴**：不胀痛\n\n"
              "按 2000 元预算，推荐这 3 款：\n\n- **AirPods Pro 2**（¥1799）：生态好\n- **华为 FreeBuds Pro 4**（¥1499）：通话清楚\n"
              "- **森海塞尔 MTW4**（¥1999）：音质细腻\n")
    assert _names(answer)[0].startswith("AirPods Pro 2")


def test_headings_that_label_tables_of_picks_leave_the_rows_the_items() -> None:
    answer = ("### 📱 主推 3 款（3000 元以内，已排除小米）\n\n| 机型 | 价格 |\n|---|---|\n| 一加 Ace 5 | ¥2299 |\n"
              "| iQOO Neo10 | ¥2399 |\n| 荣耀 GT | ¥2199 |\n\n### 💰 预算再低一点的平替\n\n| 机型 | 价格 |\n|---|---|\n"
              "| 荣耀 X60 | ¥1199 |\n| 真我 13 | ¥1299 |\n")
    assert _names(answer) == ["一加 Ace 5", "iQOO Neo10", "荣耀 GT", "荣耀 X60", "真我 13"]
    specs = ("### 1. Bose QC Ultra\n\n| 参数 | 值 |\n|---|---|\n| 价格 | 2999 元 |\n| 续航 | 24 小时 |\n\n"
             "### 2. AirPods Pro 2\n\n| 参数 | 值 |\n|---|---|\n| 价格 | 1899 元 |\n| 续航 | 6 小时 |\n")
    assert _names(specs) == ["Bose QC Ultra", "AirPods Pro 2"]


def test_a_lead_that_recommends_and_restates_an_exclusion_still_recommends() -> None:
    from gate.text.cues import excluded_lead

    assert not excluded_lead("### 📱 主推 5 款（3000 元以内，已排除小米）")
    assert not excluded_lead("为您推荐 3 款，已排除超预算的：")
    assert excluded_lead("以下 3 款不推荐：") and excluded_lead("下面这 3 款超出了预算，已经帮您去掉：")


def test_one_pick_described_by_clauses_after_a_criteria_list_is_one_item() -> None:
    answer = ("为了推荐得更准，我先按常见需求列了一个清单：\n\n1. 主要用途：办公\n2. 预算：8000 元左右\n3. 重量：1.3kg 以内\n\n"
              "满足这些条件、综合表现最好的是：\n\n**联想 ThinkPad X1 Carbon Gen 12**\n- 1.09kg，碳纤维机身\n- 续航约 12 小时\n\n"
              "**一句话推荐**：就选 ThinkPad X1 Carbon，闭眼入不踩坑。\n")
    assert _names(answer) == ["联想 ThinkPad X1 Carbon Gen 12"]


def test_titles_recommended_in_prose_are_items() -> None:
    assert _names("推荐《计算机程序设计艺术》（TAOCP）全套，内容最深。") == ["《计算机程序设计艺术》"]
    assert _names("推荐《代码大全》和《重构》，前者讲构建，后者讲改进。") == ["《代码大全》", "《重构》"]
    assert _names("别看《21 天精通 C++》，推荐**《程序员修炼之道》**。") == ["《程序员修炼之道》"]


def test_region_lines_in_bold_list_their_places() -> None:
    answer = ("**🌊 南部海滩**：海神庙、金巴兰海滩、努沙杜瓦\n**🌾 乌布周边**：德格拉朗梯田、圣泉寺\n"
              "**⛰️ 北部与离岛**：京打马尼火山、佩尼达岛\n")
    assert len(extract(answer)) == 7


def test_a_json_fence_with_a_comment_line_still_lists_its_array() -> None:
    answer = '```json\n// 已按要求排除索尼品牌\n[{"model": "QC Ultra"}, {"model": "Momentum 4"}, {"model": "AirPods Max"}]\n```\n'
    assert len(extract(answer)) == 3


def test_one_pick_named_at_the_end_of_its_lead_is_one_item() -> None:
    single = "如果只让我推荐一款，我会选 **联想 ThinkPad X1 Carbon 2024**：\n\n- 约 9999 元，1.09kg\n- 续航约 15 小时\n"
    assert _names(single) == ["联想 ThinkPad X1 Carbon 2024"]
    several = "推荐下面几款 **高性价比** 笔记本：\n\n- 联想小新 Pro 14，约 5499 元\n- 华为 MateBook 14，约 5999 元\n"
    assert len(extract(several)) == 2


def test_picks_enumerated_inline_after_a_stated_count_are_items() -> None:
    answer = ("如果没有特别的预算限制，我会推荐这 4 款：联想小新 Pro 14（约 5499 元）、华为 MateBook 14（¥5,999）、"
              "MacBook Air M3（7999 元起）、ThinkPad T14p（7k 左右）。\n\n小新胜在性价比。")
    found = extract(answer)
    assert [item.name for item in found.items] == ["联想小新 Pro 14", "华为 MateBook 14", "MacBook Air M3", "ThinkPad T14p"]
    assert [price.value for item in found.items for price in item.prices] == [5499, 5999, 7999, 7000]
    assert len(extract("买之前注意这 3 点：预算、重量、续航。")) == 0  # criteria, not picks


def test_a_place_or_way_to_buy_suggested_after_the_picks_is_no_pick() -> None:
    picks = "| 型号 | 价格 |\n|---|---|\n| 酷比魔方 GTBook 14 | ¥899 |\n| 联想 IdeaPad 1 14 | 约 999 元 |\n\n"
    for advice in ("如果预算能放宽到 2000 元左右，选择会多很多；也可以考虑官方翻新或二手机。要我按 2000 元预算再推荐几款吗？",
                   "另外也可以看看京东自营的教育优惠渠道。"):
        assert _names(picks + advice) == ["酷比魔方 GTBook 14", "联想 IdeaPad 1 14"], advice
    # a model named with the channel is a pick
    assert _names(picks + "另外，二手 ThinkPad T480 也值得考虑，约 900 元。")[-1] == "二手 ThinkPad T480"


_TIERS = ("按预算给你分三档推荐：\n\n**💰 5000 元以内**\n1. 荣耀 MagicBook 14 —— 约 4,499 元\n"
          "2. 联想 IdeaPad Slim 5 —— 约 3,999 元\n3. 华硕无畏 Pro 15 —— 约 4,999 元\n\n"
          "**💰💰 5000-8000 元**\n4. 联想小新 Pro 14 —— 约 5,499 元\n5. 华为 MateBook 14 —— 约 5,999 元\n"
          "6. MacBook Air M2 —— 约 6,999 元\n\n**💰💰💰 8000 元以上**\n7. MacBook Air M3 15 英寸 —— 约 10,499 元\n"
          "8. ThinkPad X1 Carbon —— 约 9,999 元\n\n告诉我你的主要用途，我可以帮你从里面挑 1-2 款。\n")
_EIGHT = ["荣耀 MagicBook 14", "联想 IdeaPad Slim 5", "华硕无畏 Pro 15", "联想小新 Pro 14", "华为 MateBook 14",
          "MacBook Air M2", "MacBook Air M3 15 英寸", "ThinkPad X1 Carbon"]


def test_numbering_that_goes_on_under_a_group_label_in_its_paragraph_continues_the_list() -> None:
    # "4." cannot start a list inside the label's paragraph in CommonMark: the lines are its text
    assert _names(_TIERS) == _EIGHT
    assert _names(_TIERS.replace("💰", "").replace("** ", "**")) == _EIGHT  # bold labels alone
    found = extract(_TIERS)
    assert [item.prices[0].value for item in found.items][3:5] == [5499, 5999]
    assert found.items[2].text == "华硕无畏 Pro 15 —— 约 4,999 元"  # the next group's label is no part of it


def test_bold_labels_an_emoji_leads_group_the_numbered_entries_under_them() -> None:
    assert _names(_TIERS.replace("**\n", "**\n\n")) == _EIGHT


def test_bold_entries_whose_numbered_points_are_clauses_are_the_items() -> None:
    answer = "给你推荐两款：\n\n**Bose QC Ultra**\n1. 降噪最强\n2. 续航 24 小时\n\n**AirPods Pro 2**\n1. 适合苹果用户\n2. 通透模式自然\n"
    assert _names(answer) == ["Bose QC Ultra", "AirPods Pro 2"]
    assert _names(answer.replace("**B", "🎧 **B").replace("**A", "🎧 **A")) == ["Bose QC Ultra", "AirPods Pro 2"]


def test_keycap_numbering_runs_to_ten() -> None:
    places = ["海神庙", "情人崖", "德格拉朗梯田", "圣猴森林公园", "乌布皇宫", "圣泉寺", "蓝梦岛", "金巴兰海滩", "库塔海滩", "乌鲁瓦图"]
    keycaps = [f"{n}\ufe0f\u20e3" for n in range(1, 10)] + ["🔟"]
    assert _names("巴厘岛 10 个景点：\n\n" + "\n".join(f"{k} **{p}**：值得一去" for k, p in zip(keycaps, places, strict=True))) == places


def test_a_closing_sentence_that_finds_two_more_places_also_suitable_adds_both() -> None:
    listed = "给你挑了 3 个适合露营的地方：\n\n1. **安吉江南天池**：凉快\n2. **莫干山**：竹林营地\n3. **千岛湖**：湖边营地\n\n"
    assert _names(listed + "另外，如果你在北方，雾灵山和白河湾也很适合周末去露营。")[3:] == ["雾灵山", "白河湾"]
    assert _names(listed + "另外，和府捞面也很适合露营后去吃。")[3:] == ["和府捞面"]  # one name with 和 in it
    assert _names(listed + "以上这些地方也很适合带孩子去。")[3:] == []  # speaks of the listed ones


def test_one_list_to_a_reader_is_one_list_whatever_its_markers() -> None:
    # CommonMark starts a new list at "2)" and at each new bullet, and reads "3、" as text
    assert _names("推荐这 3 款：\n\n1. **张一元**：约 398 元\n2) **同仁堂**：约 680 元\n3、**欧姆龙 U726J**：约 459 元\n") == [
        "张一元", "同仁堂", "欧姆龙 U726J"]
    assert _names("- **X1 Carbon**：约 9999 元\n* **MateBook 14**：约 5999 元\n+ **MagicBook 14**：约 4999 元\n") == [
        "X1 Carbon", "MateBook 14", "MagicBook 14"]
    drift = "Top 10：\n\n" + "".join(f"{n}{'.' if n < 5 else ')' if n < 7 else '、'} 景点{n}\n" for n in range(1, 11))
    assert len(_names(drift)) == 10
    assert extract("1. **A**：x\n2) **B**：y\n3、**C**：z\n").items[0].text == "A：x"  # "2)" is not A's text


def test_a_row_that_sums_the_others_up_is_no_item() -> None:
    table = "| 型号 | 价格 |\n|---|---|\n| 一加 Ace 5 | 2299 元 |\n| POCO F6 | 2199 元 |\n| **均价** | **约 2249 元** |\n"
    assert _names(table) == ["一加 Ace 5", "POCO F6"]
    assert _names(table.replace("均价", "合计")) == ["一加 Ace 5", "POCO F6"]


def test_alternatives_offered_side_by_side_are_two_picks() -> None:
    answer = "Option A：**京兆尹（雍和宫店）**，人均约 280 元。\n\nOption B：**四季民福烤鸭店（故宫店）**，人均约 230 元。\n"
    assert _names(answer) == ["京兆尹（雍和宫店）", "四季民福烤鸭店（故宫店）"]
