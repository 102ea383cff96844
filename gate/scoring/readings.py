"""Each run's consistency key fields, read once: while the run is judged, from the subject its
checkers already parsed, and kept — a few short strings per run, not the parsed answer — for the
consistency pass over the case's runs."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from gate.case import Case, Consistency
from gate.process.budget import BudgetExceeded, enforced
from gate.runs.records import SpooledRun
from gate.scoring.fields import extract_from
from gate.subject import Subject
from gate.trajectory import Group, Trajectory

ERRORED = "<agent error>"
UNREAD = "<judging budget exceeded>"


def read_fields(settings: Consistency, subject: Subject | None, budget_s: float | None) -> list[str]:
    """One run's key fields, read within the judging budget (a field it cannot afford is its own value)."""
    if subject is None:
        return [ERRORED] * len(settings.fields)
    values = []
    with enforced(budget_s) as budget:
        for name in settings.fields:
            try:
                values.append(budget.run(partial(extract_from, name, subject)))
            except BudgetExceeded:
                values.append(UNREAD)
    return values


@dataclass(frozen=True, slots=True)
class RunRef:
    """A judged run as the consistency pass reads it once its fields are kept: which run it was,
    whether the agent failed, and what it did (its ``done_key``) — not its answer, so a long stream
    of runs need not be held to measure consistency at the end."""

    case_id: str
    group: Group
    run: int
    error: str | None
    done_key: bytes

    @classmethod
    def of(cls, trajectory: Trajectory, done_key: bytes) -> RunRef:
        return cls(trajectory.case_id, trajectory.group, trajectory.run, trajectory.error, done_key)


Run = Trajectory | RunRef | SpooledRun
RunKey = tuple[str, str, int]


class Readings:
    """Key fields of the runs judged so far, by (case, group, run), for the cases that measure
    consistency; each with the key of what the run did, so fields never pass to another run."""

    def __init__(self) -> None:
        self._by_run: dict[RunKey, tuple[bytes, list[str]]] = {}

    def keep(self, case: Case, subject: Subject, budget_s: float | None) -> None:
        trajectory = subject.trajectory
        if case.consistency is not None:
            self._by_run[trajectory.case_id, trajectory.group, trajectory.run] = (
                trajectory.done_key, read_fields(case.consistency, subject, budget_s))

    def fields_of(self, trajectory: Trajectory) -> list[str] | None:
        """The fields kept for this run, if any (what a verdict cache stores with its verdict)."""
        kept = self._by_run.get((trajectory.case_id, trajectory.group, trajectory.run))
        return None if kept is None else kept[1]

    def restore(self, trajectory: Trajectory, done_key: bytes, fields: list[str]) -> None:
        """Keep ``fields`` for this run, as read when its answer was first judged (a verdict cache's)."""
        self._by_run[trajectory.case_id, trajectory.group, trajectory.run] = (done_key, fields)

    def copy(self, first: RunKey, repeat: Trajectory, done_key: bytes) -> None:
        """``repeat`` (that did ``done_key``) did what the run ``first`` did: its fields are ``first``'s."""
        kept = self._by_run.get(first)
        if kept is not None and kept[0] == done_key:
            self._by_run[repeat.case_id, repeat.group, repeat.run] = kept

    def of(self, settings: Consistency, run: Run, budget_s: float | None) -> list[str]:
        """The run's fields as read while judging it, else read now (a RunRef's were kept)."""
        if run.error is not None:
            return read_fields(settings, None, budget_s)
        kept = self._by_run.get((run.case_id, run.group, run.run))
        if kept is not None and kept[0] == run.done_key:
            return kept[1]
        if isinstance(run, RunRef):
            raise ValueError(f"the consistency fields of {run.case_id} {run.group} run {run.run} were not kept")
        return read_fields(settings, Subject(run.whole()), budget_s)
