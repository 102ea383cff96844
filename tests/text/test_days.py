"""Day markers of an itinerary."""

from __future__ import annotations

from typing import Any

import pytest

from gate.text.days import days_mentioned
from tests.text.cases import corpus


@pytest.mark.parametrize("case", corpus("days"))
def test_days_read_as_the_corpus_says(case: dict[str, Any]) -> None:
    assert days_mentioned(case["text"]) == set(case["days"]), case.get("why", "")


def test_implausible_range_is_ignored() -> None:
    assert days_mentioned("第1-99天") == set()
