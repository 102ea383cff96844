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
from gate.formats.percent import percent
from gate.formats.rates import pct, points_span, rate_evidence
from gate.policy.reasons import Said
from gate.policy.regressions import PairDecision, PairOutcome
from gate.policy.thresholds import Finding, Level, at_least, dimension_findings, error_findings, threshold_findings
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import GroupMetrics, Metrics
from gate.scoring.stats import (
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

    def needed(self, m: GroupMetrics, line: float) -> str:
        rate = m.exact_rate
        units = runs_to_exclude(rate, line, max(1, math.ceil(m.effective_runs)), self.confidence)
        if units is None or not m.cases_judged:
            return "more cases or runs would decide it"
        per_case = math.ceil(units / m.cases_judged)
        return f"about {per_case} runs per case would decide it"

    def rate_line(self, m: GroupMetrics, line: float, *, rule: str, level: Level, what: str,
                  dimension: str | None, group: str) -> Finding | None:
        """fail when the interval is wholly below the line, inconclusive when only the rate is."""
        interval = m.interval(self.confidence)
        rate = m.case_pass_rate
        if interval is None or rate is None:
            return None
        common = {"rule": rule, "dimension": dimension, "group": group, "value": rate, "threshold": line,
                  "interval": interval}
        evidence = rate_evidence(m, self.confidence)
        if not at_least(interval[1], line):
            return Finding(level=level, outcome="fail", **common,
                           reason=Said(f"{what} {evidence} is below the {pct(line)} line"))
        if not at_least(rate, line):
            return self.inconclusive(**common, reason=Said(f"{what} {evidence} vs the {pct(line)} line — "
                                     f"inconclusive: {self.needed(m, line)}"))
        return None

    def delta(self, dimension: str, metrics: Metrics, thresholds: Thresholds) -> Finding | None:
        paired = _paired(metrics, dimension)
        if paired is None:
            return None
        a, b = paired
        delta = round(b.exact_rate - a.exact_rate, 4)
        low, high = _newcombe(a, b, self.confidence)
        interval = (round(low, 4), round(high, 4))
        evidence = f"B − A = {delta * 100:+.1f} pts{points_span(interval)} over {a.cases_judged} cases"
        red, line = thresholds.red_line_delta, thresholds.min_delta_for(dimension)
        common = {"dimension": dimension, "value": delta, "interval": interval}
        if not at_least(high, red):
            return Finding(level=Level.RED_LINE, outcome="fail", rule="red-line-delta", threshold=red, **common,
                           reason=Said(f"{dimension}: {evidence} < {red * 100:+.0f} pts — the skill must be fixed"))
        if not at_least(high, line):
            return Finding(level=Level.ERROR, outcome="fail", rule="min-delta", threshold=line, **common,
                           reason=Said(f"{dimension}: {evidence} < {line * 100:+.0f} pts"))
        for rule, limit in (("red-line-delta", red), ("min-delta", line)):
            if not at_least(delta, limit):
                return self.inconclusive(rule=rule, threshold=limit, **common,
                                         reason=Said(f"{dimension}: {evidence} vs the {limit * 100:+.0f} pts line — "
                                         "inconclusive: more runs of these cases would decide it"))
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
                                        what=f"{dimension}: A pass rate", dimension=dimension, group="A")
            found += [finding] if finding else []
        delta = decider.delta(dimension, metrics, thresholds)
        found += [delta] if delta else []
    b = metrics.skill_explicit.get("B")
    if b is not None and b.judged:
        what = "skill-explicit cases: B pass rate"
        red = decider.rate_line(b, thresholds.red_line_skill_explicit_b, rule="red-line-skill-explicit",
                                level=Level.RED_LINE, what=what, dimension=None, group="B")
        plain = decider.rate_line(b, thresholds.skill_explicit_min_b, rule="skill-explicit-min-b",
                                  level=Level.ERROR, what=what, dimension=None, group="B")
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
        message = (f"{dimension} ({group}): pass rate {rate_evidence(m, decider.confidence)} vs the baseline's "
                   f"{pct(base_rate)} (stratified exact test p = {p:.3g}")
        common = {"rule": "dimension-regression", "dimension": dimension, "group": group,
                  "value": m.case_pass_rate, "threshold": base_rate, "p_value": float(f"{p:.4g}")}
        if reject:
            found.append(Finding(level=Level.ERROR, outcome="fail", **common,
                                 reason=Said(message + f" ≤ {settings.alpha / k:.3g})")))
        else:
            found.append(decider.inconclusive(**common, reason=Said(message + f"; {settings.alpha / k:.3g} needed) — "
                                              "inconclusive")))
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
                                     reason=Said(f"{dimension} ({group}): pass rate {percent(now)} fell below the baseline's {percent(before)}")))
    return found


def pair_findings(decisions: list[PairDecision], metrics: Metrics, settings: DecisionConfig) -> list[Finding]:
    """Regressed and inconclusive pairs as findings; cleared ones as notes."""
    decider = _Decider(settings)
    found = []
    for d in decisions:
        outcome = metrics.cases.get(d.case_id)
        blame = f" — attributed to the {outcome.attribution.value}" if outcome and outcome.attribution else ""
        evidence = f"passes {d.now.shown()} now, {d.baseline.passed} of {d.baseline.judged} in the baseline"
        test = "" if d.p_value is None else f" (Fisher p = {d.p_value:.3g}"
        common = {"rule": "regression", "case_id": d.case_id, "group": d.group,
                  "p_value": None if d.p_value is None else float(f"{d.p_value:.4g}")}
        if d.outcome is PairOutcome.REGRESSED:
            test += f" ≤ {d.level:.3g})" if d.level is not None else ""
            if settings.mode == "point":
                message = f"{d.case_id} ({d.group}) passed in the baseline and fails now ({evidence}){blame}"
            else:
                message = f"{d.case_id} ({d.group}): {evidence}{test}{blame}"
            found.append(Finding(level=Level.ERROR, outcome="fail", **common, reason=Said(message)))
        elif d.outcome is PairOutcome.INCONCLUSIVE:
            if d.baseline.judged < settings.baseline_runs:
                more = (f"record the baseline from more runs (`gate baseline update` records "
                        f"{settings.baseline_runs} per case) to decide it")
            elif d.runs_needed is not None:
                more = f"about {d.runs_needed} more runs would decide it (more `decision.confirm_runs`)"
            else:
                more = "more runs than a check makes would decide it: watch it on the base branch"
            found.append(decider.inconclusive(**common, reason=Said(f"{d.case_id} ({d.group}): {evidence}{test}) — "
                                              f"inconclusive: {more}")))
        else:
            found.append(Finding(level=Level.INFO, rule="regression-cleared", case_id=d.case_id, group=d.group,
                                 p_value=common["p_value"],
                                 reason=Said(f"{d.case_id} ({d.group}): {evidence} — within the baseline's noise, not a regression")))
    return found


def baseline_notes(comparison: Comparison) -> list[Finding]:
    """What the reader must know about the baseline itself."""
    if not comparison.present:
        return [Finding(level=Level.INFO, rule="no-baseline",
                        reason=Said("no baseline yet: nothing to compare with — `gate baseline update` records one from fresh runs"))]
    found: list[Finding] = []
    if comparison.stale:
        found.append(Finding(level=Level.WARNING, rule="stale-baseline",
                             reason=Said("the baseline was recorded on a different case set (cases_digest changed) — update it with `gate baseline update`")))
    if comparison.other_agent:
        found.append(Finding(level=Level.WARNING, rule="baseline-identity",
                             reason=Said("the baseline was recorded with another agent identity or gate.yaml policy "
                             "— the comparison may mix two agents; update it with `gate baseline update`")))
    if comparison.from_v1:
        found.append(Finding(level=Level.WARNING, rule="baseline-v1",
                             reason=Said("the baseline is a v1 file, read as one run per case: too thin to confirm most "
                             "regressions — record a v2 one from fresh runs with `gate baseline update`")))
    return found
