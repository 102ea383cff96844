"""Regressions found while writing the B3 FC/QC/PC/LC golden cases: realistic answers misjudged."""

from __future__ import annotations

from typing import Any

import pytest

from gate.checkers import REGISTRY
from gate.subject import Subject
from gate.text.sentences import split_sentences
from gate.trajectory import Trajectory
from gate.verdict import Status


def _status(check: str, params: dict[str, Any], answer: str) -> Status:
    checker = REGISTRY[check]
    subject = Subject(Trajectory(case_id="T", group="A", run=0, final_answer=answer))
    return checker(subject, checker.params.model_validate(params)).status


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("A18 芯片玩《王者荣耀》《原神》都能稳定高帧。", Status.PASS),
        ("拍照比荣耀 Magic7 Pro 更自然。", Status.FAIL),
    ],
    ids=["game-title-is-not-the-brand", "brand-still-found"],
)
def test_honor_alias_skips_the_game_title(answer: str, expected: Status) -> None:
    assert _status("terms:forbidden", {"groups": ["honor"]}, answer) is expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("1. 机械革命无界 14X：约 3999 元\n2. 联想小新 Pro 14：5499 元\n", Status.PASS),
        ("1. 机械革命蛟龙 16 Pro：约 6999 元\n2. 联想小新 Pro 14：5499 元\n", Status.FAIL),
    ],
    ids=["thin-and-light-line", "gaming-line"],
)
def test_gaming_alias_spares_the_thin_and_light_line(answer: str, expected: Status) -> None:
    params = {"groups": ["gaming_laptop"], "scope": "items"}
    assert _status("terms:forbidden", params, answer) is expected


_LAPTOPS = "1. **华为 MateBook 14**：{first}，5999 元\n2. **联想小新 Pro 14**：5499 元\n"


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        ("非游戏本，集显", Status.PASS),
        ("不是游戏本，但能玩网游", Status.PASS),
        ("轻薄游戏本，独显直连", Status.FAIL),
    ],
    ids=["non-gaming-label", "not-a-gaming-laptop", "a-gaming-laptop"],
)
def test_items_scope_allows_restating_the_filter_inside_an_item(first: str, expected: Status) -> None:
    answer = _LAPTOPS.format(first=first)
    assert _status("terms:forbidden", {"groups": ["gaming_laptop"], "scope": "items"}, answer) is expected


def test_answer_scope_still_counts_a_negated_mention() -> None:
    # B3-PC-01: "在文本中提到索尼" fails even when the answer says it left Sony out.
    answer = "已为您排除索尼，推荐：\n1. Bose QC Ultra\n2. AirPods Max\n"
    assert _status("terms:forbidden", {"groups": ["sony"], "scope": "answer"}, answer) is Status.FAIL


@pytest.mark.parametrize(
    ("answer", "count"),
    [
        ("iPhone 16 的核心卖点：\n- A18 芯片\n- 相机控制按钮\n- Apple 智能", 4),
        ("1. A18 芯片更快。\n2. 相机控制按钮更顺手。", 2),
        ("1、A18 芯片\n2、相机控制按钮", 2),
        ("**一句话总结：**\niPhone 16 用 6.1 英寸屏和 iOS 18.1 带来 Pro 级体验！", 1),
        ("续航长达 22 小时，屏幕 6.1 英寸。", 1),
    ],
    ids=["bullets", "numbered-with-stops", "numbered-cn", "label-line", "decimals"],
)
def test_list_items_are_separate_sentences(answer: str, count: int) -> None:
    assert len(split_sentences(answer)) == count
