"""Metrics from verdicts: per suite × dimension × group pass rates, follow rates, deltas, attribution."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from enum import Enum

from pydantic import BaseModel, ConfigDict

from gate.case import Case
from gate.verdict import RunVerdict, Status


class Attribution(str, Enum):
    """Who is to blame for a failing case (the seed's rule)."""

    AGENT = "agent"
    SKILL = "skill"


def _rate(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


class GroupMetrics(BaseModel):
    """Counts and rates of one group over a set of runs. Agent errors count as judged, not passed."""

    model_config = ConfigDict(frozen=True)

    runs: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    constraints_passed: int = 0
    constraints_judged: int = 0

    @property
    def judged(self) -> int:
        return self.passed + self.failed + self.errors

    @property
    def case_pass_rate(self) -> float | None:
        """Passing runs / judged runs; None when nothing was judged."""
        return _rate(self.passed, self.judged)

    @property
    def constraint_follow_rate(self) -> float | None:
        return _rate(self.constraints_passed, self.constraints_judged)

    def add(self, verdict: RunVerdict) -> GroupMetrics:
        judged = [c for c in verdict.constraints if c.status is not Status.SKIPPED]
        return GroupMetrics(
            runs=self.runs + 1,
            passed=self.passed + (verdict.status is Status.PASS),
            failed=self.failed + (verdict.status is Status.FAIL),
            errors=self.errors + (verdict.status is Status.ERROR),
            skipped=self.skipped + (verdict.status is Status.SKIPPED),
            constraints_passed=self.constraints_passed + sum(c.status is Status.PASS for c in judged),
            constraints_judged=self.constraints_judged + len(judged),
        )

    def as_json(self) -> dict[str, object]:
        return {
            **self.model_dump(),
            "judged": self.judged,
            "case_pass_rate": self.case_pass_rate,
            "constraint_follow_rate": self.constraint_follow_rate,
        }


class CaseOutcome(BaseModel):
    """One case over its runs: status per group (pass only if every judged run passed)."""

    model_config = ConfigDict(frozen=True)

    case_id: str
    groups: dict[str, Status]
    attribution: Attribution | None = None


def dimension_key(case: Case) -> str:
    """Suite and dimension: B3/FC and X/FC are different dimensions."""
    return f"{case.suite}/{case.dimension}"


def case_status(verdicts: Iterable[RunVerdict]) -> Status:
    """A case-group's status over its runs: fail if any run failed, error if any errored, …"""
    statuses = [v.status for v in verdicts]
    for status in (Status.FAIL, Status.ERROR, Status.PASS):
        if status in statuses:
            return status
    return Status.SKIPPED


def attribute(groups: dict[str, Status]) -> Attribution | None:
    """A fails → agent; A passes and B fails → skill; both fail → agent; else nobody."""
    a, b = groups.get("A"), groups.get("B")
    failing = (Status.FAIL, Status.ERROR)
    if a in failing:
        return Attribution.AGENT
    if b in failing:
        return Attribution.SKILL if a is Status.PASS else Attribution.AGENT
    return None


class Metrics(BaseModel):
    """Everything the policy and the reports need, computed once."""

    model_config = ConfigDict(frozen=True)

    dimensions: dict[str, dict[str, GroupMetrics]]
    skill_explicit: dict[str, GroupMetrics]
    overall: dict[str, GroupMetrics]
    cases: dict[str, CaseOutcome]

    def delta(self, dimension: str) -> float | None:
        """B − A case pass rate of a dimension, when both were judged."""
        groups = self.dimensions.get(dimension, {})
        a = groups["A"].case_pass_rate if "A" in groups else None
        b = groups["B"].case_pass_rate if "B" in groups else None
        return round(b - a, 4) if a is not None and b is not None else None

    def as_json(self) -> dict[str, object]:
        return {
            "dimensions": {
                key: {
                    "groups": {g: m.as_json() for g, m in sorted(groups.items())},
                    "delta": self.delta(key),
                }
                for key, groups in sorted(self.dimensions.items())
            },
            "skill_explicit": {g: m.as_json() for g, m in sorted(self.skill_explicit.items())},
            "overall": {g: m.as_json() for g, m in sorted(self.overall.items())},
            "cases": {
                cid: {"groups": {g: str(s) for g, s in sorted(o.groups.items())},
                      "attribution": o.attribution.value if o.attribution else None}
                for cid, o in sorted(self.cases.items())
            },
        }


def compute(cases: dict[str, Case], verdicts: Iterable[RunVerdict]) -> Metrics:
    """Aggregate run verdicts of known cases into :class:`Metrics`."""
    dimensions: dict[str, dict[str, GroupMetrics]] = defaultdict(lambda: defaultdict(GroupMetrics))
    explicit: dict[str, GroupMetrics] = defaultdict(GroupMetrics)
    overall: dict[str, GroupMetrics] = defaultdict(GroupMetrics)
    by_case: dict[str, dict[str, list[RunVerdict]]] = defaultdict(lambda: defaultdict(list))
    for verdict in verdicts:
        case = cases[verdict.case_id]
        key, group = dimension_key(case), verdict.group
        dimensions[key][group] = dimensions[key][group].add(verdict)
        overall[group] = overall[group].add(verdict)
        if case.skill_explicit:
            explicit[group] = explicit[group].add(verdict)
        by_case[case.id][group].append(verdict)
    outcomes = {}
    for case_id, groups in by_case.items():
        statuses = {g: case_status(vs) for g, vs in groups.items()}
        outcomes[case_id] = CaseOutcome(case_id=case_id, groups=statuses, attribution=attribute(statuses))
    return Metrics(
        dimensions={k: dict(v) for k, v in dimensions.items()},
        skill_explicit=dict(explicit),
        overall=dict(overall),
        cases=outcomes,
    )
