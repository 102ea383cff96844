"""Self-test the case set: each case's pass examples must pass, its fail examples must fail as stated."""

from __future__ import annotations

from dataclasses import dataclass

from gate.case import Case, Example
from gate.judging.evaluate import evaluate
from gate.trajectory import Trajectory
from gate.verdict import ConstraintVerdict, Status, describe_readings


@dataclass(frozen=True)
class Problem:
    """A case whose checkers cannot tell its examples apart as the case says."""

    case_id: str
    path: str
    message: str


def _trajectory(case: Case, example: Example) -> Trajectory:
    return Trajectory(case_id=case.id, group=example.group, run=0,
                      final_answer=example.final_answer, tool_calls=example.tool_calls)


def _why(verdict: ConstraintVerdict) -> str:
    """The detail, and on an uncertain verdict the readings it could not separate: an example the
    case says passes or fails must read one way."""
    if verdict.status is Status.UNCERTAIN and verdict.readings:
        return f"{verdict.detail} ({describe_readings(verdict.readings)})"
    return verdict.detail


def check_examples(case: Case) -> list[Problem]:
    """Problems with ``case``'s examples (an aggregate case has none to check)."""
    if case.examples is None:
        return []
    problems: list[str] = []
    rule_ids = {c.id for c in case.constraints if c.is_rule and c.id is not None}
    for index, example in enumerate(case.examples.pass_):
        verdict = evaluate(case, _trajectory(case, example))
        for c in verdict.constraints:
            if c.id in rule_ids and c.status is not Status.PASS:
                problems.append(f"pass[{index}]: constraint '{c.id}' is {c.status}, expected pass — {_why(c)}")
    covered: set[str] = set()
    for index, example in enumerate(case.examples.fail):
        verdict = evaluate(case, _trajectory(case, example))
        statuses = {c.id: c for c in verdict.constraints}
        for name in example.fails:
            constraint = case.constraint(name)
            if constraint is None:
                problems.append(f"fail[{index}]: fails names unknown constraint '{name}'")
            elif name not in statuses:
                problems.append(f"fail[{index}]: constraint '{name}' does not apply to group {example.group}")
            elif constraint.is_rule and statuses[name].status is not Status.FAIL:
                got = statuses[name]
                problems.append(f"fail[{index}]: constraint '{name}' is {got.status}, expected fail — {_why(got)}")
            else:
                covered.add(name)
        for c in verdict.constraints:
            if c.id in rule_ids and c.id not in example.fails and c.status is not Status.PASS:
                problems.append(f"fail[{index}]: constraint '{c.id}' is {c.status} but not listed in fails — {_why(c)}")
    for name in sorted(rule_ids - covered):
        problems.append(f"rule constraint '{name}' has no fail example that fails it")
    return [Problem(case.id, case.path, message) for message in problems]
