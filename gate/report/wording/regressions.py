"""The words of the comparison with the baseline."""

from __future__ import annotations

from gate.formats.percent import percent
from gate.formats.rates import rate_evidence
from gate.policy.reasons.regressions import (
    BaselineNote,
    DimensionBelow,
    DimensionTest,
    PairCleared,
    PairOpen,
    PairRegressed,
)
from gate.policy.regressions import PairDecision
from gate.report.wording.base import words

_UPDATE = "`gate baseline update`"
_BASELINE = {
    "none": f"no baseline yet: nothing to compare with — {_UPDATE} records one from fresh runs",
    "stale": f"the baseline was recorded on a different case set (cases_digest changed) — update it with {_UPDATE}",
    "other-agent": ("the baseline was recorded with another agent identity or gate.yaml policy — the comparison may "
                    f"mix two agents; update it with {_UPDATE}"),
    "v1": ("the baseline is a v1 file, read as one run per case: too thin to confirm most regressions — record a v2 "
           f"one from fresh runs with {_UPDATE}"),
}


def _pair(d: PairDecision) -> str:
    return f"{d.case_id} ({d.group})"


def _counts(d: PairDecision) -> str:
    return f"passes {d.now.shown()} now, {d.baseline.passed} of {d.baseline.judged} in the baseline"


def _test(d: PairDecision) -> str:
    return "" if d.p_value is None else f" (Fisher p = {d.p_value:.3g}"


@words.register
def _regressed(reason: PairRegressed) -> str:
    d = reason.decision
    blame = f" — attributed to the {reason.attribution}" if reason.attribution else ""
    if reason.point:
        return f"{_pair(d)} passed in the baseline and fails now ({_counts(d)}){blame}"
    level = f" ≤ {d.level:.3g})" if d.level is not None else ""
    return f"{_pair(d)}: {_counts(d)}{_test(d)}{level}{blame}"


@words.register
def _open(reason: PairOpen) -> str:
    d = reason.decision
    if reason.needs == "baseline-runs":
        more = (f"record the baseline from more runs (`gate baseline update` records {reason.baseline_runs} per case) "
                "to decide it")
    elif reason.needs == "more-runs":
        more = f"about {d.runs_needed} more runs would decide it (more `decision.confirm_runs`)"
    else:
        more = "more runs than a check makes would decide it: watch it on the base branch"
    return f"{_pair(d)}: {_counts(d)}{_test(d)}) — inconclusive: {more}"


@words.register
def _cleared(reason: PairCleared) -> str:
    return f"{_pair(reason.decision)}: {_counts(reason.decision)} — within the baseline's noise, not a regression"


@words.register
def _dimension_below(reason: DimensionBelow) -> str:
    return (f"{reason.dimension} ({reason.group}): pass rate {percent(reason.rate)} fell below the baseline's "
            f"{percent(reason.baseline)}")


@words.register
def _dimension_test(reason: DimensionTest) -> str:
    shown = (f"{reason.dimension} ({reason.group}): pass rate {rate_evidence(reason.measured, reason.confidence)} "
             f"vs the baseline's {percent(reason.baseline)} (stratified exact test p = {reason.p_value:.3g}")
    if reason.decided:
        return f"{shown} ≤ {reason.level:.3g})"
    return f"{shown}; {reason.level:.3g} needed) — inconclusive"


@words.register
def _baseline(reason: BaselineNote) -> str:
    return _BASELINE[reason.state]
