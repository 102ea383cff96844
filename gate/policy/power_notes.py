"""Each dimension's decision with its counts, test, p-value, level and the drop it could detect.

A pass is read for what it is: the drop the runs could have seen with the configured power. The
first-round test of each (dimension, group) is :func:`gate.policy.evidence.dimension_regressions`
(its level Tarone-corrected; the drop stated at the Bonferroni level over the same tests, which is
never looser); a dimension given more rounds states its fresh test (:mod:`gate.policy.drift`).
"""

from __future__ import annotations

from gate.config.decision import DecisionConfig
from gate.policy import drift
from gate.policy.reasons.drift import DetectableDrops, DriftCleared, Drifted, Spending
from gate.policy.thresholds import Finding, Level
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import Metrics
from gate.scoring.power import detectable_drop
from gate.scoring.stats import four_digits, four_digits_or_none, stratified_exact_less

FIRST_TEST = "stratified exact test (cases) of this check's runs against the baseline"


def first_alpha(settings: DecisionConfig) -> float:
    """The first-round dimension tests' share of alpha: what the more rounds leave, when they may follow."""
    return (1 - drift.MORE_ROUNDS_SHARE) * settings.alpha if drift.enabled(settings) else settings.alpha


def first_round(before: Metrics, comparison: Comparison, settings: DecisionConfig) -> list[dict[str, object]]:
    """Every compared (dimension, group): pooled counts, p-value, level and detectable drop."""
    entries: list[dict[str, object]] = []
    for dimension, groups in sorted(before.dimensions.items()):
        for group in sorted(groups):
            rows = []
            for cid, outcome in sorted(before.cases.items()):
                now, base = outcome.counts.get(group), comparison.count(cid, group)
                if before.case_dimension.get(cid) == dimension and now and base and now.judged and base.judged:
                    rows.append((base.passed, base.judged, now.passed, now.judged))
            if rows:
                entries.append({"dimension": dimension, "group": group, "stage": "first round", "test": FIRST_TEST,
                                "strata": len(rows),
                                "baseline": {"passed": sum(r[0] for r in rows), "judged": sum(r[1] for r in rows)},
                                "now": {"passed": sum(r[2] for r in rows), "judged": sum(r[3] for r in rows)},
                                "p_value": four_digits(stratified_exact_less(rows))})
    level = first_alpha(settings) / max(len(entries), 1)
    for entry in entries:
        pooled, runs = entry["baseline"], entry["now"]
        assert isinstance(pooled, dict) and isinstance(runs, dict)
        entry["level"] = four_digits(level)
        entry["detectable_drop"] = detectable_drop(pooled["passed"], pooled["judged"], runs["judged"], level,
                                                   settings.power)
    return entries


def findings(power: drift.Escalation | None, entries: list[dict[str, object]], settings: DecisionConfig) -> list[Finding]:
    """A drifting dimension's decision as a finding; what the budget bought and what each
    dimension could detect as a note."""
    found: list[Finding] = []
    spending = None
    if power is not None:
        for d in power.decisions:
            if d.outcome == "regressed":
                found.append(Finding(level=Level.ERROR, outcome="fail", rule="dimension-drift", dimension=d.dimension,
                                     value=d.fresh.rate, threshold=d.baseline.rate,
                                     p_value=four_digits_or_none(d.p_value), reason=Drifted(decision=d)))
            elif d.outcome != "open":
                found.append(Finding(level=Level.INFO, rule="dimension-drift-cleared", dimension=d.dimension,
                                     p_value=four_digits_or_none(d.p_value), reason=DriftCleared(decision=d)))
        spending = Spending(budget_calls=power.plan.budget_calls, budget=settings.budget, first_calls=power.first_calls,
                            confirm_calls=power.confirm_calls, pilot_calls=power.pilot_calls,
                            round_calls=len(power.made) - power.pilot_calls,
                            rounds=tuple((d.dimension, d.rounds) for d in power.decisions))
    if entries:
        decisions = tuple([*entries, *(d.as_json() for d in power.decisions)] if power else entries)
        found.append(Finding(level=Level.INFO, rule="detectable-drop",
                             reason=DetectableDrops(spending=spending, power=settings.power, decisions=decisions)))
    return found
