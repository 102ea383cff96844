"""Verdicts: what a checker says of one constraint, and what a case run comes to."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import ConfigDict, Field

from gate.model import Model, SharedFieldNames


class Status(str, Enum):
    """A verdict. ``error``: could not decide (agent call failed, checker could not run).
    ``uncertain``: the answer has two readings that give different verdicts and the readers could
    not tell which is meant — never a pass; a human review settles it."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"
    SKIPPED = "skipped"
    UNCERTAIN = "uncertain"

    def __str__(self) -> str:
        return self.value


class Reading(SharedFieldNames):
    """One way of reading the answer for a constraint: what was read, the verdict it gives the
    constraint, and why it was chosen or set aside."""

    model_config = ConfigDict(frozen=True)

    label: str = Field(min_length=1)
    """What was read: "3 items from the numbered list"."""
    verdict: Status
    """The verdict this reading gives the constraint it is recorded on."""
    why: str = ""
    """Why it was chosen or set aside ("a plan lead-in precedes it")."""
    chosen: bool = False
    """The reading the verdict rests on (none is, when the verdict is uncertain)."""

    def describe(self) -> str:
        """«3 items from the numbered list» → pass, chosen (the list follows the request)."""
        chosen = ", chosen" if self.chosen else ""
        why = f" ({self.why})" if self.why else ""
        return f"«{self.label}» → {self.verdict.value}{chosen}{why}"


def describe_readings(readings: tuple[Reading, ...]) -> str:
    """Every reading on one line: "read as «…» → pass (…); or as «…» → fail (…)"."""
    if not readings:
        return ""
    return "read as " + "; or as ".join(r.describe() for r in readings)


class Outcome(Model):
    """What a checker returns: a status, one actionable line, optional evidence, and the readings of
    the answer it weighed (the chosen one and those set aside; on ``uncertain``, the ones it could
    not separate)."""

    model_config = ConfigDict(frozen=True)

    status: Status
    detail: str
    evidence: tuple[str, ...] = ()
    readings: tuple[Reading, ...] = ()

    @classmethod
    def passed(cls, detail: str, evidence: tuple[str, ...] = (), readings: tuple[Reading, ...] = ()) -> Outcome:
        return cls(status=Status.PASS, detail=detail, evidence=evidence, readings=_decided(Status.PASS, readings))

    @classmethod
    def failed(cls, detail: str, evidence: tuple[str, ...] = (), readings: tuple[Reading, ...] = ()) -> Outcome:
        return cls(status=Status.FAIL, detail=detail, evidence=evidence, readings=_decided(Status.FAIL, readings))

    @classmethod
    def errored(cls, detail: str) -> Outcome:
        return cls(status=Status.ERROR, detail=detail)

    @classmethod
    def uncertain(cls, detail: str, readings: tuple[Reading, ...], evidence: tuple[str, ...] = ()) -> Outcome:
        """Two (or more) readings of the answer give different verdicts and nothing separates them:
        both go on the record, none chosen."""
        if len({r.verdict for r in readings}) < 2:
            raise ValueError("an uncertain outcome needs at least two readings that give different verdicts")
        if any(r.chosen for r in readings):
            raise ValueError("an uncertain outcome rests on no chosen reading")
        return cls(status=Status.UNCERTAIN, detail=detail, evidence=evidence, readings=readings)

    @classmethod
    def of(cls, ok: bool, detail: str, evidence: tuple[str, ...] = (), readings: tuple[Reading, ...] = ()) -> Outcome:
        status = Status.PASS if ok else Status.FAIL
        return cls(status=status, detail=detail, evidence=evidence, readings=_decided(status, readings))


def _decided(status: Status, readings: tuple[Reading, ...]) -> tuple[Reading, ...]:
    """``readings`` of a pass or a fail: the chosen one (if marked) must give that verdict."""
    if any(r.chosen and r.verdict is not status for r in readings):
        raise ValueError(f"the chosen reading must give the outcome's verdict ({status})")
    return readings


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
    readings: tuple[Reading, ...] = ()
    """The readings of the answer the checker weighed, when it offers them (always, when uncertain)."""


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

    def uncertain(self) -> list[ConstraintVerdict]:
        """Constraints whose readings disagree: what a human review would settle."""
        return [c for c in self.constraints if c.status is Status.UNCERTAIN]


def combine(statuses: list[Status]) -> Status:
    """A case run's status from its rule constraints' statuses (judge-only → skipped)."""
    judged = [s for s in statuses if s is not Status.SKIPPED]
    if not judged:
        return Status.SKIPPED
    # A decided failure outranks an undecided constraint: the run cannot pass either way. An
    # uncertain one comes next — a human can settle it, and a checker error left behind still
    # keeps the run from passing once it is settled.
    for status in (Status.FAIL, Status.UNCERTAIN, Status.ERROR):
        if status in judged:
            return status
    return Status.PASS


class RunCount(SharedFieldNames):
    """Passing runs out of judged runs of one (case, group); skipped runs are not judged, and
    uncertain runs are counted apart: neither passed nor judged."""

    model_config = ConfigDict(frozen=True)

    passed: int = 0
    judged: int = 0
    uncertain: int = 0

    @property
    def rate(self) -> float | None:
        return self.passed / self.judged if self.judged else None

    def shown(self) -> str:
        """"2 of 3 runs" (", 1 uncertain") — the count a reviewer reads to tell flaky from broken."""
        unsure = f", {self.uncertain} uncertain" if self.uncertain else ""
        return f"{self.passed} of {self.judged} run{'s' if self.judged != 1 else ''}{unsure}"
