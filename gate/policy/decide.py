"""The gate's one decision: every finding, and whether the gate passed, from what was measured —
a pure function of the metrics, the baseline comparison, the consistency report and the settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gate.case import Case
from gate.config.decision import DecisionConfig
from gate.config.gate_yaml import Thresholds
from gate.policy import baseline_noise, drift, never, outage, power_notes, regressions, uncertain
from gate.policy import evidence as decision
from gate.policy.reasons.run import Interrupted, ShardOnly
from gate.policy.thresholds import Finding, Level, gate_passed, sort_findings
from gate.scoring import metrics as metrics_mod
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import Metrics, dimension_key
from gate.verdict import RunVerdict

if TYPE_CHECKING:
    from gate.scoring.consistency import ConsistencyReport


@dataclass(frozen=True)
class Decision:
    """What the gate found and concluded; ``pairs`` are the per-(case, group) regression decisions
    (none when the agent was unavailable: its numbers are no evidence)."""

    findings: list[Finding]
    passed: bool
    pairs: list[regressions.PairDecision] = field(default_factory=list)
    unavailable: bool = False
    dimensions: list[dict[str, object]] = field(default_factory=list)
    """Every dimension's decision with its counts, test, p-value, level and detectable drop."""


def decide(cases: Mapping[str, Case], verdicts: list[RunVerdict], computed: Metrics, comparison: Comparison,
           consistency: ConsistencyReport | None, *, thresholds: Thresholds, settings: DecisionConfig, fail_on: str,
           partial: bool = False, interrupted: bool = False, notes: list[Finding] | None = None,
           power: drift.Escalation | None = None) -> Decision:
    """Findings of the never-rules and the uncertain runs, the seeds' lines (not for a shard: the
    merged result is judged), the baseline and its regressions, consistency, an outage and an
    interruption — sorted — and the verdict they give. ``power``: the more rounds of drifting
    dimensions; the pairs and the first-round dimension tests read the runs made before them."""
    before = computed
    if power is not None and power.made:
        before = metrics_mod.compute(dict(cases), [v for v in verdicts if (v.case_id, v.group, v.run) not in power.made])
    findings: list[Finding] = never.findings(cases, verdicts, comparison.accepted)
    findings += uncertain.findings(cases, verdicts, comparison, settings)
    if partial:
        findings.append(Finding(level=Level.INFO, rule="shard", reason=ShardOnly()))
    else:
        measured = frozenset(dimension_key(cases[c.case_id]) for c in (consistency.cases if consistency else ()))
        lines = decision.line_findings(computed, thresholds, settings, measured)
        findings += baseline_noise.settle(lines, computed, comparison, cases, settings)
    pairs = regressions.decide(before, comparison, alpha=settings.alpha, point=settings.mode == "point",
                               power=settings.power)
    findings += decision.baseline_notes(comparison) + list(notes or [])
    findings += decision.pair_findings(pairs, before, settings)
    entries: list[dict[str, object]] = []
    if comparison.present and not partial:
        confirmed = frozenset((d.case_id, d.group) for d in pairs if d.outcome is regressions.PairOutcome.REGRESSED)
        first = settings.model_copy(update={"alpha": power_notes.first_alpha(settings)})
        findings += decision.dimension_regressions(before, comparison, first, confirmed)
        if settings.mode == "confidence":
            entries = power_notes.first_round(before, comparison, settings)
            findings += power_notes.findings(power, entries, settings)
    if consistency and not partial:
        from gate.policy.consistency import consistency_findings

        findings += consistency_findings(consistency)
    unavailable = outage.unavailable(computed, verdicts, settings)
    if unavailable is not None:
        findings = [f for f in findings if f.rule not in outage.OUTAGE_HIDES] + [unavailable]
    if interrupted:
        findings.append(Finding(level=Level.RED_LINE, rule="interrupted", reason=Interrupted()))
    findings = sort_findings(findings)
    passed = gate_passed(findings, fail_on) and not interrupted
    if power is not None:
        entries += [d.as_json() for d in power.decisions]
    return Decision(findings, passed, [] if unavailable else pairs, unavailable is not None, entries)
