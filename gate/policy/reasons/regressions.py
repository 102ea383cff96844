"""Reasons of the comparison with the baseline: a (case, group) or a dimension below it, and what the
reader must know about the baseline itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gate.policy.reasons import Reason
from gate.policy.regressions import PairDecision
from gate.scoring.metrics import GroupMetrics


@dataclass(frozen=True)
class PairRegressed(Reason):
    """A (case, group) regressed: its counts now and in the baseline, the test (none in point mode)
    and whom the failure is attributed to, when known."""

    decision: PairDecision
    point: bool
    attribution: str | None = None


OpenPair = Literal["baseline-runs", "more-runs", "base-branch"]
"""What would decide an open pair: a baseline from more runs, more runs of this check, or watching the base."""


@dataclass(frozen=True)
class PairOpen(Reason):
    """A (case, group) the evidence cannot settle, and what would (``baseline_runs``: what `gate baseline
    update` records per case)."""

    decision: PairDecision
    needs: OpenPair
    baseline_runs: int


@dataclass(frozen=True)
class PairCleared(Reason):
    """A (case, group) that fails now, within the baseline's noise."""

    decision: PairDecision


@dataclass(frozen=True)
class DimensionBelow(Reason):
    """Point mode: a dimension's pass rate below the baseline's."""

    dimension: str
    group: str
    rate: float
    baseline: float


@dataclass(frozen=True)
class DimensionTest(Reason):
    """Confidence mode: a dimension's pass rate against the baseline's, with the stratified exact
    test's p-value and the corrected level it was held to: met (``decided``) or not."""

    dimension: str
    group: str
    measured: GroupMetrics
    confidence: float
    baseline: float
    p_value: float
    level: float
    decided: bool


BaselineState = Literal["none", "stale", "other-agent", "v1"]


@dataclass(frozen=True)
class BaselineNote(Reason):
    """What the reader must know of the baseline: there is none, it was recorded on another case set,
    with another agent or policy, or is a v1 file."""

    state: BaselineState
