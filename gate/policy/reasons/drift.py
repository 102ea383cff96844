"""Reasons of the more rounds: a drifting dimension's fresh test, and what the budget bought and each
dimension could detect."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gate.policy.drift import DimensionDrift
from gate.policy.reasons import Reason


@dataclass(frozen=True)
class Drifted(Reason):
    """A dimension whose fresh rounds fell below its baseline (the test met its level)."""

    decision: DimensionDrift


@dataclass(frozen=True)
class DriftCleared(Reason):
    """A dimension given more rounds and found not below its baseline."""

    decision: DimensionDrift


@dataclass(frozen=True)
class Spending:
    """The calls the budget (``budget`` × the first round's calls) allowed and what they went to:
    confirm reruns, a pilot run of the doubtful dimensions, more rounds of the chosen dimensions
    (dimension, rounds each)."""

    budget_calls: int
    budget: float
    first_calls: int
    confirm_calls: int
    pilot_calls: int
    round_calls: int
    rounds: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class DetectableDrops(Reason):
    """What the budget bought (None: no more rounds could be made) and the drop each dimension's
    decisions (results.json's ``decision.dimensions``) could have detected at ``power``."""

    spending: Spending | None
    power: float
    decisions: tuple[Mapping[str, object], ...]
