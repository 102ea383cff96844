"""Judge a trajectory against its case: every rule constraint, combinators, judge rubrics skipped
(or, from the semantic tier, settled by the outcomes it gives them)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from gate.case import Case, Constraint
from gate.checkers import REGISTRY
from gate.process.budget import DEFAULT_BUDGET_S, Budget, BudgetExceeded, enforced
from gate.subject import Answers, Subject
from gate.trajectory import Trajectory
from gate.verdict import ConstraintVerdict, Outcome, Reading, RunVerdict, Status, combine

if TYPE_CHECKING:
    from gate.judging.verdict_cache import VerdictStore

Rubrics = Mapping[int, Outcome]
"""Outcomes of rubric constraints, keyed by ``id()`` of the rubric's Constraint node."""


class FieldKeeper(Protocol):
    """What keeps each run's consistency fields while it is judged (gate.scoring.readings.Readings):
    judging only hands it the parsed subject, so the reading stays with what measures it."""

    def keep(self, case: Case, subject: Subject, budget_s: float | None) -> None: ...

    def copy(self, first: tuple[str, str, int], repeat: Trajectory, done_key: bytes) -> None: ...

    def fields_of(self, trajectory: Trajectory) -> list[str] | None: ...

    def restore(self, trajectory: Trajectory, done_key: bytes, fields: list[str]) -> None: ...


UNJUDGED = Outcome(status=Status.SKIPPED, detail="semantic: judged by rubric, not gated")


def _judge(constraint: Constraint, subject: Subject, rubrics: Rubrics | None = None) -> Outcome:
    if constraint.judge is not None:
        return (rubrics or {}).get(id(constraint), UNJUDGED)
    if constraint.check is not None:
        params = constraint.parsed_params
        checker = REGISTRY[constraint.check]
        if params is None:  # a case built in code rather than loaded: validate now
            params = checker.params.model_validate(constraint.params)
        try:
            return checker(subject, params)
        except Exception as exc:
            return Outcome.errored(f"checker {constraint.check} could not run: {type(exc).__name__}: {exc}")
    outcomes = [(child, _judge(child, subject, rubrics)) for child in constraint.children]
    return _combine(constraint.kind, outcomes)


def outcome_of(constraint: Constraint, subject: Subject, rubrics: Rubrics | None = None) -> Outcome:
    """One constraint's outcome on ``subject``, its rubrics settled by ``rubrics`` (else skipped)."""
    return _judge(constraint, subject, rubrics)


def _name(child: Constraint) -> str:
    return child.id or child.label


_FLIPPED = {Status.PASS: Status.FAIL, Status.FAIL: Status.PASS}


def _status_of(kind: str, statuses: list[Status]) -> Status:
    """A combinator's status from its parts'. all_of: a failure outranks, then an uncertain part.
    any_of: one pass suffices, then an uncertain part; otherwise an undecided branch leaves it
    undecided — a branch only a judge can decide might still pass, so the rules must not fail the
    run for it. not: pass and fail swap; uncertain, error and skipped stay."""
    if kind == "not":
        return _FLIPPED.get(statuses[0], statuses[0])
    if kind == "all_of":
        return combine(statuses)
    for status in (Status.PASS, Status.UNCERTAIN, Status.ERROR, Status.SKIPPED):
        if status in statuses:
            return status
    return Status.FAIL


def _readings(kind: str, outcomes: list[tuple[Constraint, Outcome]], status: Status) -> tuple[Reading, ...]:
    """Each part's readings, as readings of the whole: the verdict a reading gives the combinator
    with that part read so and the other parts as they were judged. An uncertain whole carries only
    its uncertain parts' readings: those are what a reviewer settles."""
    statuses = [o.status for _, o in outcomes]
    found = []
    for index, (child, outcome) in enumerate(outcomes):
        if status is Status.UNCERTAIN and outcome.status is not Status.UNCERTAIN:
            continue
        for reading in outcome.readings:
            read = [*statuses[:index], reading.verdict, *statuses[index + 1:]]
            label = reading.label if kind == "not" else f"{_name(child)}: {reading.label}"
            found.append(reading.model_copy(update={"label": label, "verdict": _status_of(kind, read)}))
    return tuple(found)


def _combine(kind: str, outcomes: list[tuple[Constraint, Outcome]]) -> Outcome:
    status = _status_of(kind, [o.status for _, o in outcomes])
    readings = _readings(kind, outcomes, status) if any(o.readings for _, o in outcomes) else ()
    if kind == "not":
        inner = outcomes[0][1]
        if inner.status in (Status.ERROR, Status.SKIPPED):
            return inner
        return Outcome(status=status, detail=f"not ({inner.detail})", readings=readings)
    parts = "; ".join(f"{_name(c)}: {o.status} — {o.detail}" for c, o in outcomes)
    head = "none of" if kind == "any_of" and status is Status.FAIL else kind.replace("_", " ")
    return Outcome(status=status, detail=f"{head}: {parts}", readings=readings)


def _within(budget: Budget, constraint: Constraint, subject: Subject, rubrics: Rubrics | None) -> Outcome:
    if constraint.judge is not None:  # a rubric costs nothing here: it is left to the semantic tier
        return _judge(constraint, subject, rubrics)
    if budget.spent:
        return Outcome.errored(f"not judged: the judging budget ({budget.describe()}) was spent before this constraint")
    try:
        return budget.run(lambda: _judge(constraint, subject, rubrics))
    except BudgetExceeded:
        size = len(subject.answer.encode("utf-8", "replace"))
        return Outcome.errored(f"judging budget ({budget.describe()}) exceeded while checking this constraint "
                               f"(answer of {size:,} bytes)")


def evaluate(case: Case, trajectory: Trajectory, *, budget_s: float | None = DEFAULT_BUDGET_S,
             rubrics: Rubrics | None = None, readings: FieldKeeper | None = None,
             answers: Answers | None = None) -> RunVerdict:
    """The verdict on one run: error if the agent call failed, else from its constraints, all
    judged within ``budget_s`` seconds (a constraint still running then is recorded as an error).
    ``rubrics``: the semantic tier's outcomes of rubric constraints, which then count like rules.
    ``readings``: where to keep the run's consistency fields, read from the same parsed answer.
    ``answers``: analyses of answers judged before, shared with this run when its answer is one."""
    base = {"case_id": trajectory.case_id, "group": trajectory.group, "run": trajectory.run,
            "metadata": dict(trajectory.metadata)}
    if trajectory.error is not None:
        return RunVerdict(**base, status=Status.ERROR, error=trajectory.error)
    subject = Subject(trajectory, answers)
    verdicts = []
    with enforced(budget_s) as budget:
        for constraint in case.constraints:
            if not constraint.applies_to(trajectory.group):
                continue
            outcome = _within(budget, constraint, subject, rubrics)
            verdicts.append(ConstraintVerdict(
                id=constraint.id or constraint.label, check=constraint.label, status=outcome.status,
                detail=outcome.detail, evidence=outcome.evidence, readings=outcome.readings,
            ))
    if readings is not None:
        readings.keep(case, subject, budget_s)
    return RunVerdict(**base, status=combine([v.status for v in verdicts]), constraints=tuple(verdicts))


_METADATA_KEPT = 1024
"""Distinct metadata shared at most: a run's own timings make every one distinct."""


class Judgements:
    """Judges runs once per distinct answer: a repeat whose final answer and tool calls are those of
    a run already judged (a deterministic agent's repeats, a cached rerun) gets that verdict, under
    its own run number and metadata — the checkers read nothing else of a run."""

    def __init__(self, cases: Mapping[str, Case], budget_s: float | None = DEFAULT_BUDGET_S,
                 readings: FieldKeeper | None = None, store: VerdictStore | None = None,
                 case_digests: Mapping[str, str] | None = None) -> None:
        self._cases = cases
        self._budget_s = budget_s
        self._readings = readings
        self._answers = Answers()  # another case or group that got the same answer reads its parse
        self._store = store  # verdicts judged by an earlier run, by case file digest (``case_digests``)
        self._case_digests = case_digests or {}
        # the first run of each distinct answer: its verdict and its key, not its trajectory
        self._seen: dict[tuple[str, str, bytes], tuple[RunVerdict, tuple[str, str, int]]] = {}
        # metadata as text → one dict for every verdict whose run recorded exactly that
        self._metadata: dict[str, dict[str, Any]] = {}

    def __call__(self, trajectory: Trajectory, done_key: bytes | None = None) -> RunVerdict:
        """The run's verdict; ``done_key``: its ``Trajectory.done_key``, when the caller has it already."""
        case = self._cases[trajectory.case_id]
        if trajectory.error is not None:
            return evaluate(case, trajectory, budget_s=self._budget_s)
        done_key = trajectory.done_key if done_key is None else done_key
        key = (trajectory.case_id, trajectory.group, done_key)
        seen = self._seen.get(key)
        if seen is None:
            verdict = self._stored(case, trajectory, done_key) or self._judged(case, trajectory, done_key)
            self._seen[key] = (verdict, (trajectory.case_id, trajectory.group, trajectory.run))
            return verdict
        verdict, first = seen
        if self._readings is not None:
            self._readings.copy(first, trajectory, done_key)
        return verdict.model_copy(update={"run": trajectory.run, "metadata": self._shared(trajectory.metadata)})

    def _judged(self, case: Case, trajectory: Trajectory, done_key: bytes) -> RunVerdict:
        verdict = evaluate(case, trajectory, budget_s=self._budget_s, readings=self._readings, answers=self._answers)
        verdict = verdict.model_copy(update={"metadata": self._shared(trajectory.metadata)})
        digest = self._case_digests.get(case.id)
        if self._store is not None and digest is not None:
            fields = self._readings.fields_of(trajectory) if self._readings is not None else None
            self._store.put(digest, done_key, verdict, fields if case.consistency is not None else None)
        return verdict

    def _stored(self, case: Case, trajectory: Trajectory, done_key: bytes) -> RunVerdict | None:
        """The verdict an earlier run gave this answer, when the store has it (with the consistency
        fields, when the case measures them and they are being kept)."""
        digest = self._case_digests.get(case.id)
        if self._store is None or digest is None:
            return None
        stored = self._store.get(case.id, digest, trajectory.group, done_key)
        wanted = case.consistency is not None and self._readings is not None
        if stored is None or (wanted and stored.fields is None):
            return None
        if wanted and self._readings is not None and stored.fields is not None:
            self._readings.restore(trajectory, done_key, list(stored.fields))
        verdict = RunVerdict(case_id=trajectory.case_id, group=trajectory.group, run=trajectory.run,
                             status=stored.status, constraints=stored.constraints)
        return verdict.model_copy(update={"metadata": self._shared(trajectory.metadata)})

    def _shared(self, metadata: dict[str, Any]) -> dict[str, Any]:
        """A copy of ``metadata``, one for all runs that recorded the same (verdicts never change
        their metadata): a long recording's runs then cost their verdict, not their metadata."""
        try:
            text = json.dumps(metadata, sort_keys=True, ensure_ascii=False)  # tells 1, 1.0 and true apart
        except (TypeError, ValueError):
            return dict(metadata)
        if len(self._metadata) >= _METADATA_KEPT and text not in self._metadata:
            return dict(metadata)
        return self._metadata.setdefault(text, dict(metadata))
