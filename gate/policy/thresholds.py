"""The gate's policy as small pure decisions: thresholds, red lines, regressions → findings."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import ConfigDict

from gate.config.gate_yaml import Thresholds
from gate.model import Model
from gate.policy.reasons import Reason
from gate.policy.reasons.lines import AgentErrors, DeltaBelow, NoJudgedRun, RateBelow, UnjudgedRuns
from gate.scoring.metrics import GroupMetrics, Metrics

_EPS = 1e-9


class Level(str, Enum):
    """How serious a finding is; ``fail_on`` says from which level the gate fails."""

    RED_LINE = "red-line"
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


_RANK = {Level.RED_LINE: 0, Level.ERROR: 1, Level.WARNING: 2, Level.INFO: 3}
FAIL_ON: dict[str, Level] = {"red-line": Level.RED_LINE, "error": Level.ERROR, "warning": Level.WARNING}


class Finding(Model):
    """One policy outcome worth reporting: level, rule, the reason (what was decided on which numbers;
    its words are :func:`gate.report.wording.message`) and the numbers behind it."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    level: Level
    rule: str
    reason: Reason
    dimension: str | None = None
    group: str | None = None
    case_id: str | None = None
    value: float | None = None
    threshold: float | None = None
    outcome: Literal["fail", "inconclusive"] | None = None
    """Set on decisions made with evidence: a failed line or test, or one the evidence cannot settle."""
    interval: tuple[float, float] | None = None
    """The confidence interval behind ``value`` (rates and B − A), when there is one."""
    p_value: float | None = None
    """The test's p-value (regressions), when there is one."""


def rank(level: Level) -> int:
    """0 for a red line, then error, warning, info: lower is more serious."""
    return _RANK[level]


_FIRST = {"zero-tolerance": 0, "bar-lowered": 1, "zero-tolerance-accepted": 2}
"""Rules named before the rest of their level: a broken never-rule, then a lowered bar."""


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Most serious first (a broken never-rule before every other red line), then by dimension,
    case and rule — a stable order for reports."""
    return sorted(findings, key=lambda f: (_RANK[f.level], _FIRST.get(f.rule, len(_FIRST)), f.dimension or "",
                                           f.case_id or "", f.rule, f.group or ""))


def at_least(value: float | None, threshold: float) -> bool:
    """value ≥ threshold, exact at the boundary (70% of 10 runs meets a 0.70 line)."""
    return value is not None and value >= threshold - _EPS


def dimension_findings(dimension: str, groups: dict[str, GroupMetrics], delta: float | None,
                       thresholds: Thresholds, *, by_consistency: bool = False) -> list[Finding]:
    """Threshold checks of one dimension: A line, B − A delta, red line; empty dimensions reported.

    ``by_consistency``: the dimension's repeated cases are gated by their consistency lines, so a
    missing rule-judged run in A is a note rather than a warning.
    """
    found: list[Finding] = []
    a = groups.get("A")
    if a is None or a.judged == 0:
        found.append(Finding(level=Level.INFO if by_consistency else Level.WARNING, rule="no-judged-case",
                             dimension=dimension, group="A",
                             reason=NoJudgedRun(dimension=dimension, by_consistency=by_consistency)))
    else:
        line = thresholds.min_a_for(dimension)
        if not at_least(a.case_pass_rate, line):
            found.append(Finding(level=Level.ERROR, rule="min-a", dimension=dimension, group="A",
                                 value=a.case_pass_rate, threshold=line,
                                 reason=RateBelow(dimension=dimension, group="A", rate=a.case_pass_rate, line=line)))
    if delta is not None:
        line = thresholds.min_delta_for(dimension)
        if delta < thresholds.red_line_delta - _EPS:
            found.append(Finding(level=Level.RED_LINE, rule="red-line-delta", dimension=dimension,
                                 value=delta, threshold=thresholds.red_line_delta,
                                 reason=DeltaBelow(dimension=dimension, delta=delta, line=thresholds.red_line_delta,
                                                   red_line=True)))
        elif not at_least(delta, line):
            found.append(Finding(level=Level.ERROR, rule="min-delta", dimension=dimension, value=delta,
                                 threshold=line,
                                 reason=DeltaBelow(dimension=dimension, delta=delta, line=line, red_line=False)))
    return found


def skill_explicit_findings(b: GroupMetrics | None, thresholds: Thresholds) -> list[Finding]:
    """skill-explicit-constraint cases: B ≥ 85%, red line below 75%."""
    if b is None or b.judged == 0:
        return []
    rate = b.case_pass_rate
    if not at_least(rate, thresholds.red_line_skill_explicit_b):
        line = thresholds.red_line_skill_explicit_b
        return [Finding(level=Level.RED_LINE, rule="red-line-skill-explicit", group="B", value=rate, threshold=line,
                        reason=RateBelow(dimension=None, group="B", rate=rate, line=line, red_line=True))]
    if not at_least(rate, thresholds.skill_explicit_min_b):
        line = thresholds.skill_explicit_min_b
        return [Finding(level=Level.ERROR, rule="skill-explicit-min-b", group="B", value=rate, threshold=line,
                        reason=RateBelow(dimension=None, group="B", rate=rate, line=line))]
    return []


def error_findings(metrics: Metrics) -> list[Finding]:
    """Agent errors and runs a checker could not judge are counted as not passed; they are also
    reported on their own."""
    found = []
    for group, m in sorted(metrics.overall.items()):
        if m.agent_errors:
            found.append(Finding(level=Level.WARNING, rule="agent-errors", group=group, value=float(m.agent_errors),
                                 reason=AgentErrors(group=group, errors=m.agent_errors, runs=m.runs)))
        unjudged = m.errors - m.agent_errors
        if unjudged:
            found.append(Finding(level=Level.WARNING, rule="checker-errors", group=group, value=float(unjudged),
                                 reason=UnjudgedRuns(group=group, unjudged=unjudged, runs=m.runs)))
    return found


def threshold_findings(metrics: Metrics, thresholds: Thresholds,
                       consistency_dimensions: frozenset[str] = frozenset()) -> list[Finding]:
    """Every threshold and red line of the seeds over the computed metrics."""
    found: list[Finding] = []
    for dimension, groups in sorted(metrics.dimensions.items()):
        found += dimension_findings(dimension, groups, metrics.delta(dimension), thresholds,
                                    by_consistency=dimension in consistency_dimensions)
    found += skill_explicit_findings(metrics.skill_explicit.get("B"), thresholds)
    found += error_findings(metrics)
    return found


def gate_passed(findings: list[Finding], fail_on: str) -> bool:
    """True when no finding is at or above the ``fail_on`` level."""
    limit = _RANK[FAIL_ON[fail_on]]
    return not any(_RANK[f.level] <= limit for f in findings)


Verdict = Literal["passed", "inconclusive", "failed", "unavailable", "interrupted"]
"""The one word a run ends in. ``inconclusive``: nothing failed, but a decision lacked the evidence
to say pass — never shown as a pass; its exit code follows ``decision.fail_on_inconclusive``."""


def verdict_of(findings: list[Finding], fail_on: str, *, unavailable: bool = False,
               interrupted: bool = False) -> Verdict:
    """The verdict word: a failure outranks an open decision, which outranks a pass."""
    if interrupted:
        return "interrupted"
    if unavailable:
        return "unavailable"
    limit = _RANK[FAIL_ON[fail_on]]
    if any(_RANK[f.level] <= limit and f.outcome != "inconclusive" for f in findings):
        return "failed"
    if any(f.outcome == "inconclusive" and f.level is not Level.INFO for f in findings):
        return "inconclusive"
    return "passed"
