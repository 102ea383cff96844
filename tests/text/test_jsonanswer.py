"""The answer read as JSON, and the array it is about."""

from __future__ import annotations

import pytest

from gate.text.jsonanswer import main_array, parse_answer


@pytest.mark.parametrize(
    ("answer", "ok", "fenced"),
    [
        ('[{"a": 1}]', True, False),
        ('```json\n[{"a": 1}]\n```', True, True),
        ('```\n[1]\n```', True, True),
        ("\ufeff[1]", True, False),
        ('推荐：[{"a": 1}]', False, False),
        ('```json\n[1]\n```\n说明', False, False),
        ("NaN", False, False),
        ('{"x": Infinity}', False, False),
        ("9" * 5000, False, False),
        ("", False, False),
    ],
)
def test_parse(answer: str, ok: bool, fenced: bool) -> None:
    parsed = parse_answer(answer)
    assert (parsed.ok, parsed.fenced) == (ok, fenced), parsed.problem


@pytest.mark.parametrize(
    ("value", "path", "size"),
    [
        ([1, 2], "$", 2),
        ({"cities": [{"c": 1}, {"c": 2}], "tags": ["a", "b", "c"]}, "$.cities", 2),
        ({"a": [1], "b": [1, 2]}, "$.b", 2),
        ({"data": {"items": [{"x": 1}]}}, "$.data.items", 1),
        ({"a": [], "b": []}, "$.a", 0),
    ],
)
def test_main_array(value: object, path: str, size: int) -> None:
    found = main_array(value)
    assert found is not None
    assert (found[0], len(found[1])) == (path, size)


def test_no_array() -> None:
    assert main_array({"city": "杭州"}) is None
    assert main_array("text") is None


def test_an_error_inside_a_fence_is_placed_in_the_answer_not_in_the_fence_body() -> None:
    from gate.text.jsonanswer import parse_answer

    assert "at line 2 column 9:" in str(parse_answer('```json\n{"a": 1,}\n```\n').problem)
    two = '```json\n[{"a": 1}]\n```\n```json\n[{"b": 2}]\n```'
    assert "at line 3 column 1: Extra data" in str(parse_answer(two).problem)  # where the first fence closes
    assert "at line 1 column 11:" in str(parse_answer('  {"a": 1,}').problem)


def test_labelled_groups_of_entries_are_one_list() -> None:
    from gate.text.jsonanswer import main_array

    grouped = {"excluded": "已排除", "categories": [{"type": "over_ear", "items": [{"name": "Bose"}, {"name": "森海塞尔"}]},
                                                  {"type": "in_ear", "items": [{"name": "AirPods Pro 2"}]}]}
    assert main_array(grouped) == ("$.categories[*]", [{"name": "Bose"}, {"name": "森海塞尔"}, {"name": "AirPods Pro 2"}])
    restaurants = [{"name": "A 店", "dishes": [{"name": "x"}, {"name": "y"}]}, {"name": "B 店", "dishes": [{"name": "z"}]}]
    assert main_array(restaurants) == ("$", restaurants)
