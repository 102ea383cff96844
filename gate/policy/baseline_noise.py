"""A line missed in this run by no more than the baseline's own noise is not this change's doing.

With one run per case, a 95 %-reliable agent misses a line it sits near in most pull requests: one
bad run of a four-case dimension is 75 %, and B − A, whose line is where an unchanged agent sits,
falls below 0 half the time. Reported as *inconclusive*, that is a verdict word on nearly every
pull request of an unchanged agent — a word teams learn to ignore. So an inconclusive line is
set against the baseline: when the baseline was recorded from enough runs of every case the line
covers (``decision.baseline_runs``), met the line itself, and, group by group, the stratified exact
test finds no drop from it (p > α), the shortfall is the agent's known noise and becomes a note
that says so. No baseline, a thin one, a stale one, one that missed the line too, or a new case
leaves the line inconclusive.
"""

from __future__ import annotations

from collections.abc import Mapping

from gate.case import Case
from gate.config import DecisionConfig
from gate.policy.thresholds import Finding, Level, at_least
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import Metrics
from gate.scoring.stats import stratified_exact_less


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


def _baseline_rate(comparison: Comparison, case_ids: list[str], group: str) -> float | None:
    rates = [count.passed / count.judged for cid in case_ids
             if (count := comparison.count(cid, group)) is not None and count.judged]
    return sum(rates) / len(rates) if rates else None


def _baseline_met(finding: Finding, comparison: Comparison, case_ids: list[str], groups: list[str]) -> bool:
    """Whether the baseline itself met the line: a line it missed too is not noise to explain away."""
    rates = [_baseline_rate(comparison, case_ids, group) for group in groups]
    if finding.threshold is None or any(rate is None for rate in rates):
        return False
    value = rates[0] if len(rates) == 1 else rates[1] - rates[0]  # type: ignore[operator]
    return at_least(value, finding.threshold)


def settle(findings: list[Finding], metrics: Metrics, comparison: Comparison, cases: Mapping[str, Case],
           settings: DecisionConfig) -> list[Finding]:
    """``findings`` with each inconclusive line that the baseline's noise explains restated as a note."""
    if not comparison.present or comparison.stale or comparison.other_agent or comparison.from_v1:
        return findings
    settled = []
    for finding in findings:
        if finding.outcome != "inconclusive" or finding.rule in ("regression", "dimension-regression"):
            settled.append(finding)
            continue
        ids = _line_cases(finding, metrics, cases)
        groups = [finding.group] if finding.group else ["A", "B"]
        if not _baseline_met(finding, comparison, ids, groups):
            settled.append(finding)
            continue
        p_values = [drop_p_value(metrics, comparison, ids, group, settings.baseline_runs) for group in groups]
        if any(p is None or p <= settings.alpha for p in p_values):
            settled.append(finding)
            continue
        tests = ", ".join(f"{g} p = {p:.3g}" for g, p in zip(groups, p_values, strict=True))
        shown = finding.message.split(" — inconclusive")[0].split(" — ")[0]
        settled.append(finding.model_copy(update={
            "level": Level.INFO, "outcome": None,
            "message": f"{shown} — within the baseline's noise (no drop from it: {tests}), as on the base"}))
    return settled
