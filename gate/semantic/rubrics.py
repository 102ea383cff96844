"""The rubrics of a case — the constraints only a judge can decide — and what its examples expect of them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gate.case import Case, Constraint, Example
from gate.judging.evaluate import outcome_of
from gate.subject import Subject
from gate.trajectory import Trajectory
from gate.verdict import Outcome, Status


@dataclass(frozen=True)
class Rubric:
    """One ``judge:`` node: the top-level constraint it belongs to and its place there."""

    case: Case
    constraint: Constraint
    """The top-level constraint (a rubric itself, or a combinator holding it)."""
    node: Constraint
    key: str
    """``content_complete``, or ``price_ok/any_of[1]`` for a rubric inside a combinator."""

    @property
    def constraint_id(self) -> str:
        return self.constraint.id or self.constraint.label

    @property
    def text(self) -> str:
        return self.node.judge or ""

    @property
    def alone(self) -> bool:
        """The constraint is the rubric itself (no rule beside it)."""
        return self.node is self.constraint


def _walk(node: Constraint, path: str) -> Iterator[tuple[Constraint, str]]:
    if node.judge is not None:
        yield node, path
    for index, child in enumerate(node.children):
        yield from _walk(child, f"{path}/{child.id or f'{node.kind}[{index}]'}")


def rubrics_of(case: Case, group: str) -> list[Rubric]:
    """Every rubric of ``case`` that binds ``group``, in the case file's order."""
    found = []
    for constraint in case.constraints:
        if constraint.applies_to(group):
            found += [Rubric(case, constraint, node, key)
                      for node, key in _walk(constraint, constraint.id or constraint.label)]
    return found


def has_rubrics(case: Case) -> bool:
    return any(rubrics_of(case, group) for group in case.groups)


def example_trajectory(case: Case, example: Example) -> Trajectory:
    """A case example as the trajectory of a first run."""
    return Trajectory(case_id=case.id, group=example.group, run=0, final_answer=example.final_answer,
                      tool_calls=example.tool_calls)


def expected_status(rubric: Rubric, example: Example) -> Status | None:
    """What the rubric must say of ``example``: known for a rubric alone (fail if the example names
    its constraint in ``fails``), and for a rubric in a combinator when only one of its two verdicts
    gives the constraint the status the example expects; None when the example does not decide it."""
    wanted = Status.FAIL if rubric.constraint_id in example.fails else Status.PASS
    return deciding_status(rubric, example_trajectory(rubric.case, example), wanted)


def deciding_status(rubric: Rubric, trajectory: Trajectory, wanted: Status) -> Status | None:
    """The rubric's verdict that alone gives its constraint the status ``wanted`` on ``trajectory``
    (a human's verdict on a constraint, or an example's label), or None when both or neither do."""
    if rubric.alone:
        return wanted
    subject = Subject(trajectory)
    fits = [status for status in (Status.PASS, Status.FAIL)
            if outcome_of(rubric.constraint, subject, {id(rubric.node): Outcome(status=status, detail="")}).status
            is wanted]
    return fits[0] if len(fits) == 1 else None
