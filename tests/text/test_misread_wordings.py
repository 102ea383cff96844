"""Wordings that were once misread: full-width commas, per-person limits, sentence ends, day ranges,
aliases (the price wordings are in cases/prices.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gate.text.days import days_mentioned
from gate.text.sentences import split_sentences
from gate.text.terms import expand, find, fold
from gate.verdict import Status
from tests.conftest import run_checker

CASES = Path(__file__).resolve().parents[2] / "cases"


def test_full_width_comma_is_not_a_thousands_separator() -> None:
    assert fold("800，非常") == "800、非常"
    assert len(fold("人均约 800，非常适合")) == len("人均约 800，非常适合")
    assert [hit.matched for hit in find("人均约 800，非常适合", [r"re:人均约?\s*\d+(?![\d,])"])] == ["人均约 800"]


def _per_person_rule() -> tuple[str, dict[str, object]]:
    case = yaml.safe_load((CASES / "b3" / "B3-AC-13.yaml").read_text(encoding="utf-8"))
    rule = next(c for c in case["constraints"] if c["id"] == "per_person_max_300")
    return str(rule["check"]), dict(rule["params"])


@pytest.mark.parametrize(
    ("text", "over"),
    [
        ("推荐**新荣记（新源南路店）**：米其林三星，人均约 800，非常适合重要的商务宴请。", True),
        ("推荐**新荣记**，人均约 800, very good", True),
        ("推荐**厉家菜**，人均 1,200 元", True),
        ("推荐**新荣记**，人均四五百元", True),
        ("推荐**京兆尹**，人均约 280，非常适合", False),
        ("推荐**京兆尹**，人均约 280 元。如果是重要客户，建议把预算提高到人均 500 元左右。", False),
    ],
)
def test_b3_ac_13_per_person_rule(text: str, over: bool) -> None:
    check, params = _per_person_rule()
    assert (run_checker(check, params, text).status is Status.FAIL) is over


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("iPhone 16 的核心卖点是全新 A18. 相机控制键和 Apple Intelligence 让它更好用。", 2),
        ("iPhone 16 finally gets USB-C. It also adds Camera Control and Apple Intelligence.", 2),
        ("Version v1.2.3 is out. Update now.", 2),
        ("I moved to the U.S. It was 2019.", 1),
        ("Use e.g. 写作工具。", 1),
        ("J. K. Rowling wrote it.", 1),
        ("Dr. Smith tested it.", 1),
        ("到手价约 5.5k 元。", 1),
        ("续航多 1.2 倍。", 1),
        ("Mrs. Lee likes it.", 1),
    ],
)
def test_sentence_ends(text: str, count: int) -> None:
    assert len(split_sentences(text)) == count


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("第一天到第三天留在市区…第四天…第五天", {1, 2, 3, 4, 5}),
        ("D1-D3 市区; D4 周边; D5 返程", {1, 2, 3, 4, 5}),
        ("第一、二、三天", {1, 2, 3}),
        ("Days 1-3", {1, 2, 3}),
        ("Day 1 & 2", {1, 2}),
        ("Day One and Two", {1, 2}),
        ("第1天到第3天", {1, 2, 3}),
        ("第一、三天", {1, 3}),
        ("第3天到第1天", set()),
        ("D1-2025", {1}),
    ],
)
def test_day_ranges_and_lists(text: str, days: set[int]) -> None:
    assert days_mentioned(text) == days


@pytest.mark.parametrize(
    ("text", "matched"),
    [
        ("联想 Y9000P 2024", ["Y9000P"]),
        ("联想Y9000P", ["Y9000P"]),
        ("R9000P 性能强", ["R9000P"]),
        ("Y7000P", ["Y7000P"]),
        ("Y90000 元", []),
    ],
)
def test_bare_legion_models_are_gaming_laptops(text: str, matched: list[str]) -> None:
    assert [hit.matched for hit in find(text, expand([], ["gaming_laptop"]))] == matched


@pytest.mark.parametrize(
    ("text", "matched"),
    [("一加一大于二", []), ("一加二等于三", []), ("一加 13", ["一加"]), ("一加Ace 3", ["一加"])],
)
def test_oneplus_is_not_arithmetic(text: str, matched: list[str]) -> None:
    assert [hit.matched for hit in find(text, expand([], ["oppo"]))] == matched
