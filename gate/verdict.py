"""Verdicts: what a checker says of one constraint, and what a case run comes to."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import ConfigDict, Field

from gate.model import Model, SharedFieldNames


class Status(str, Enum):
    """A verdict. ``error``: could not decide (agent call failed, checker could not run)."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return self.value


class Outcome(Model):
    """What a checker returns: a status, one actionable line, and optional evidence."""

    model_config = ConfigDict(frozen=True)

    status: Status
    detail: str
    evidence: tuple[str, ...] = ()

    @classmethod
    def passed(cls, detail: str, evidence: tuple[str, ...] = ()) -> Outcome:
        return cls(status=Status.PASS, detail=detail, evidence=evidence)

    @classmethod
    def failed(cls, detail: str, evidence: tuple[str, ...] = ()) -> Outcome:
        return cls(status=Status.FAIL, detail=detail, evidence=evidence)

    @classmethod
    def errored(cls, detail: str) -> Outcome:
        return cls(status=Status.ERROR, detail=detail)

    @classmethod
    def of(cls, ok: bool, detail: str, evidence: tuple[str, ...] = ()) -> Outcome:
        return cls(status=Status.PASS if ok else Status.FAIL, detail=detail, evidence=evidence)


class ConstraintVerdict(SharedFieldNames):
    """The verdict on one constraint of one case run."""

    model_config = ConfigDict(frozen=True)

    id: str
    check: str
    status: Status
    detail: str
    evidence: tuple[str, ...] = ()
    source: Literal["judge", "human"] | None = None
    """Who decided when it was not the rule checkers: the LLM judge (``judge.gate``) or a human review."""


class RunVerdict(SharedFieldNames):
    """The verdict on one (case, group, run): pass when every judged rule constraint passes."""

    model_config = ConfigDict(frozen=True)

    case_id: str
    group: str
    run: int
    status: Status
    constraints: tuple[ConstraintVerdict, ...] = ()
    error: str | None = None
    metadata: dict[str, object] = Field(default_factory=dict)

    @property
    def unjudged(self) -> int:
        """Constraints no rule decided (judge rubrics): a pass is a pass on the rules only."""
        return sum(c.status is Status.SKIPPED for c in self.constraints)

    def failing(self) -> list[ConstraintVerdict]:
        """Constraints that failed or could not be decided."""
        return [c for c in self.constraints if c.status in (Status.FAIL, Status.ERROR)]


def combine(statuses: list[Status]) -> Status:
    """A case run's status from its rule constraints' statuses (judge-only → skipped)."""
    judged = [s for s in statuses if s is not Status.SKIPPED]
    if not judged:
        return Status.SKIPPED
    # A decided failure outranks an undecided constraint: the run cannot pass either way.
    if Status.FAIL in judged:
        return Status.FAIL
    if Status.ERROR in judged:
        return Status.ERROR
    return Status.PASS


class RunCount(SharedFieldNames):
    """Passing runs out of judged runs of one (case, group); skipped runs are not judged."""

    model_config = ConfigDict(frozen=True)

    passed: int = 0
    judged: int = 0

    @property
    def rate(self) -> float | None:
        return self.passed / self.judged if self.judged else None

    def shown(self) -> str:
        """"2 of 3 runs" — the count a reviewer reads to tell flaky from broken."""
        return f"{self.passed} of {self.judged} run{'s' if self.judged != 1 else ''}"
