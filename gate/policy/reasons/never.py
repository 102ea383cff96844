"""Reasons of the never-rules and of the runs the readers could not read one way."""

from __future__ import annotations

from dataclasses import dataclass

from gate.baseline.store import Acceptance
from gate.policy.reasons import Reason
from gate.verdict import ConstraintVerdict, RunCount


@dataclass(frozen=True)
class NeverBroken(Reason):
    """A never-rule broken in some runs of a (case, group): which runs (in order), of how many judged,
    what the first said, and the acceptance on the record, if any."""

    case_id: str
    constraint: str
    group: str
    runs: tuple[int, ...]
    judged: int
    first_detail: str
    acceptance: Acceptance | None = None


@dataclass(frozen=True)
class StandingAcceptance(Reason):
    """An acceptance on the record whose never-rule was not broken in this run."""

    acceptance: Acceptance


@dataclass(frozen=True)
class Uncertain(Reason):
    """A (case, group) with uncertain runs: how many of its judged runs, the baseline's record of the
    pair (None: no record), whether that record was uncertain too (``known``), and the first uncertain
    run of each constraint (run, constraint)."""

    case_id: str
    group: str
    uncertain: int
    total: int
    baseline: RunCount | None
    known: bool
    shown: tuple[tuple[int, ConstraintVerdict], ...]


@dataclass(frozen=True)
class NeverUncertain(Reason):
    """A never-rule uncertain in some runs of a (case, group): the first such run, and the day its
    violation was accepted on the record, if it was."""

    case_id: str
    group: str
    uncertain: int
    total: int
    run: int
    first: ConstraintVerdict
    accepted_on: str | None = None
