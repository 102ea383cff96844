"""One percentage format for every report."""

from __future__ import annotations

import pytest

from gate.formats.percent import percent


@pytest.mark.parametrize(
    ("value", "kwargs", "shown"),
    [
        (0.875, {}, "87.5%"),
        (1, {}, "100.0%"),
        (0.0, {}, "0.0%"),
        (None, {}, "n/a"),
        (None, {"missing": "—"}, "—"),
        ("0.5", {}, "n/a"),  # a number only
        (True, {}, "n/a"),
        (0.875, {"places": 0}, "88%"),
    ],
)
def test_rates_print_one_way(value: object, kwargs: dict[str, object], shown: str) -> None:
    assert percent(value, **kwargs) == shown  # type: ignore[arg-type]
