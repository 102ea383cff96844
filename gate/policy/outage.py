"""An outage is not a regression: most runs of a group ending in agent errors (exit 4).

When the agent is down or answers nothing usable, the verdicts on its answers mean nothing: the
gate says the agent is unavailable, quotes the first error, and drops the findings that would blame
the agent or the skill for answers it never gave.
"""

from __future__ import annotations

from gate.config.decision import DecisionConfig
from gate.policy.reasons.run import AgentDown, Unreachable
from gate.policy.thresholds import Finding, Level
from gate.scoring.metrics import Metrics
from gate.trajectory import UNREACHABLE
from gate.verdict import RunVerdict


def unavailable(metrics: Metrics, verdicts: list[RunVerdict], settings: DecisionConfig) -> Finding | None:
    """The agent is unavailable — unreachable or answering nothing usable: most runs of a group ended
    in agent errors."""
    ordered = sorted(verdicts, key=lambda v: (v.case_id, v.group, v.run))
    unreachable = [v for v in ordered if v.error is not None and v.metadata.get(UNREACHABLE) is True]
    if unreachable and settings.outage_on_unreachable:
        return Finding(level=Level.RED_LINE, rule="agent-unavailable",
                       reason=Unreachable(runs=len(unreachable), first_error=unreachable[0].error))
    down = [(g, m) for g, m in sorted(metrics.overall.items())
            if m.runs and m.agent_errors / m.runs > settings.outage_share]
    if not down:
        return None
    first = next((v.error for v in ordered if v.error), "")
    return Finding(level=Level.RED_LINE, rule="agent-unavailable",
                   reason=AgentDown(groups=tuple((g, m.agent_errors, m.runs) for g, m in down), first_error=first))


OUTAGE_HIDES = frozenset({"regression", "regression-cleared", "dimension-regression", "min-a", "min-delta",
                          "red-line-delta", "skill-explicit-min-b", "red-line-skill-explicit", "consistency",
                          "stability-gain", "degradation-curve", "dimension-drift", "dimension-drift-cleared",
                          "detectable-drop"})
"""What an outage makes meaningless: verdicts on answers the agent never gave."""
