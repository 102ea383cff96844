"""The words of the seeds' lines."""

from __future__ import annotations

from gate.formats.percent import percent
from gate.formats.rates import points_span, rate_evidence
from gate.policy.reasons.lines import (
    AgentErrors,
    DeltaBelow,
    DeltaEvidence,
    NoJudgedRun,
    RateBelow,
    RateEvidence,
    Settled,
    UnjudgedRuns,
)
from gate.report.wording.base import words

_STANDING = {"met": "within the baseline's noise",
             "undecided": "undecided on the base too — a known open question, not this change's"}
_FIX_THE_SKILL = " — the skill must be fixed"


def _rate_of(dimension: str | None, group: str) -> str:
    return f"{dimension or 'skill-explicit cases'}: {group} pass rate"


def _points(value: float) -> str:
    return f"{value * 100:+.0f} pts"


@words.register
def _no_judged_run(reason: NoJudgedRun) -> str:
    gated = "gated by consistency only" if reason.by_consistency else "the dimension is not gated"
    return f"{reason.dimension}: no rule-judged run in group A — {gated}"


@words.register
def _rate_below(reason: RateBelow) -> str:
    own_rules = " — the skill's own rules are not followed" if reason.red_line else ""
    return f"{_rate_of(reason.dimension, reason.group)} {percent(reason.rate)} < {percent(reason.line)}{own_rules}"


def _rate_shown(reason: RateEvidence) -> str:
    return f"{_rate_of(reason.dimension, reason.group)} {rate_evidence(reason.measured, reason.confidence)}"


def _delta_shown(reason: DeltaEvidence) -> str:
    return (f"{reason.dimension}: B − A = {reason.delta * 100:+.1f} pts{points_span(reason.interval)} "
            f"over {reason.cases} cases")


def _versus(reason: RateEvidence | DeltaEvidence) -> str:
    """The evidence against a line it does not meet, undecided: "… vs the 70.0% line"."""
    if isinstance(reason, RateEvidence):
        return f"{_rate_shown(reason)} vs the {percent(reason.line)} line"
    return f"{_delta_shown(reason)} vs the {_points(reason.line)} line"


@words.register
def _rate_evidence(reason: RateEvidence) -> str:
    if reason.decided:
        return f"{_rate_shown(reason)} is below the {percent(reason.line)} line"
    needed = ("more cases or runs would decide it" if reason.runs_per_case is None
              else f"about {reason.runs_per_case} runs per case would decide it")
    return f"{_versus(reason)} — inconclusive: {needed}"


@words.register
def _delta_below(reason: DeltaBelow) -> str:
    fix = _FIX_THE_SKILL if reason.red_line else ""
    return f"{reason.dimension}: B − A = {reason.delta * 100:+.1f} pts < {_points(reason.line)}{fix}"


@words.register
def _delta_evidence(reason: DeltaEvidence) -> str:
    if not reason.decided:
        return f"{_versus(reason)} — inconclusive: more runs of these cases would decide it"
    return f"{_delta_shown(reason)} < {_points(reason.line)}{_FIX_THE_SKILL if reason.red_line else ''}"


@words.register
def _agent_errors(reason: AgentErrors) -> str:
    return (f"group {reason.group}: {reason.errors} of {reason.runs} runs ended in an agent error "
            "(counted as not passed)")


@words.register
def _unjudged(reason: UnjudgedRuns) -> str:
    return (f"group {reason.group}: {reason.unjudged} of {reason.runs} runs could not be fully judged — a checker "
            "error or the judging budget (counted as not passed; see the constraint details)")


@words.register
def _settled(reason: Settled) -> str:
    tests = ", ".join(f"{group} p = {p:.3g}" for group, p in reason.tests)
    return f"{_versus(reason.line)} — {_STANDING[reason.standing]} (no drop from the baseline: {tests})"
