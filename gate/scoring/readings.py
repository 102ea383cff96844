"""Each run's consistency key fields, read once: while the run is judged, from the subject its
checkers already parsed, and kept — a few short strings per run, not the parsed answer — for the
consistency pass over the case's runs."""

from __future__ import annotations

from functools import partial

from gate.budget import BudgetExceeded, enforced
from gate.case import Case, Consistency
from gate.scoring.fields import extract_from
from gate.subject import Subject
from gate.trajectory import Trajectory

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


class Readings:
    """Key fields of the runs judged so far, by (case, group, run), for the cases that measure consistency."""

    def __init__(self) -> None:
        self._by_run: dict[tuple[str, str, int], tuple[Trajectory, list[str]]] = {}

    def keep(self, case: Case, subject: Subject, budget_s: float | None) -> None:
        trajectory = subject.trajectory
        if case.consistency is not None:
            self._by_run[trajectory.case_id, trajectory.group, trajectory.run] = (
                trajectory, read_fields(case.consistency, subject, budget_s))

    def copy(self, first: Trajectory, repeat: Trajectory) -> None:
        """``repeat`` did what ``first`` did: its fields are ``first``'s."""
        kept = self._by_run.get((first.case_id, first.group, first.run))
        if kept is not None and kept[0] is first:
            self._by_run[repeat.case_id, repeat.group, repeat.run] = (repeat, kept[1])

    def of(self, settings: Consistency, trajectory: Trajectory, budget_s: float | None) -> list[str]:
        """The run's fields as read while judging it, else read now."""
        kept = self._by_run.get((trajectory.case_id, trajectory.group, trajectory.run))
        if kept is not None and (kept[0] is trajectory or kept[0] == trajectory):
            return kept[1]
        return read_fields(settings, Subject(trajectory) if trajectory.error is None else None, budget_s)
