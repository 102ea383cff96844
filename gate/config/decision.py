"""gate.yaml's ``decision``: how pass rates become verdicts, and what a check may spend to decide them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gate.files.strictvalues import StrictConfig as _Strict

CaseGroup = Annotated[list[Annotated[str, Field(min_length=1)]], Field(min_length=1, max_length=1000)]


class DecisionConfig(_Strict):
    """How pass rates become decisions: with their statistical evidence, or as literal point rates."""

    mode: Literal["confidence", "point"] = "confidence"
    """``confidence``: fail only when the evidence puts a rate below its line (or a case below its
    baseline) at ``alpha``; ``point``: compare the observed rates literally, one run decides."""
    alpha: float = Field(0.05, gt=0, lt=0.5, allow_inf_nan=False)
    """Error rate of each decision family (two-sided intervals at 1 − alpha; Tarone–Bonferroni tests)."""
    confirm_runs: int = Field(4, ge=0, le=50)
    """Extra runs, at most, of a (case, group) that newly fails before it is called regressed or cleared."""
    fail_on_inconclusive: bool = False
    """An inconclusive decision fails the gate (release gating), instead of warning."""
    baseline_runs: int = Field(5, ge=1, le=100)
    """Runs per case that `gate baseline update --runs` records when no number is given."""
    budget: float = Field(2.5, ge=1, le=10, allow_inf_nan=False)
    """Agent calls a check may make, as a multiple of its first round's: confirm reruns, a pilot run
    of the doubtful dimensions, then more rounds of the most doubtful (1: none)."""
    power_rounds: int = Field(20, ge=0, le=50)
    """More rounds, at most, of a dimension the first round put in doubt (within ``budget``)."""
    case_groups: dict[Annotated[str, Field(min_length=1, max_length=100)], CaseGroup] = Field(
        default_factory=dict, max_length=100)
    """Groups of cases watched for drift like a dimension (a flow, a customer, a skill): name → case
    ids, id patterns (``B3-QC-*``) or ``tag:NAME``; an entry that names no case is an input error."""
    power: float = Field(0.8, gt=0, lt=1, allow_inf_nan=False)
    """Calibration: the chance a regression of ``effect`` points should be detected with."""
    effect: float = Field(0.3, gt=0, le=1, allow_inf_nan=False)
    """Calibration: the drop in a case's pass rate that counts as a regression worth detecting."""
    outage_share: float = Field(0.5, gt=0, le=1, allow_inf_nan=False)
    """More than this share of a group's runs ending in agent errors is an outage (exit 4), not a
    regression."""
    outage_on_unreachable: bool = True
    """A run whose every attempt found nothing listening (connection refused, unknown host) is an
    outage too, however few runs it is: the agent was not running. Then, once three calls have
    found nothing listening and none reached the agent, the rest are not sent; false: every call is
    tried."""
