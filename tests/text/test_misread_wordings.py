"""Wordings that were once misread: prices, full-width commas, sentence ends, day ranges, aliases."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gate.text.days import days_mentioned
from gate.text.prices import find_prices
from gate.text.sentences import split_sentences
from gate.text.terms import expand, find, fold
from gate.verdict import Status
from tests.conftest import run_checker

CASES = Path(__file__).resolve().parents[2] / "cases"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("售价 1万2 左右", [12000]),
        ("约 1万3 元", [13000]),
        ("1万2000元", [12000]),
        ("3千5元", [3500]),
        ("两千元", [2000]),
        ("两千五百元", [2500]),
        ("一万二左右", [12000]),
        ("预算 3千", [3000]),
        ("3千以内", [3000]),
        ("5k 左右", [5000]),
        ("1k 出头", [1001]),  # just above 1000
        ("到手 1299（原价 1499）", [1299]),
        ("国补后 2549", [2549]),
        ("活动价 899，现价 999，折后 799", [899, 999, 799]),
        ("售价 2499/2799 元", [2499, 2799]),
        ("2499/2799 元", [2499, 2799]),
        ("售价 999 美元（约 7199 元）", [7199]),
        ("$149", []),
        ("US$ 149", []),
        ("HK$ 1,299", []),
        ("USD 149", []),
        ("149 dollars", []),
        ("5000 日元", []),
        ("月销 1万2", []),
        ("十万火急", []),
        ("2.8K 屏幕", []),
        ("5kg", []),
        ("约 5 km", []),
        ("5/1 开售，售价 3999 元", [3999]),
    ],
)
def test_price_wordings(text: str, values: list[float]) -> None:
    assert [p.value for p in find_prices(text)] == values


@pytest.mark.parametrize(
    ("cell", "values"),
    [
        ("2999（国补后 2549）", [2999, 2549]),
        ("2499/2799", [2499, 2799]),
        ("$149", []),
        ("149 美元（约 1080 元）", [1080]),
        ("约 ¥5,499（12+256GB）", [5499]),
        ("5999 元（24 期免息）", [5999]),
        ("2024 款 5999", [5999]),
        ("暂无", []),
    ],
)
def test_every_amount_in_a_price_column_counts(cell: str, values: list[float]) -> None:
    assert [p.value for p in find_prices(cell, bare_number_is_price=True)] == values


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
