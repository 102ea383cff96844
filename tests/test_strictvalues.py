"""Booleans and non-finite numbers are refused wherever a number could hide, and containers that
only nested models fill are left to those models (no walk, the same verdict)."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from pydantic import Field, ValidationError

from gate.files.strictvalues import StrictValues, _walked


class Inner(StrictValues):
    count: int


class Outer(StrictValues):
    inners: tuple[Inner, ...] = ()
    names: tuple[str, ...] = ()
    context: dict[str, Any] = Field(default_factory=dict)
    series: dict[str, list[float]] = Field(default_factory=dict)
    mode: Literal["a", "b"] | None = None


@pytest.mark.parametrize(("annotation", "walked"), [
    (tuple[Inner, ...], False), (tuple[str, ...], False), (list[Literal["x"]] | None, False),
    (dict[str, Any], True), (dict[str, list[float]], True), (tuple[int, str], True), (list, True),
])
def test_only_containers_that_can_hold_a_number_are_walked(annotation: Any, walked: bool) -> None:
    assert _walked(annotation) is walked


@pytest.mark.parametrize(("data", "message"), [
    ({"inners": [{"count": 2}, {"count": True}]}, "a boolean (true) where a number is expected"),
    ({"context": {"deep": [{"x": float("nan")}]}}, "not a finite number (nan) at deep[0].x"),
    ({"series": {"t": [1.0, float("inf")]}}, "not a finite number (inf) at t[1]"),
])
def test_a_loose_number_is_refused_however_deep(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        Outer.model_validate(data)


def test_values_without_loose_numbers_pass_unchanged() -> None:
    outer = Outer.model_validate({"inners": [{"count": 3}], "names": ["a"], "context": {"ok": [1, "x", None, True]},
                                  "series": {"t": [1.5]}, "mode": "a"})
    assert outer.inners[0].count == 3 and outer.context == {"ok": [1, "x", None, True]}
