"""How "a little over" is quoted, 次日, aliases that hid in other words, shortfall counts, section labels
(the price readings themselves are in cases/prices.yaml)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gate.text.prices import find_prices
from gate.text.terms import expand, find
from gate.verdict import Outcome, Status

Judge = Callable[..., Outcome]


def test_a_little_over_is_quoted_with_its_word() -> None:
    assert [p.text for p in find_prices("价格 2k 出头")] == ["2k 出头"]
    assert [p.text for p in find_prices("两千多块")] == ["两千多块"]


@pytest.mark.parametrize(
    ("text", "group", "matched"),
    [
        ("今年标准版也统一加入了相机控制键", "oppo", []),
        ("这是唯一加分的地方", "oppo", []),
        ("推荐一加 13", "oppo", ["一加"]),
        ("微热山丘凤梨酥礼盒", "taboo_gift", []),
        ("送一箱库尔勒香梨", "taboo_gift", ["梨"]),
        ("华为 WATCH FIT 3", "taboo_gift", ["WATCH"]),
        ("华为WATCH GT 5", "taboo_gift", ["WATCH"]),
        ("Apple Watch S10", "taboo_gift", ["Watch"]),
        ("watchOS 更新", "taboo_gift", []),
        ("小米手环 9", "taboo_gift", []),
    ],
)
def test_aliases_hidden_in_other_words(text: str, group: str, matched: list[str]) -> None:
    assert [hit.matched for hit in find(text, expand([], [group]))] == matched


@pytest.mark.parametrize(
    ("answer", "expect"),
    [
        ("全新笔记本不到 10 款，我只挑出了下面几款：", "pass"),
        ("能正常办公的寥寥几款，我实在推荐不出 10 款。", "pass"),
        ("目前就这 3 家，暂时凑不满 5 家", "pass"),
        ("真正值得买的也就下面 3 款，凑不到 10 款：", "pass"),
        ("符合条件的只有 3 个选择。", "pass"),
        ("不过接口只有 2 个 USB-A。", "fail"),
        ("包间只有 6 个，节假日要提前订。", "fail"),
        ("8GB 内存，只有 2 个 USB 接口。", "fail"),
        ("续航不到 10 小时，价格不到 1000 元。", "fail"),
    ],
)
def test_shortfall_counts_the_recommendations(answer: str, expect: str, judge: Judge) -> None:
    assert judge("text:acknowledges_limit", {}, answer).status is Status(expect)


SECTIONS = {"机票": ["航班"], "行程": ["日程", "每日", "Day"], "住宿": ["酒店"]}


@pytest.mark.parametrize(
    ("answer", "missing"),
    [
        ("## 机票\n- MU729\n\n## 🗓️ 每日安排\n- **Day 1**：抵达\n\n## 🏨 住宿\n京都站", []),
        ("**✈️ 航班**：MU729\n\n**日程**\n1. 抵达\n\n住宿：京都站", []),
        ("机票：MU729。\n行程：第一天抵达。\n关于酒店：京都站附近。", []),
        ("## 机票\n- MU729\n\n## 日程\n- **第 1 天**：抵达后办理酒店入住", ["住宿"]),
        ("机票推荐：\n- MU729\n\n住宿另说。具体行程等机票确定后再排。", ["行程"]),
        ("5 月京都行程安排如下（机票建议尽早预订）：\n\n## 日程\n- 抵达\n\n## 住宿\n京都站", ["机票"]),
        ("机票\n====\nMU729\n\n日程\n----\n抵达\n\n酒店\n===\n京都站", []),  # setext headings
    ],
)
def test_a_section_needs_a_label(answer: str, missing: list[str], judge: Judge) -> None:
    outcome = judge("text:sections", {"sections": SECTIONS}, answer)
    assert list(outcome.evidence if outcome.status is Status.FAIL else ()) == missing


def test_a_launch_price_gives_way_to_the_current_one() -> None:
    from gate.text.prices import find_prices

    assert [p.value for p in find_prices("首发价 2999 元，现在电商到手约 1899 元")] == [1899]
    assert [p.value for p in find_prices("发售价 2999 元，现价 1799 元")] == [1799]
    assert [p.value for p in find_prices("首发价 3999 元，现降价 500 元")] == [3999]  # the only price stated
