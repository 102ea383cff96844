"""Wordings that were once misread: full-width commas, per-person limits, sentence ends, day ranges,
aliases (the price wordings are in cases/prices.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

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
