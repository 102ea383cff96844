"""Reasons of the seeds' lines: a rate or B − A against its line, the runs a checker or the agent left
unjudged, and a line the baseline's noise explains."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gate.policy.reasons import Reason
from gate.scoring.metrics import GroupMetrics


@dataclass(frozen=True)
class NoJudgedRun(Reason):
    """A dimension with no rule-judged run in group A: ungated, or gated by its consistency lines."""

    dimension: str
    by_consistency: bool


@dataclass(frozen=True)
class RateBelow(Reason):
    """Point mode: a group's observed pass rate below its line. ``dimension`` None: the skill-explicit
    cases; ``red_line``: the line the skill's own rules must meet."""

    dimension: str | None
    group: str
    rate: float | None
    line: float
    red_line: bool = False


@dataclass(frozen=True)
class RateEvidence(Reason):
    """Confidence mode: a group's pass rate against its line with its interval — below it beyond doubt
    (``decided``), or below it with an interval that reaches it. ``runs_per_case``: about how many runs
    per case would decide it (None: more cases or runs)."""

    dimension: str | None
    group: str
    measured: GroupMetrics
    confidence: float
    line: float
    decided: bool
    runs_per_case: int | None = None


@dataclass(frozen=True)
class DeltaBelow(Reason):
    """Point mode: a dimension's B − A below its line; ``red_line``: the skill must be fixed."""

    dimension: str
    delta: float
    line: float
    red_line: bool


@dataclass(frozen=True)
class DeltaEvidence(Reason):
    """Confidence mode: B − A with its interval over the cases judged in both groups, against a line:
    below it beyond doubt (``decided``), or below it with an interval that reaches it."""

    dimension: str
    delta: float
    interval: tuple[float, float]
    cases: int
    line: float
    red_line: bool
    decided: bool


@dataclass(frozen=True)
class AgentErrors(Reason):
    """Runs of a group that ended in an agent error (counted as not passed)."""

    group: str
    errors: int
    runs: int


@dataclass(frozen=True)
class UnjudgedRuns(Reason):
    """Runs of a group a checker error or the judging budget left not fully judged."""

    group: str
    unjudged: int
    runs: int


@dataclass(frozen=True)
class Settled(Reason):
    """An inconclusive line restated as a note: the baseline met it (``met``) or left it undecided too
    (``undecided``), and no group dropped from the baseline (each group's p-value)."""

    line: RateEvidence | DeltaEvidence
    standing: Literal["met", "undecided"]
    tests: tuple[tuple[str, float], ...]
