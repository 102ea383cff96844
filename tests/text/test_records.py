"""Records laid out without Markdown — pipe lines with no delimiter row, key: value blocks — read
as the table or list a reader sees in them; every other text left exactly as written."""

from __future__ import annotations

import pytest

from gate.text.items import extract
from gate.text.readable import item_view
from gate.text.records import as_markdown


def picks(answer: str) -> list[tuple[str, list[float]]]:
    return [(item.name, [p.value for p in item.prices]) for item in extract(item_view(answer)).items]


def test_pipe_lines_without_a_delimiter_row_are_a_table_under_their_header() -> None:
    answer = ("露营地 | 所在地 | 亮点\n安吉江南天池 | 浙江湖州 | 夏天凉快\n莫干山竹海营地 | 浙江德清 | 竹林安静\n"
              "白河湾 | 北京怀柔 | 适合带孩子\n")
    assert [name for name, _ in picks(answer)] == ["安吉江南天池", "莫干山竹海营地", "白河湾"]


def test_pipe_rows_missing_only_their_delimiter_row_are_a_table() -> None:
    answer = ("以下是 3 款：\n\n| 型号 | 价格 | 亮点 |\n| 一加 Ace 5 | 2299元 | 大电池 |\n| 荣耀 GT | 2199元 | 散热扎实 |\n"
              "| 华为 nova 13 | 2699元 | 鸿蒙流畅 |\n")
    assert picks(answer) == [("一加 Ace 5", [2299.0]), ("荣耀 GT", [2199.0]), ("华为 nova 13", [2699.0])]


def test_key_value_blocks_opening_with_the_same_key_are_a_list_of_named_entries() -> None:
    answer = ("型号: 联想小新 Pro 14\n价格: 约 5499 元\n定位: 轻薄办公\n\n"
              "型号: 华为 MateBook 14\n价格: 约 5999 元\n定位: 多屏协同\n\n"
              "型号：ThinkPad T14p\n价格：约 6999 元\n定位：商务\n")
    assert picks(answer) == [("联想小新 Pro 14", [5499.0]), ("华为 MateBook 14", [5999.0]), ("ThinkPad T14p", [6999.0])]


@pytest.mark.parametrize("text", [
    "| 型号 | 价格 |\n|:--|--:|\n| A | 1 元 |\n| B | 2 元 |\n| C | 3 元 |\n",  # a GFM table already
    "价格: 5499 元\n颜色: 黑色\n",  # one item's attributes, not records side by side
    "```\na | b | c\nd | e | f\ng | h | i\n```\n",  # code
    "A 或 B | 都行\n",  # one line
])
def test_anything_else_is_left_exactly_as_written(text: str) -> None:
    assert as_markdown(text) is text
