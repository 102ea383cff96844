"""Compare: how the metrics of this run differ from the committed baseline, and the baseline the
metrics of a run would record. Descriptive only: what the differences mean is decided in gate.policy."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from gate.baseline.store import SCHEMA, Acceptance, Baseline, StoredCount
from gate.model import Model
from gate.scoring.metrics import Metrics
from gate.verdict import RunCount, Status

State = Literal["new-failure", "known-failure", "fixed", "new-case", "passing", "skipped", "uncertain"]
"""A (case, group) against the baseline, by the majority of its runs now and there."""


def from_metrics(metrics: Metrics, *, cases_digest: str, identity: dict[str, Any],
                 runs_per_case: int | None = None, calibration: dict[str, Any] | None = None) -> Baseline:
    """The baseline of computed metrics: every judged (case, group) with its counts (and one whose
    runs were all uncertain, so that a later check knows it was)."""
    return Baseline(
        schema_=SCHEMA, cases_digest=cases_digest, identity=identity, runs_per_case=runs_per_case,
        dimensions={key: {g: m.case_pass_rate for g, m in sorted(groups.items())}
                    for key, groups in sorted(metrics.dimensions.items())},
        cases={cid: {g: StoredCount.of(c) for g, c in sorted(o.counts.items()) if c.judged or c.uncertain}
               for cid, o in sorted(metrics.cases.items()) if any(c.judged or c.uncertain for c in o.counts.values())},
        calibration=calibration,
    )


class Comparison(Model):
    """How this run differs from the baseline (descriptive: the decisions are made elsewhere)."""

    model_config = ConfigDict(frozen=True)

    present: bool
    stale: bool = False
    other_agent: bool = False
    """The baseline was recorded with another agent identity or policy-relevant config."""
    from_v1: bool = False
    """The baseline is a v1 file, read as one run per case."""
    newly_failing: tuple[tuple[str, str], ...] = ()
    """(case, group) pairs failing by majority now that passed by majority in the baseline."""
    newly_passing: tuple[tuple[str, str], ...] = ()
    dimensions: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    """Baseline pass rate per dimension and group."""
    counts: dict[str, dict[str, RunCount]] = Field(default_factory=dict)
    """Baseline pass counts per case and group."""
    accepted: tuple[Acceptance, ...] = ()
    """The never-rule violations the baseline accepts on the record."""

    def count(self, case_id: str, group: str) -> RunCount | None:
        return self.counts.get(case_id, {}).get(group)

    def state(self, case_id: str, group: str, status: Status) -> State:
        """Where a (case, group) stands against the baseline: known vs new, failing vs fixed."""
        if status is Status.SKIPPED:
            return "skipped"
        if status is Status.UNCERTAIN:  # its readings disagree: neither a failure nor a pass until settled
            return "uncertain"
        before = self.count(case_id, group)
        if before is None or not before.judged:
            return "new-case"
        was_passing = 2 * before.passed > before.judged
        if status is Status.PASS:
            return "passing" if was_passing else "fixed"
        return "new-failure" if was_passing else "known-failure"

    def as_json(self) -> dict[str, Any]:
        return {
            "present": self.present,
            "stale": self.stale,
            "other_agent": self.other_agent,
            "from_v1": self.from_v1,
            "newly_failing": [list(pair) for pair in self.newly_failing],
            "newly_passing": [list(pair) for pair in self.newly_passing],
            "dimensions": self.dimensions,
        }


_FAILING = (Status.FAIL, Status.ERROR)


def compare(baseline: Baseline | None, metrics: Metrics, digest: str,
            identity: dict[str, Any] | None = None) -> Comparison:
    """Newly failing / passing (case, group) pairs, with the baseline's counts and rates."""
    if baseline is None:
        return Comparison(present=False)
    other_agent = identity is not None and bool(baseline.identity) and baseline.identity != identity
    failing, passing = [], []
    for case_id, outcome in sorted(metrics.cases.items()):
        for group, status in sorted(outcome.groups.items()):
            before = baseline.count(case_id, group)
            if before is None or before.rate is None:
                continue
            was_passing = 2 * before.passed > before.judged
            if was_passing and status in _FAILING:
                failing.append((case_id, group))
            elif not was_passing and status is Status.PASS:
                passing.append((case_id, group))
    counts = {cid: {g: c.count() for g, c in groups.items()} for cid, groups in baseline.cases.items()}
    return Comparison(present=True, stale=baseline.cases_digest != digest, other_agent=other_agent,
                      from_v1=baseline.converted_from_v1, newly_failing=tuple(failing),
                      newly_passing=tuple(passing), dimensions=baseline.dimensions, counts=counts,
                      accepted=baseline.accepted)
