"""Items of an answer: which structure is the main one, and what each item's name and text are."""

from __future__ import annotations

import pytest

from gate.text.cues import marker, strip_marker
from gate.text.items import extract


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("1. 鹿回头", ("arabic.", 1)),
        ("1.鹿回头", ("arabic.", 1)),
        ("2、海棠湾", ("arabic、", 2)),
        ("3）天涯", ("arabic)", 3)),
        ("（4）椰林", ("paren", 4)),
        ("十二、第一市场", ("cn", 12)),
        ("第三家：天涯渔港", ("ordinal", 3)),
        ("第3款 Redmi", ("ordinal", 3)),
        ("2️⃣ 海棠湾", ("arabic\u20e3", 2)),  # with or without the emoji selector: one style
        ("2\u20e3 海棠湾", ("arabic\u20e3", 2)),
        ("🔟 乌鲁瓦图", ("arabic\u20e3", 10)),  # the keycap ten is one character
        ("Option A：**京兆尹**", ("option", 1)),  # alternatives offered side by side
        ("方案二：住乌布", ("option", 2)),
        ("## 1. 鹿回头", ("arabic.", 1)),
        ("**1. 鹿回头**", ("arabic.", 1)),
        ("No.2 海棠湾", ("no", 2)),
        ("2025-05-10 出发", None),
        ("3.5 小时", None),
        ("第一天：抵达", None),
        ("1000 元", None),
    ],
)
def test_markers(line: str, found: tuple[str, int] | None) -> None:
    assert marker(line) == found


@pytest.mark.parametrize(
    ("line", "rest"),
    [("第一家：鹿回头海鲜楼", "鹿回头海鲜楼"), ("1️⃣ 鹿回头", "鹿回头"), ("• 鹿回头", "鹿回头"), ("鹿回头", "鹿回头")],
)
def test_strip_marker(line: str, rest: str) -> None:
    assert strip_marker(line) == rest


def _summary(answer: str) -> tuple[str, list[str]]:
    found = extract(answer)
    return found.source, [item.name for item in found.items]


def test_json_answer_elements_are_items() -> None:
    assert _summary('[{"name": "杭州"}, {"city": "厦门"}]') == ("json", ["杭州", "厦门"])


def test_numbered_headings_own_their_bullets_and_drop_the_closing_remark() -> None:
    found = extract("## 1. 鹿回头\n- 人均 280 元\n\n## 2. 海棠湾\n- 人均 320 元\n\n以上推荐，祝您愉快！\n")
    assert [(i.name, i.description) for i in found.items] == [("鹿回头", "人均 280 元"), ("海棠湾", "人均 320 元")]


def test_a_rule_ends_an_items_section() -> None:
    found = extract("### 1. A\n人均 280 元\n\n---\n\n### 2. B\n人均 320 元\n\n---\n\n祝您旅途愉快！")
    assert [i.description for i in found.items] == ["人均 280 元", "人均 320 元"]


def test_notes_list_loses_to_the_items_table() -> None:
    answer = "| 型号 | 价格 |\n|---|---|\n| A | 1 元 |\n| B | 2 元 |\n\n注意事项：\n- x\n- y\n- z\n"
    assert _summary(answer) == ("table", ["A", "B"])
    (notes,) = extract(answer).also_read
    assert (notes.source, notes.entries, notes.why) == ("list", 3, "notes: advice, a summary or exclusions")


def test_a_notes_list_alone_is_still_the_list() -> None:
    assert _summary("注意事项：\n- 防晒\n- 补水\n")[0] == "list"


def test_outline_sections_are_not_items() -> None:
    answer = "## 一、推荐餐厅\n1. A：人均 1 元\n2. B：人均 2 元\n3. C：人均 3 元\n\n## 二、注意事项\n- x\n- y\n"
    assert _summary(answer) == ("list", ["A", "B", "C"])


def test_free_form_sub_points_under_headings_belong_to_them() -> None:
    answer = "### 鹿回头\n- 龙虾很新鲜\n- 环境好\n- 服务热情\n\n### 海棠湾\n- 石斑鱼好\n- 海景好\n"
    assert _summary(answer) == ("headings", ["鹿回头", "海棠湾"])


def test_hand_lists_are_reported() -> None:
    assert extract("1、A\n2、B").hand_lists == ((1, "numbered"),)
    assert extract("说明：\n• A\n• B").hand_lists == ((2, "bullets"),)
    assert extract("## 1. A\n正文\n## 2. B\n正文").hand_lists == ()


def test_table_item_prices_come_from_the_price_column() -> None:
    found = extract("| 手机 | 价格 | 介绍 |\n|---|---|---|\n| A | 2999 | 120W 快充 |\n")
    assert [(p.value, i.description) for i in found.items for p in i.prices] == [(2999, "120W 快充")]


def test_nothing_structured() -> None:
    found = extract("三亚的海鲜很好吃，建议去第一市场。")
    assert (found.source, len(found)) == ("none", 0)


def test_a_table_inside_an_items_section_is_a_sub_point() -> None:
    answer = "## 1. A\n- 参数\n  | a | b |\n  |---|---|\n  | 1 | 2 |\n  | 3 | 4 |\n  | 5 | 6 |\n\n## 2. B\n- 人均 2 元\n"
    found = extract(answer)
    assert (found.source, len(found), found.also_read) == ("numbered", 2, ())
