"""Findings with their evidence: the seeds' lines, regressions per case and per dimension.

``confidence`` mode (the default) decides each line with an interval and each regression with an
exact test, so one unlucky run of a random agent never flips the gate:

- a rate line (A ≥ 70 %, skill-explicit B ≥ 85 %, red line 75 %) fails when the Wilson interval's
  upper end is below it, and is *inconclusive* when the rate is below the line but the interval
  reaches it;
- B − A (≥ 0, red line −15 pts) is Newcombe's hybrid score interval over the cases judged in both
  groups, read the same way;
- a dimension below its baseline is an exact test stratified by case (runs of one case are not
  independent evidence about the others), Tarone-corrected over the dimensions;
- a (case, group) below its baseline: see :mod:`gate.policy.regressions`.

``point`` mode compares the observed rates literally, as the gate did before it weighed evidence.
An inconclusive decision is a warning, or an error with ``fail_on_inconclusive``.
"""

from __future__ import annotations

import math

from gate.config.decision import DecisionConfig
from gate.config.gate_yaml import Thresholds
from gate.policy.reasons.lines import DeltaEvidence, RateEvidence
from gate.policy.reasons.regressions import (
    BaselineNote,
    DimensionBelow,
    DimensionTest,
    OpenPair,
    PairCleared,
    PairOpen,
    PairRegressed,
)
from gate.policy.regressions import PairDecision, PairOutcome
from gate.policy.thresholds import Finding, Level, at_least, dimension_findings, error_findings, threshold_findings
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import GroupMetrics, Metrics
from gate.scoring.stats import (
    four_digits,
    four_digits_or_none,
    newcombe_interval,
    runs_to_exclude,
    stratified_exact_less,
    stratified_min_attainable,
    tarone_bonferroni,
)


class _Decider:
    def __init__(self, settings: DecisionConfig) -> None:
        self.settings = settings
        self.confidence = 1 - settings.alpha
        self.inconclusive_level = Level.ERROR if settings.fail_on_inconclusive else Level.WARNING

    def inconclusive(self, **fields: object) -> Finding:
        return Finding(level=self.inconclusive_level, outcome="inconclusive", **fields)

    def runs_per_case(self, m: GroupMetrics, line: float) -> int | None:
        """About how many runs per case would decide a rate against ``line``; None: more cases or runs."""
        units = runs_to_exclude(m.exact_rate, line, max(1, math.ceil(m.effective_runs)), self.confidence)
        if units is None or not m.cases_judged:
            return None
        return math.ceil(units / m.cases_judged)

    def rate_line(self, m: GroupMetrics, line: float, *, rule: str, level: Level,
                  dimension: str | None, group: str) -> Finding | None:
        """fail when the interval is wholly below the line, inconclusive when only the rate is."""
        interval = m.interval(self.confidence)
        rate = m.case_pass_rate
        if interval is None or rate is None:
            return None
        common = {"rule": rule, "dimension": dimension, "group": group, "value": rate, "threshold": line,
                  "interval": interval}
        if not at_least(interval[1], line):
            return Finding(level=level, outcome="fail", **common, reason=RateEvidence(
                dimension=dimension, group=group, measured=m, confidence=self.confidence, line=line, decided=True))
        if not at_least(rate, line):
            return self.inconclusive(**common, reason=RateEvidence(
                dimension=dimension, group=group, measured=m, confidence=self.confidence, line=line, decided=False,
                runs_per_case=self.runs_per_case(m, line)))
        return None

    def delta(self, dimension: str, metrics: Metrics, thresholds: Thresholds) -> Finding | None:
        paired = _paired(metrics, dimension)
        if paired is None:
            return None
        a, b = paired
        delta = round(b.exact_rate - a.exact_rate, 4)
        low, high = _newcombe(a, b, self.confidence)
        interval = (round(low, 4), round(high, 4))
        red, line = thresholds.red_line_delta, thresholds.min_delta_for(dimension)
        common = {"dimension": dimension, "value": delta, "interval": interval}

        def said(limit: float, *, red_line: bool, decided: bool = True) -> DeltaEvidence:
            return DeltaEvidence(dimension=dimension, delta=delta, interval=interval, cases=a.cases_judged, line=limit,
                                 red_line=red_line, decided=decided)

        if not at_least(high, red):
            return Finding(level=Level.RED_LINE, outcome="fail", rule="red-line-delta", threshold=red, **common,
                           reason=said(red, red_line=True))
        if not at_least(high, line):
            return Finding(level=Level.ERROR, outcome="fail", rule="min-delta", threshold=line, **common,
                           reason=said(line, red_line=False))
        for rule, limit in (("red-line-delta", red), ("min-delta", line)):
            if not at_least(delta, limit):
                return self.inconclusive(rule=rule, threshold=limit, **common,
                                         reason=said(limit, red_line=rule == "red-line-delta", decided=False))
        return None


def _paired(metrics: Metrics, dimension: str) -> tuple[GroupMetrics, GroupMetrics] | None:
    """A and B metrics over only the cases judged in both groups of the dimension."""
    ids = sorted(cid for cid, o in metrics.cases.items() if metrics.case_dimension.get(cid) == dimension
                 and all(o.counts.get(g) is not None and o.counts[g].judged for g in ("A", "B")))
    if not ids:
        return None
    counts = [metrics.cases[cid].counts for cid in ids]
    return (GroupMetrics(case_counts=tuple((c["A"].passed, c["A"].judged) for c in counts)),
            GroupMetrics(case_counts=tuple((c["B"].passed, c["B"].judged) for c in counts)))


def _newcombe(a: GroupMetrics, b: GroupMetrics, confidence: float) -> tuple[float, float]:
    """B − A's interval. The runs of A and B are independent samples of fixed cases, so Newcombe's
    interval for independent proportions, over each group's effective runs."""
    return newcombe_interval(a.exact_rate, a.effective_runs, b.exact_rate, b.effective_runs, confidence)


def line_findings(metrics: Metrics, thresholds: Thresholds, settings: DecisionConfig,
                  consistency_dimensions: frozenset[str] = frozenset()) -> list[Finding]:
    """The seeds' lines over the computed metrics, decided with their evidence."""
    if settings.mode == "point":
        return threshold_findings(metrics, thresholds, consistency_dimensions)
    decider = _Decider(settings)
    found: list[Finding] = []
    for dimension, groups in sorted(metrics.dimensions.items()):
        a = groups.get("A")
        if a is None or a.judged == 0:
            found += dimension_findings(dimension, {}, None, thresholds,
                                               by_consistency=dimension in consistency_dimensions)
        else:
            finding = decider.rate_line(a, thresholds.min_a_for(dimension), rule="min-a", level=Level.ERROR,
                                        dimension=dimension, group="A")
            found += [finding] if finding else []
        delta = decider.delta(dimension, metrics, thresholds)
        found += [delta] if delta else []
    b = metrics.skill_explicit.get("B")
    if b is not None and b.judged:
        red = decider.rate_line(b, thresholds.red_line_skill_explicit_b, rule="red-line-skill-explicit",
                                level=Level.RED_LINE, dimension=None, group="B")
        plain = decider.rate_line(b, thresholds.skill_explicit_min_b, rule="skill-explicit-min-b",
                                  level=Level.ERROR, dimension=None, group="B")
        chosen = red if red is not None and (red.outcome == "fail" or plain is None or plain.outcome != "fail") else plain
        found += [chosen] if chosen else []
    found += error_findings(metrics)
    return found


def dimension_regressions(metrics: Metrics, comparison: Comparison, settings: DecisionConfig,
                          regressed: frozenset[tuple[str, str]] = frozenset()) -> list[Finding]:
    """Dimensions (per group) whose pass rate fell below the baseline's.

    ``regressed`` (case, group) pairs are already findings of their own: the test is over the
    dimension's other cases, so one broken case is one finding, and a dimension finding means a
    drop beyond the cases it names.
    """
    if settings.mode == "point":
        return _point_dimension_regressions(metrics, comparison)
    decider = _Decider(settings)
    keys, strata = [], []
    for dimension, groups in sorted(metrics.dimensions.items()):
        for group, m in sorted(groups.items()):
            rows = []
            for cid, outcome in sorted(metrics.cases.items()):
                now, before = outcome.counts.get(group), comparison.count(cid, group)
                if ((cid, group) not in regressed and metrics.case_dimension.get(cid) == dimension
                        and now and before and now.judged and before.judged):
                    rows.append((before.passed, before.judged, now.passed, now.judged))
            if rows and (before_rate := comparison.dimensions.get(dimension, {}).get(group)) is not None:
                keys.append((dimension, group, m, before_rate))
                strata.append(rows)
    p_values = [stratified_exact_less(rows) for rows in strata]
    rejected, k = tarone_bonferroni(p_values, [stratified_min_attainable(rows) for rows in strata],
                                    settings.alpha)
    found = []
    for (dimension, group, m, base_rate), p, reject in zip(keys, p_values, rejected, strict=True):
        if not reject and p > settings.alpha:
            continue
        reason = DimensionTest(dimension=dimension, group=group, measured=m, confidence=decider.confidence,
                               baseline=base_rate, p_value=p, level=settings.alpha / k, decided=reject)
        common = {"rule": "dimension-regression", "dimension": dimension, "group": group,
                  "value": m.case_pass_rate, "threshold": base_rate, "p_value": four_digits(p), "reason": reason}
        if reject:
            found.append(Finding(level=Level.ERROR, outcome="fail", **common))
        else:
            found.append(decider.inconclusive(**common))
    return found


def _point_dimension_regressions(metrics: Metrics, comparison: Comparison) -> list[Finding]:
    found = []
    for dimension, groups in sorted(metrics.dimensions.items()):
        for group, m in sorted(groups.items()):
            before = comparison.dimensions.get(dimension, {}).get(group)
            now = m.case_pass_rate
            if before is not None and now is not None and not at_least(now, before):
                found.append(Finding(level=Level.ERROR, rule="dimension-regression", dimension=dimension,
                                     group=group, value=now, threshold=before,
                                     reason=DimensionBelow(dimension=dimension, group=group, rate=now, baseline=before)))
    return found


def _needs(d: PairDecision, settings: DecisionConfig) -> OpenPair:
    if d.baseline.judged < settings.baseline_runs:
        return "baseline-runs"
    return "base-branch" if d.runs_needed is None else "more-runs"


def pair_findings(decisions: list[PairDecision], metrics: Metrics, settings: DecisionConfig) -> list[Finding]:
    """Regressed and inconclusive pairs as findings; cleared ones as notes."""
    decider = _Decider(settings)
    found = []
    for d in decisions:
        outcome = metrics.cases.get(d.case_id)
        blame = outcome.attribution.value if outcome and outcome.attribution else None
        common = {"rule": "regression", "case_id": d.case_id, "group": d.group, "p_value": four_digits_or_none(d.p_value)}
        if d.outcome is PairOutcome.REGRESSED:
            found.append(Finding(level=Level.ERROR, outcome="fail", **common,
                                 reason=PairRegressed(decision=d, point=settings.mode == "point", attribution=blame)))
        elif d.outcome is PairOutcome.INCONCLUSIVE:
            found.append(decider.inconclusive(**common, reason=PairOpen(decision=d, needs=_needs(d, settings),
                                                                        baseline_runs=settings.baseline_runs)))
        else:
            found.append(Finding(level=Level.INFO, rule="regression-cleared", case_id=d.case_id, group=d.group,
                                 p_value=common["p_value"], reason=PairCleared(decision=d)))
    return found


def baseline_notes(comparison: Comparison) -> list[Finding]:
    """What the reader must know about the baseline itself."""
    if not comparison.present:
        return [Finding(level=Level.INFO, rule="no-baseline", reason=BaselineNote(state="none"))]
    found: list[Finding] = []
    if comparison.stale:
        found.append(Finding(level=Level.WARNING, rule="stale-baseline", reason=BaselineNote(state="stale")))
    if comparison.other_agent:
        found.append(Finding(level=Level.WARNING, rule="baseline-identity", reason=BaselineNote(state="other-agent")))
    if comparison.from_v1:
        found.append(Finding(level=Level.WARNING, rule="baseline-v1", reason=BaselineNote(state="v1")))
    return found
