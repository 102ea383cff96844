"""Reasons about the run as a whole: the agent unavailable, a shard, an interruption."""

from __future__ import annotations

from dataclasses import dataclass

from gate.policy.reasons import Reason


@dataclass(frozen=True)
class Unreachable(Reason):
    """Nothing listened on any attempt of ``runs`` runs; the first error."""

    runs: int
    first_error: str | None


@dataclass(frozen=True)
class AgentDown(Reason):
    """Most runs of some groups ended in agent errors: (group, agent errors, runs) each; the first error."""

    groups: tuple[tuple[str, int, int], ...]
    first_error: str


@dataclass(frozen=True)
class ShardOnly(Reason):
    """A shard's check: the lines are decided on the merged result."""


@dataclass(frozen=True)
class Interrupted(Reason):
    """The run was interrupted: its results are partial."""
