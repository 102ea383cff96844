"""Items beside notes lists, across groups, in transposed tables and quotes; names and bodies."""

from __future__ import annotations

import pytest

from gate.text.cues import notes_label
from gate.text.items import extract
from gate.text.markdown import MarkdownDoc
from gate.text.names import called, split_name
from gate.text.runs import find_runs
from gate.text.sections import role


@pytest.mark.parametrize(
    ("line", "is_notes"),
    [
        ("选购建议：", True),
        ("怎么选？", True),
        ("总结：", True),
        ("购买渠道：", True),
        ("以下几款因超出预算已排除：", True),
        ("【注意事项】", True),
        ("💡 小贴士", True),
        ("注意事项如下：", True),
        ("二、温馨提示", True),
        ("按你的要求推荐 3 款，下单前请注意核对型号：", False),
        ("建议您选择以下 3 款：", False),
        ("为您推荐 3 款降噪耳机：", False),
        ("筛选后只剩 1 款符合条件：", False),
    ],
)
def test_notes_labels_are_labels_not_mentions(line: str, is_notes: bool) -> None:
    assert notes_label(line) is is_notes


@pytest.mark.parametrize(
    ("head", "parts"),
    [
        ("Bose QC Ultra 耳塞，降噪最强，约 2299 元", ("Bose QC Ultra 耳塞", "降噪最强，约 2299 元")),
        ("塔公草原位于四川甘孜州康定市，海拔三千七百米", ("塔公草原位于四川甘孜州康定市", "塔公草原位于四川甘孜州康定市，海拔三千七百米")),
        ("这家店是本地人最爱，人均 80 元", ("这家店是本地人最爱", "这家店是本地人最爱，人均 80 元")),
        ("鹿回头海鲜楼：人均 280 元", ("鹿回头海鲜楼", "人均 280 元")),
        ("云上草原", ("云上草原", "")),
    ],
)
def test_only_a_short_name_splits_at_a_comma(head: str, parts: tuple[str, str]) -> None:
    assert split_name(head) == parts


@pytest.mark.parametrize(
    ("name", "description", "expected"),
    [
        ("给爸爸", "天梭力洛克机械手表，约 980 元", "给爸爸 天梭力洛克机械手表"),
        ("送长辈", "同仁堂西洋参礼盒（大号）", "送长辈 同仁堂西洋参礼盒"),
        ("商务之选", "华为 MateBook X Pro", "商务之选 华为 MateBook X Pro"),
        ("张一元茉莉花茶礼盒", "约 398 元", "张一元茉莉花茶礼盒"),
    ],
)
def test_a_recipient_label_is_called_by_its_gift(name: str, description: str, expected: str) -> None:
    assert called(name, description) == expected


def test_flush_bullets_under_a_numbered_item_are_its_sub_points() -> None:
    doc = MarkdownDoc("1. **荣耀 MagicBook Pro 16**\n- 价格：约 5999 元\n- 性价比突出\n\n需要再补充吗？\n")
    [only] = doc.lists()
    assert len(only.items) == 1
    assert "约 5999 元" in only.items[0].text


def test_bullets_after_a_blank_line_stay_a_list_of_their_own() -> None:
    doc = MarkdownDoc("1. **荣耀 MagicBook Pro 16**\n\n- 京东自营\n- 天猫旗舰店\n")
    assert [len(block.items) for block in doc.lists()] == [1, 2]


def test_block_quotes_are_opened_for_lists_but_kept_as_blocks() -> None:
    doc = MarkdownDoc("> 推荐：\n> 1. Bose\n> 2. AirPods\n")
    assert [block.kind for block in doc.blocks] == ["quote"]
    assert [block.kind for block in doc.flow] == ["paragraph", "list"]
    assert [item.head for item in doc.lists()[0].items] == ["Bose", "AirPods"]


def test_a_transposed_table_has_its_columns_as_items() -> None:
    found = extract(
        "| 参数 | Bose QC Ultra | AirPods Pro 2 |\n|---|---|---|\n| 续航 | 24 小时 | 6 小时 |\n| 价格 | 2999 | 1899 |\n"
    )
    assert found.by_columns
    assert [item.name for item in found.items] == ["Bose QC Ultra", "AirPods Pro 2"]
    assert found.items[0].description == "续航：24 小时；价格：2999"
    assert [p.value for p in found.items[1].prices] == [1899]


def test_a_table_with_attribute_headers_keeps_its_rows() -> None:
    found = extract("| 项目 | 费用 | 备注 |\n|---|---|---|\n| 潜水 | 500 元 | 含装备 |\n| 冲浪 | 300 元 | 两小时 |\n")
    assert not found.by_columns
    assert [item.name for item in found.items] == ["潜水", "冲浪"]


def test_the_name_column_is_chosen_by_its_header() -> None:
    found = extract("| 对象 | 礼物 | 价格 |\n|---|---|---|\n| 爸爸 | 西洋参礼盒 | 680 元 |\n| 妈妈 | 花茶礼盒 | 398 元 |\n")
    assert [item.name for item in found.items] == ["西洋参礼盒", "花茶礼盒"]


REGIONS = """### 1. 乌布区域
- **圣猴森林**：猴子很多
- **乌布皇宫**：传统舞蹈

### 2. 南部海滩
- **库塔海滩**：冲浪入门
- **金巴兰海滩**：看日落
"""
PRODUCTS = """### 1. Bose QC Ultra
- **优点**：降噪顶级
- **缺点**：价格偏高

### 2. AirPods Pro 2
- **亮点**：苹果生态
- **不足**：续航一般
"""


@pytest.mark.parametrize(("answer", "expected"), [(REGIONS, "categories"), (PRODUCTS, "items")])
def test_numbered_headings_group_named_entries_but_not_attributes(answer: str, expected: str) -> None:
    doc = MarkdownDoc(answer)
    runs = find_runs(doc)
    assert [role(run, doc.lists(), runs) for run in runs] == [expected]


def test_notes_sections_are_left_out_of_merged_groups() -> None:
    answer = (
        "## 一、推荐餐厅\n- **鹿回头海鲜楼**：人均 280 元\n- **天涯渔港**：人均 240 元\n\n"
        "## 二、补充推荐\n- **林姐香味海鲜**：人均 120 元\n- **第一市场**：人均 150 元\n\n"
        "## 三、注意事项\n- **防晒**：紫外线强\n- **现金**：小店不刷卡\n"
    )
    assert [item.name for item in extract(answer).items] == ["鹿回头海鲜楼", "天涯渔港", "林姐香味海鲜", "第一市场"]


def test_last_line_entry_keeps_its_paragraph_but_not_a_closing_remark() -> None:
    kept = extract("1、塔公草原：雪山草原\n2、抚仙湖：高原湖泊，\n湖边有油菜花田\n").items[-1]
    assert kept.description == "高原湖泊，\n湖边有油菜花田"
    closed = extract("1、塔公草原：雪山草原\n2、抚仙湖：高原湖泊\n以上两处都适合夏天去\n").items[-1]
    assert closed.description == "高原湖泊"


def test_prose_after_a_blank_line_joins_the_last_line_entry_no_more_than_its_siblings() -> None:
    answer = "1、塔公草原：雪山草原\n2、抚仙湖：高原湖泊\n\n整体来说夏天更适合出行。\n"
    assert extract(answer).items[-1].description == "高原湖泊"


def test_bare_names_after_one_named_pick_are_still_the_larger_list() -> None:
    answer = (
        "首推：\n\n- **Bose QC Ultra**：降噪顶级\n\n另外几款也不错：\n\n"
        "- 索尼 WH-1000XM5\n- 森海塞尔 Momentum 4\n- AirPods Max\n"
    )
    assert len(extract(answer)) == 3


def test_a_first_person_lead_is_not_a_notes_label() -> None:
    assert not notes_label("我建议：")


def test_official_numbering_s_sub_points_are_the_picks_under_its_section_headings() -> None:
    from gate.text.items import extract

    answer = ("一、推荐型号\n\n（一）Bose QuietComfort Ultra（头戴式）。降噪领先，参考价 2999 元。\n\n"
              "（二）森海塞尔 Momentum 4（头戴式）。续航约 60 小时，参考价 2499 元。\n\n"
              "（三）漫步者 NeoBuds Pro 2（入耳式）。参考价 699 元。\n\n二、选购说明\n\n"
              "1.1 经常乘坐飞机的，优先考虑头戴式。\n1.2 通勤为主的，优先考虑入耳式。\n\n附：以上价格仅供参考。\n")
    found = extract(answer)
    assert [item.name for item in found.items] == ["Bose QuietComfort Ultra", "森海塞尔 Momentum 4", "漫步者 NeoBuds Pro 2"]
    assert [price.value for item in found.items for price in item.prices] == [2999.0, 2499.0, 699.0]


@pytest.mark.parametrize(("answer", "names"), [
    pytest.param("甲、四季民福：烤鸭，人均约 250 元\n乙、淮扬府：淮扬菜\n丙、聚宝源：涮羊肉\n", ["四季民福", "淮扬府", "聚宝源"], id="heavenly stems"),
    pytest.param("南部：\nI. 海神庙 — 日落\nII. 情人崖 — 火舞\n中部：\nIII. 德格拉朗梯田\nIV. 乌布皇宫\n",
                 ["海神庙", "情人崖", "德格拉朗梯田", "乌布皇宫"], id="roman numerals under group labels"),
    pytest.param("给你推荐 3 款笔记本：\na) 联想小新 Pro 14：约 5499 元\nb) 华为 MateBook 14：约 5999 元\nc) ThinkPad T14p：约 7499 元\n",
                 ["联想小新 Pro 14", "华为 MateBook 14", "ThinkPad T14p"], id="letters"),
])
def test_stems_roman_numerals_and_letters_number_entries(answer: str, names: list[str]) -> None:
    from gate.text.items import extract

    assert [item.name for item in extract(answer).items] == names


@pytest.mark.parametrize("line", ["A.I. is changing search", "e.g. a tent", "I think so", "V8 engine"])
def test_a_letter_or_numeral_without_its_mark_and_space_numbers_nothing(line: str) -> None:
    from gate.text.cues import marker

    assert marker(line) is None
