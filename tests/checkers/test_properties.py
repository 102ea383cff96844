"""Properties every checker keeps on arbitrary input: it never raises, and it is deterministic."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate.checkers import REGISTRY
from gate.subject import Subject
from gate.text import units
from gate.text.items import extract
from gate.trajectory import Trajectory
from gate.verdict import Outcome, Status
from tests.checkers.example_files import PARAMS

Judge = Callable[..., Outcome]



# Fragments real answers are made of, so that random text also hits the structural paths.
_FRAGMENTS = [
    "1. ", "1、", "一、", "第一家：", "1️⃣ ", "- ", "  - ", "* ", "• ", "## ", "### 1. ", "> ", "**", "__",
    "| a | b |\n|---|---|\n| 1 | 2 |\n", "```json\n", "```\n", '[{"city": "杭州", "price": 1e309}]', "{", "]",
    "人均 200-300 元", "约 5.5k", "1.2 万", "¥5,499", "120W", "3000mAh", "2025-05-10", "3-5 天", "第1-2天",
    "Day 1", "……", "...", "。", "？", "v1.2", "e.g.", "ＳＯＮＹ", "WH-1000XM5", "progress", "\n", "\n\n",
    "\t", "\x00", "\x1b[31m", "\u200b", "9" * 400, "-" * 3, "鹿回头海鲜楼", "Sony",
]
_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=80)
ANSWERS = st.one_of(
    _TEXT,
    st.lists(st.one_of(st.sampled_from(_FRAGMENTS), _TEXT), max_size=25).map("".join),
    st.integers(1, 60).map(lambda depth: "".join("  " * i + "- 层\n" for i in range(depth))),
    st.integers(1, 200).map(lambda depth: "> " * depth + "深"),
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_TEXT, children, max_size=3),
    max_leaves=8,
)
TOOL_CALLS = st.lists(
    st.fixed_dictionaries(
        {"name": st.sampled_from(["search_restaurants", "send_sms", "classify", "list_feedback", "x"])},
        optional={
            "args": st.dictionaries(st.sampled_from(["city", "filters", "n"]), _JSON, max_size=3),
            "result": st.one_of(_TEXT, _JSON.map(str)),
            "is_error": st.booleans(),
        },
    ),
    max_size=5,
)
EXAMPLES = settings().max_examples  # the profile's (tests/conftest.py): 100 under CI, fewer while developing
_SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _nest(depth: int, leaf: Any, *, as_list: bool) -> Any:
    for level in range(depth):
        leaf = [leaf] if as_list else {f"k{level}": leaf}
    return leaf


# What a hostile or careless agent puts in tool calls: values nested to the 100 levels the JSON
# reader admits, long strings, integers of up to 100 digits, many calls, results that are JSON
# text or not. Tool checkers walk these; they must stay total and deterministic.
_HOSTILE_VALUE = st.one_of(
    _JSON,
    st.tuples(st.integers(1, 100), _JSON, st.booleans()).map(lambda t: _nest(t[0], t[1], as_list=t[2])),
    st.integers(1, 20_000).map(lambda n: "三亚" * n),
    st.integers(-(10**100) + 1, 10**100 - 1),
    st.lists(st.sampled_from(["三亚", "re:", "*", "send_sms", ""]), max_size=500),
)
HOSTILE_CALLS = st.lists(
    st.fixed_dictionaries(
        {"name": st.sampled_from(["search_restaurants", "send_sms", "classify", "list_feedback", "", "x" * 300])},
        optional={
            "args": st.dictionaries(st.sampled_from(["city", "filters", "n", "q"]), _HOSTILE_VALUE, max_size=4),
            "result": st.one_of(_HOSTILE_VALUE.map(lambda v: json.dumps(v, ensure_ascii=False)), _TEXT,
                                st.integers(1, 50_000).map(lambda n: "鹿回头海鲜楼 人均 280 元\n" * n)),
            "is_error": st.booleans(),
        },
    ),
    max_size=60,
)
TOOL_CHECKS = sorted(check for check in REGISTRY if check.startswith("tools:"))


def _subject(answer: str, calls: list[dict[str, Any]]) -> Subject:
    return Subject(Trajectory.model_validate(
        {"case_id": "P", "group": "B", "run": 0, "final_answer": answer, "tool_calls": calls}
    ))


def test_every_checker_has_representative_params() -> None:
    assert sorted(PARAMS) == sorted(REGISTRY)


@pytest.mark.parametrize("check", sorted(REGISTRY))
@_SETTINGS
@given(answer=ANSWERS, calls=TOOL_CALLS)
def test_checker_never_raises_and_is_deterministic(check: str, answer: str, calls: list[dict[str, Any]]) -> None:
    checker = REGISTRY[check]
    params = checker.params.model_validate(PARAMS[check])
    first = checker(_subject(answer, calls), params)
    again = checker(_subject(answer, calls), params)
    assert isinstance(first, Outcome)
    assert first.status in (Status.PASS, Status.FAIL, Status.ERROR)
    assert first.detail
    assert first == again


@pytest.mark.parametrize("check", TOOL_CHECKS)
@settings(max_examples=max(10, EXAMPLES * 2 // 5), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(answer=ANSWERS, calls=HOSTILE_CALLS)
def test_tool_checkers_take_hostile_arguments_and_results(check: str, answer: str, calls: list[dict[str, Any]]) -> None:
    checker = REGISTRY[check]
    params = checker.params.model_validate(PARAMS[check])
    first = checker(_subject(answer, calls), params)
    assert first.status in (Status.PASS, Status.FAIL, Status.ERROR)
    assert first == checker(_subject(answer, calls), params)


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=ANSWERS)
def test_length_in_zi_never_exceeds_chars(text: str) -> None:
    assert 0 <= units.count(text, "zi") <= units.count(text, "chars")
    assert units.count(text, "zi") <= units.count(text, "mixed")


@settings(max_examples=EXAMPLES, deadline=None)
@given(text=ANSWERS)
def test_items_are_counted_consistently(text: str) -> None:
    found = extract(text)
    assert len(found) >= 0
    assert (len(found) == 0) == (found.source == "none") or found.source == "json"
    counted = REGISTRY["items:count"](_subject(text, []), REGISTRY["items:count"].params(min=0))
    assert counted.status is Status.PASS if found.items else counted.status is Status.FAIL


_PATHOLOGICAL = {
    "deep-list": "".join("  " * i + "- 层\n" for i in range(300)),
    "deep-quote": "> " * 2000 + "深",
    "deep-json-array": "[" * 3000 + "]" * 3000,
    "deep-json-object": '{"a":' * 1500 + "1" + "}" * 1500,
    "huge-integer": "9" * 20000,
    "emphasis-storm": "*" * 5000 + "a" + "_" * 5000,
    "many-items": "1. **鹿回头海鲜楼**：人均 280 元\n" * 500,
}


# 20,000 digits cost text:acknowledges_limit seconds (its pattern scans a run of digits again from
# each digit): the slow tier
_SLOW_PATHOLOGICAL = {"huge-integer"}


@pytest.mark.parametrize("answer", [
    pytest.param(answer, id=name, marks=[pytest.mark.slow] if name in _SLOW_PATHOLOGICAL else [])
    for name, answer in _PATHOLOGICAL.items()
])
def test_pathological_answers_are_judged(answer: str) -> None:
    subject = _subject(answer, [])  # one subject for every checker, as a run is judged
    for check, checker in REGISTRY.items():
        outcome = checker(subject, checker.params.model_validate(PARAMS[check]))
        assert outcome.status in (Status.PASS, Status.FAIL, Status.ERROR), check
