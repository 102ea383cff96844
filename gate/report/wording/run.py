"""The words about the run as a whole."""

from __future__ import annotations

from gate.policy.reasons.run import AgentDown, Interrupted, ShardOnly, Unreachable
from gate.report.wording.base import words


@words.register
def _unreachable(reason: Unreachable) -> str:
    runs = f"{reason.runs} run{'s' if reason.runs != 1 else ''}"
    return (f"the agent is unavailable (nothing listened on any attempt of {runs}) — an outage, not a regression; "
            f"the first error: {reason.first_error}")


@words.register
def _down(reason: AgentDown) -> str:
    counts = "; ".join(f"group {group}: {errors} of {runs} runs" for group, errors, runs in reason.groups)
    return (f"the agent is unavailable ({counts} ended in an agent error) — an outage or a broken agent, not a "
            f"regression; the first error: {reason.first_error}")


@words.register
def _shard(reason: ShardOnly) -> str:
    return "thresholds are enforced on the merged result (`gate merge`)"


@words.register
def _interrupted(reason: Interrupted) -> str:
    return "the run was interrupted: results are partial and never pass"
