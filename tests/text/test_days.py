"""Day markers of an itinerary."""

from __future__ import annotations

import pytest

from gate.text.days import days_mentioned


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("第一天抵达，第二天游览，第三天……第五天返程", {1, 2, 3, 5}),
        ("第 2 天", {2}),
        ("第十天", {10}),
        ("第二日", {2}),
        ("第1-2天：市区；第3~5天：周边", {1, 2, 3, 4, 5}),
        ("第3至第5天", {3, 4, 5}),
        ("第一至三天", {1, 2, 3}),
        ("第一、三天", {1, 3}),
        ("Day 1: arrive. Day 2-3: hike. Day5 leave", {1, 2, 3, 5}),
        ("Day1-Day3", {1, 2, 3}),
        ("DAY 3 and day one, Day Two", {1, 2, 3}),
        ("D1 成都 D2 都江堰", {1, 2}),
        ("首日抵达", {1}),
        ("2025-05-10 出发，建议 3-5 天", set()),
        ("5天4晚", set()),
        ("Daytime today 3", set()),
        ("ID1 and AD2", set()),
    ],
)
def test_days(text: str, days: set[int]) -> None:
    assert days_mentioned(text) == days


def test_implausible_range_is_ignored() -> None:
    assert days_mentioned("第1-99天") == set()
