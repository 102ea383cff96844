"""A line missed in this run by no more than the baseline's own noise is not this change's doing.

With one run per case, a 95 %-reliable agent misses a line it sits near in most pull requests: one
bad run of a four-case dimension is 75 %, and B − A, whose line is where an unchanged agent sits,
falls below 0 half the time. Reported as *inconclusive*, that is a verdict word on nearly every
pull request of an unchanged agent — a word teams learn to ignore. So an inconclusive line is
set against the baseline: when the baseline was recorded from enough runs of every case the line
covers (``decision.baseline_runs``), did not miss the line beyond doubt itself, and, group by
group, the stratified exact test finds no drop from it (p > α), the shortfall is not this change's:
a note says it is within the baseline's noise (the baseline met the line) or undecided on the base
too (its own interval reaches the line from below) — known, like a failure the baseline has too.
No baseline, a thin one, a stale one, one that missed the line beyond doubt, or a new case leaves
the line inconclusive.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from gate.case import Case
from gate.config.decision import DecisionConfig
from gate.policy.reasons.lines import DeltaEvidence, RateEvidence, Settled
from gate.policy.thresholds import Finding, Level, at_least
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import GroupMetrics, Metrics
from gate.scoring.stats import newcombe_interval, stratified_exact_less


def drop_p_value(metrics: Metrics, comparison: Comparison, case_ids: list[str], group: str,
                 min_runs: int) -> float | None:
    """The stratified exact test's p-value for "lower now than in the baseline" over ``case_ids``
    in ``group``; None when the baseline cannot speak for them (a case it lacks, or has from fewer
    than ``min_runs`` runs)."""
    rows = []
    for case_id in case_ids:
        now = metrics.cases[case_id].counts.get(group)
        before = comparison.count(case_id, group)
        if now is None or not now.judged:
            continue
        if before is None or before.judged < min_runs:
            return None
        rows.append((before.passed, before.judged, now.passed, now.judged))
    return stratified_exact_less(rows) if rows else None


def _line_cases(finding: Finding, metrics: Metrics, cases: Mapping[str, Case]) -> list[str]:
    if finding.dimension is None:  # the skill-explicit lines
        return sorted(cid for cid in metrics.cases if cases[cid].skill_explicit)
    return sorted(cid for cid, key in metrics.case_dimension.items() if key == finding.dimension)


def _baseline_group(comparison: Comparison, case_ids: list[str], group: str) -> GroupMetrics | None:
    counts = tuple((count.passed, count.judged) for cid in case_ids
                   if (count := comparison.count(cid, group)) is not None and count.judged)
    return GroupMetrics(case_counts=counts) if counts else None


Standing = Literal["met", "undecided", "missed"]


def baseline_standing(finding: Finding, comparison: Comparison, case_ids: list[str], groups: list[str],
                      confidence: float) -> Standing | None:
    """Where the baseline itself stood on the line: met it, left it undecided (below, but its
    interval reaches it), or missed it beyond doubt; None when it cannot say."""
    measured = [_baseline_group(comparison, case_ids, group) for group in groups]
    if finding.threshold is None or any(m is None for m in measured):
        return None
    if len(measured) == 1:
        (m,) = measured
        assert m is not None
        value, high = m.exact_rate, (m.interval(confidence) or (0.0, 1.0))[1]
    else:
        a, b = measured
        assert a is not None and b is not None
        value = b.exact_rate - a.exact_rate
        high = newcombe_interval(a.exact_rate, a.effective_runs, b.exact_rate, b.effective_runs, confidence)[1]
    if at_least(value, finding.threshold):
        return "met"
    return "undecided" if at_least(high, finding.threshold) else "missed"


def settle(findings: list[Finding], metrics: Metrics, comparison: Comparison, cases: Mapping[str, Case],
           settings: DecisionConfig) -> list[Finding]:
    """``findings`` with each inconclusive line that the baseline's noise explains restated as a note."""
    if not comparison.present or comparison.stale or comparison.other_agent or comparison.from_v1:
        return findings
    settled = []
    for finding in findings:
        if finding.outcome != "inconclusive" or not isinstance(finding.reason, RateEvidence | DeltaEvidence):
            settled.append(finding)
            continue
        ids = _line_cases(finding, metrics, cases)
        groups = [finding.group] if finding.group else ["A", "B"]
        standing = baseline_standing(finding, comparison, ids, groups, 1 - settings.alpha)
        if standing is None or standing == "missed":
            settled.append(finding)
            continue
        p_values = [drop_p_value(metrics, comparison, ids, group, settings.baseline_runs) for group in groups]
        if any(p is None or p <= settings.alpha for p in p_values):
            settled.append(finding)
            continue
        tests = tuple((g, p) for g, p in zip(groups, p_values, strict=True) if p is not None)
        reason = Settled(line=finding.reason, standing=standing, tests=tests)
        settled.append(finding.model_copy(update={"level": Level.INFO, "outcome": None, "reason": reason}))
    return settled
