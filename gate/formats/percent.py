"""Rates as the reports print them: one formatter, so a rate reads the same in every report."""

from __future__ import annotations


def percent(value: object, *, places: int = 1, missing: str = "n/a") -> str:
    """``value`` (a share of 1) as a percentage with ``places`` decimals ("87.5%"); ``missing`` when
    it is no number (absent, or not measured)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return missing
    return f"{value * 100:.{places}f}%"
