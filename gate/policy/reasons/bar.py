"""Reasons of a lowered bar: each thing a change removes or relaxes of the base's bar, and the finding
that names it."""

from __future__ import annotations

from dataclasses import dataclass

from gate.policy.reasons import Reason


@dataclass(frozen=True)
class Lowered(Reason):
    """A setting lowered (a number) or relaxed (a word) from ``before`` to ``after``; ``setting`` is its
    path in gate.yaml, ``case_id`` the case it belongs to (a case's own repeats). ``before`` None:
    each case's own value applied."""

    setting: tuple[str, ...]
    before: float | str | None
    after: float | str
    relaxed: bool = False
    case_id: str | None = None


@dataclass(frozen=True)
class LineSetBelow(Reason):
    """A per-dimension line set where there was none, below the line that applied."""

    dimension: str
    line: str
    value: float
    applied: float


@dataclass(frozen=True)
class TurnedOff(Reason):
    """A setting that made the gate stricter, turned off."""

    setting: tuple[str, ...]


@dataclass(frozen=True)
class CaseGone(Reason):
    """A case of the base no longer runs: removed, or no longer selected."""

    case_id: str


@dataclass(frozen=True)
class GroupRemoved(Reason):
    case_id: str
    group: str


@dataclass(frozen=True)
class ConstraintRemoved(Reason):
    case_id: str
    constraint: str


@dataclass(frozen=True)
class NoLongerNever(Reason):
    """A constraint that is no longer a never-rule (``zero_tolerance``)."""

    case_id: str
    constraint: str


@dataclass(frozen=True)
class ConstraintChanged(Reason):
    """A constraint whose check, parameters or groups changed: a change may relax it."""

    case_id: str
    constraint: str
    before: str
    after: str


@dataclass(frozen=True)
class BarLowered(Reason):
    """A change lowers the bar of the base commit ``ref`` by ``lowering``; ``acknowledged`` by a maintainer."""

    lowering: Reason
    ref: str
    acknowledged: bool
