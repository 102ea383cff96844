"""Which list holds the items: notes lead-ins, stated counts, nested headings, a single pick."""

from __future__ import annotations

import pytest

from gate.text.cues import notes_lead, stated_count
from gate.text.items import extract


@pytest.mark.parametrize(
    ("line", "is_notes"),
    [
        ("买之前可以留意这几点：", True),
        ("不同需求可以这样挑：", True),
        ("出发前记得带上这些装备：", True),
        ("挑降噪耳机主要看这几点：", True),
        ("按场景选择", True),
        ("对比基线", True),
        ("注意以下几点：", True),
        ("下面这 3 款超出了 8000 元，已经帮您去掉：", True),
        ("为您推荐 3 款，下单前请注意核对型号：", False),
        ("以下 3 款符合要求，注意价格浮动：", False),
        ("帮你对比了 6 月 9 日到 11 日的航班，两人同行推荐：", False),
        ("我对比了几款，最值得买的是：", False),
        ("按要求筛选后，符合的只有这些：", False),
        ("根据你的需求，建议考虑这几款：", False),
    ],
)
def test_notes_lead_ins_are_labels_or_sentences(line: str, is_notes: bool) -> None:
    assert notes_lead(line) is is_notes


@pytest.mark.parametrize(
    ("line", "count"),
    [
        ("推荐这 3 款降噪耳机：", 3),
        ("推荐 3 家成都本地人也爱去的火锅店：", 3),
        ("为您精选以下五家：", 5),
        ("下面这 3 款超出了 8000 元，已经帮您去掉：", None),
        ("买之前可以留意这几点：", None),
    ],
)
def test_stated_counts(line: str, count: int | None) -> None:
    assert stated_count(line) == count


def _names(answer: str) -> list[str]:
    return [item.name for item in extract(answer).items]


def test_stated_count_beats_a_larger_later_list() -> None:
    answer = (
        "推荐 3 家：\n\n1. **蜀九香**：人均 120 元\n2. **大龙燚**：人均 100 元\n3. **小龙坎**：人均 110 元\n\n"
        "不管去哪家，这些菜都值得点：\n- **毛肚**：脆\n- **黄喉**：嫩\n- **鸭肠**：快涮\n- **脑花**：久煮\n"
    )
    assert _names(answer) == ["蜀九香", "大龙燚", "小龙坎"]


def test_a_stated_count_does_not_hide_extra_items() -> None:
    answer = "推荐这 3 款：\n\n1. **A 款**：1 元\n2. **B 款**：2 元\n3. **C 款**：3 元\n4. **D 款**：4 元\n"
    assert len(extract(answer)) == 4


def test_numbered_headings_beat_a_later_list_of_unnamed_clauses() -> None:
    answer = (
        "给你推荐几款：\n\n### 1. Bose QuietComfort Ultra\n- 约 2999 元\n\n### 2. AirPods Pro 2\n- 约 1899 元\n\n"
        "### 3. 漫步者 NeoBuds Pro 2\n- 约 699 元\n\n---\n\n- 经常坐飞机选 Bose\n- iPhone 用户选 AirPods\n"
        "- 学生党选漫步者\n- 运动健身优先入耳式\n"
    )
    found = extract(answer)
    assert (found.source, len(found)) == ("numbered", 3)


def test_sub_headings_under_regions_are_the_items() -> None:
    answer = (
        "## 华东\n\n### 安吉江南天池\n高山湖泊。\n\n### 莫干山\n竹林营地，约 2.5 小时。\n\n"
        "## 华北\n\n### 白河湾\n河谷营地。\n\n## 西南\n\n### 塔公草原\n雪山下。\n\n### 抚仙湖\n湖景。\n"
    )
    found = extract(answer)
    assert found.source == "headings"
    assert [item.name for item in found.items] == ["安吉江南天池", "莫干山", "白河湾", "塔公草原", "抚仙湖"]
    assert found.items[1].description == "竹林营地，约 2.5 小时。"


def test_recurring_sub_headings_are_attributes_of_each_item() -> None:
    answer = (
        "## 1. 鹿回头\n### 推荐菜\n椰子鸡\n### 人均\n200 元\n"
        "## 2. 天涯渔港\n### 推荐菜\n龙虾\n### 人均\n240 元\n"
    )
    assert _names(answer) == ["鹿回头", "天涯渔港"]


def test_days_with_sub_headings_stay_the_items() -> None:
    answer = "## 第一天\n### 上午：故宫\n### 下午：景山\n## 第二天\n### 上午：长城\n### 下午：鸟巢\n"
    assert _names(answer) == ["第一天", "第二天"]


def test_one_pick_with_attribute_bullets_is_one_item() -> None:
    answer = (
        "### 推荐：MacBook Air M3（13 英寸）\n\n- **价格**：7999 元起\n- **优点**：续航长\n- **缺点**：接口少\n"
        "- **适合**：学生\n"
    )
    found = extract(answer)
    assert (found.source, _names(answer)) == ("single", ["MacBook Air M3（13 英寸）"])
    assert [price.value for price in found.items[0].prices] == [7999]


def test_an_itinerary_of_bold_days_is_not_attributes() -> None:
    assert _names("**第一天**：故宫\n**第二天**：长城\n**第三天**：颐和园") == ["第一天", "第二天", "第三天"]


def test_a_prose_pick_is_its_bold_span_and_the_rest_of_its_paragraph() -> None:
    answer = (
        "筛选后只有**荣耀 MagicBook Pro 16**（约 5999 元）符合要求。它性价比突出。\n\n"
        "ThinkPad X1 Carbon（约 9999 元）超出了预算。"
    )
    found = extract(answer)
    assert found.source == "single"
    (item,) = found.items
    assert item.name == "荣耀 MagicBook Pro 16"
    assert "ThinkPad" not in item.text
    assert [price.value for price in item.prices] == [5999]


def test_a_bold_span_set_aside_is_no_pick() -> None:
    assert extract("我不推荐**苹果**的产品，因为价格太高。").source == "none"
