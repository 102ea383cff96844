"""Metrics from verdicts: per suite × dimension × group pass rates, follow rates, deltas, attribution."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from enum import Enum

from pydantic import ConfigDict, Field

from gate.case import Case
from gate.model import Model, SharedFieldNames
from gate.verdict import RunCount, RunVerdict, Status


class Attribution(str, Enum):
    """Who is to blame for a failing case (the seed's rule)."""

    AGENT = "agent"
    SKILL = "skill"


def _rate(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


class GroupMetrics(Model):
    """Counts and rates of one group over a set of runs. Agent errors count as judged, not passed;
    uncertain runs (readings that disagree) are left out of the rates like skipped ones, and counted
    apart — never as passes.

    The case pass rate is the mean over cases of each case's pass rate, so every case weighs the
    same however often it ran (confirm reruns add runs to a few cases only); with the same number of
    runs per case it is passing runs / judged runs.
    """

    model_config = ConfigDict(frozen=True)

    runs: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    agent_errors: int = 0
    """Of ``errors``: runs whose agent call failed (the rest had a checker error or ran out of judging budget)."""
    skipped: int = 0
    uncertain: int = 0
    """Runs whose verdict is uncertain: neither passed nor judged until a human review settles them."""
    constraints_passed: int = 0
    constraints_judged: int = 0
    case_counts: tuple[tuple[int, int], ...] = ()
    """(passed, judged) runs of each judged case, in case id order."""

    @property
    def judged(self) -> int:
        return self.passed + self.failed + self.errors

    @property
    def cases_judged(self) -> int:
        return len(self.case_counts)

    @property
    def case_pass_rate(self) -> float | None:
        """Mean of the judged cases' pass rates; None when nothing was judged."""
        return round(self.exact_rate, 4) if self.case_counts else None

    @property
    def exact_rate(self) -> float:
        return sum(p / j for p, j in self.case_counts) / len(self.case_counts) if self.case_counts else 0.0

    @property
    def effective_runs(self) -> float:
        """The runs behind the mean, weighted so each case counts once: n² / Σ 1/runsᵢ (the total
        number of runs when every case ran equally often)."""
        n = len(self.case_counts)
        return n * n / sum(1 / j for _, j in self.case_counts) if n else 0.0

    @property
    def constraint_follow_rate(self) -> float | None:
        return _rate(self.constraints_passed, self.constraints_judged)

    def interval(self, confidence: float) -> tuple[float, float] | None:
        """Wilson interval of the case pass rate over the effective runs. The golden cases are a
        fixed set, so the uncertainty is the agent's run-to-run randomness; the binomial variance
        bounds that of cases with different rates, so the interval errs on the wide side."""
        from gate.scoring.stats import wilson_interval

        if not self.case_counts:
            return None
        n = self.effective_runs
        low, high = wilson_interval(self.exact_rate * n, n, confidence)
        return round(low, 4), round(high, 4)

    def as_json(self) -> dict[str, object]:
        data = self.model_dump(exclude={"case_counts", "agent_errors"})
        return {
            **data,
            "judged": self.judged,
            "cases": self.cases_judged,
            "case_pass_rate": self.case_pass_rate,
            "constraint_follow_rate": self.constraint_follow_rate,
        }


_UNJUDGED = (Status.SKIPPED, Status.UNCERTAIN)
"""Verdicts left out of rates: rubrics no rule decides, and readings that disagree."""


def _group_metrics(outcomes: list[tuple[RunCount, list[RunVerdict]]]) -> GroupMetrics:
    counts = {"runs": 0, "passed": 0, "failed": 0, "errors": 0, "agent_errors": 0, "skipped": 0, "uncertain": 0,
              "constraints_passed": 0, "constraints_judged": 0}
    judged_cases = []
    for count, verdicts in outcomes:
        for verdict in verdicts:
            judged = [c for c in verdict.constraints if c.status not in _UNJUDGED]
            counts["runs"] += 1
            counts["passed"] += verdict.status is Status.PASS
            counts["failed"] += verdict.status is Status.FAIL
            counts["errors"] += verdict.status is Status.ERROR
            counts["agent_errors"] += verdict.error is not None
            counts["skipped"] += verdict.status is Status.SKIPPED
            counts["uncertain"] += verdict.status is Status.UNCERTAIN
            counts["constraints_passed"] += sum(c.status is Status.PASS for c in judged)
            counts["constraints_judged"] += len(judged)
        if count.judged:
            judged_cases.append((count.passed, count.judged))
    return GroupMetrics(**counts, case_counts=tuple(judged_cases))


class CaseOutcome(SharedFieldNames):
    """One case over its runs: per group the pass count and a status by majority of the runs."""

    model_config = ConfigDict(frozen=True)

    case_id: str
    groups: dict[str, Status]
    counts: dict[str, RunCount] = Field(default_factory=dict)
    attribution: Attribution | None = None


def dimension_key(case: Case) -> str:
    """Suite and dimension: B3/FC and X/FC are different dimensions."""
    return f"{case.suite}/{case.dimension}"


def count_runs(verdicts: Iterable[RunVerdict]) -> RunCount:
    statuses = [v.status for v in verdicts]
    return RunCount(passed=statuses.count(Status.PASS), judged=sum(s not in _UNJUDGED for s in statuses),
                    uncertain=statuses.count(Status.UNCERTAIN))


def case_status(verdicts: Iterable[RunVerdict]) -> Status:
    """A case-group's status over its runs: pass when most runs passed (one bad run of several
    does not fail a case: the article's majority vote); otherwise fail, or error when no run failed
    outright; skipped when nothing was judged. Uncertain runs are weighed both ways: the status is
    pass or fail only when it would be so whatever they turn out to be, and uncertain otherwise."""
    statuses = [v.status for v in verdicts if v.status is not Status.SKIPPED]
    if not statuses:
        return Status.SKIPPED
    passed, unsure = statuses.count(Status.PASS), statuses.count(Status.UNCERTAIN)
    if 2 * passed > len(statuses):
        return Status.PASS
    if 2 * (passed + unsure) > len(statuses):
        return Status.UNCERTAIN
    return Status.FAIL if Status.FAIL in statuses else Status.ERROR


def attribute(groups: dict[str, Status]) -> Attribution | None:
    """A fails → agent; A passes and B fails → skill; both fail → agent; else nobody (nor when
    A is uncertain: who is to blame depends on how its answers are read)."""
    a, b = groups.get("A"), groups.get("B")
    failing = (Status.FAIL, Status.ERROR)
    if a in failing:
        return Attribution.AGENT
    if b in failing and a is not Status.UNCERTAIN:
        return Attribution.SKILL if a is Status.PASS else Attribution.AGENT
    return None


class Metrics(Model):
    """Everything the policy and the reports need, computed once."""

    model_config = ConfigDict(frozen=True)

    dimensions: dict[str, dict[str, GroupMetrics]]
    skill_explicit: dict[str, GroupMetrics]
    overall: dict[str, GroupMetrics]
    cases: dict[str, CaseOutcome]
    case_dimension: dict[str, str] = Field(default_factory=dict)
    """Each judged case's dimension key (B3/QC)."""

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
                      "counts": {g: c.model_dump() for g, c in sorted(o.counts.items())},
                      "attribution": o.attribution.value if o.attribution else None}
                for cid, o in sorted(self.cases.items())
            },
        }


def compute(cases: dict[str, Case], verdicts: Iterable[RunVerdict]) -> Metrics:
    """Aggregate run verdicts of known cases into :class:`Metrics`."""
    by_case: dict[str, dict[str, list[RunVerdict]]] = defaultdict(lambda: defaultdict(list))
    for verdict in verdicts:
        by_case[verdict.case_id][verdict.group].append(verdict)
    dimensions: dict[str, dict[str, list[tuple[RunCount, list[RunVerdict]]]]] = defaultdict(lambda: defaultdict(list))
    explicit: dict[str, list[tuple[RunCount, list[RunVerdict]]]] = defaultdict(list)
    overall: dict[str, list[tuple[RunCount, list[RunVerdict]]]] = defaultdict(list)
    outcomes = {}
    for case_id in sorted(by_case):
        case, groups = cases[case_id], by_case[case_id]
        counts = {g: count_runs(vs) for g, vs in sorted(groups.items())}
        for group, runs in sorted(groups.items()):
            entry = (counts[group], runs)
            dimensions[dimension_key(case)][group].append(entry)
            overall[group].append(entry)
            if case.skill_explicit:
                explicit[group].append(entry)
        statuses = {g: case_status(vs) for g, vs in sorted(groups.items())}
        outcomes[case_id] = CaseOutcome(case_id=case_id, groups=statuses, counts=counts,
                                        attribution=attribute(statuses))
    return Metrics(
        dimensions={k: {g: _group_metrics(e) for g, e in v.items()} for k, v in dimensions.items()},
        skill_explicit={g: _group_metrics(e) for g, e in explicit.items()},
        overall={g: _group_metrics(e) for g, e in overall.items()},
        cases=outcomes,
        case_dimension={cid: dimension_key(cases[cid]) for cid in outcomes},
    )
