"""Reasons of the X seed's consistency lines."""

from __future__ import annotations

from dataclasses import dataclass

from gate.policy.reasons import Reason


@dataclass(frozen=True)
class ConsistencyBelow(Reason):
    """A (case, group)'s consistency below the case's fail (``failed``) or pass line."""

    case_id: str
    group: str
    consistency: float | None
    failed: bool


@dataclass(frozen=True)
class GainBelow(Reason):
    """A case's skill stability gain B − A below its fail (``failed``) or pass line."""

    case_id: str
    gain: float | None
    failed: bool


@dataclass(frozen=True)
class CurveBroken(Reason):
    """A degradation curve broken: where it breaks, or (none) B's gain on the hardest task."""

    case_id: str
    breaks: tuple[str, ...]
    hardest_gain: float | None
