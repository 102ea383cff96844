"""The committed baseline: pass counts per (case, group) and rates per dimension, and what changed.

Storage only: the decisions on what the differences mean are in :mod:`gate.decision`.
Schema ``gate.baseline/v2`` stores counts (``{"passed": 4, "runs": 5}``) so a decision can weigh
how sure the baseline itself is; a ``gate.baseline/v1`` file (one status per case) still loads,
read as one run per case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gate import safejson
from gate.atomic import write_json
from gate.errors import GateError
from gate.scoring.metrics import Metrics, RunCount
from gate.verdict import Status
from gate.yamlio import dotted

SCHEMA = "gate.baseline/v2"
SCHEMA_V1 = "gate.baseline/v1"

Rate = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]
State = Literal["new-failure", "known-failure", "fixed", "new-case", "passing", "skipped"]
"""A (case, group) against the baseline, by the majority of its runs now and there."""


class StoredCount(BaseModel):
    """Passing runs out of judged runs, as recorded."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    passed: int = Field(ge=0)
    runs: int = Field(ge=1)

    @model_validator(mode="after")
    def _passed_within_runs(self) -> StoredCount:
        if self.passed > self.runs:
            raise ValueError(f"passed ({self.passed}) exceeds runs ({self.runs})")
        return self

    def count(self) -> RunCount:
        return RunCount(passed=self.passed, judged=self.runs)


class Baseline(BaseModel):
    """baselines/<name>.json: per-(case, group) pass counts, per-dimension rates, digest, identity."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_: str = Field(alias="schema", pattern=r"^gate\.baseline/v2$")
    cases_digest: str
    identity: dict[str, Any] = Field(default_factory=dict)
    runs_per_case: int | None = Field(None, ge=1)
    """How many runs of each planned job the baseline was recorded from (``--runs``)."""
    dimensions: dict[str, dict[str, Rate | None]]
    cases: dict[str, dict[str, StoredCount]]
    calibration: dict[str, Any] | None = None
    """What `gate baseline update --runs` measured: flaky cases and the runs needed to decide."""
    converted_from_v1: bool = Field(False, exclude=True)
    """Read from a v1 file (one run per case): too thin for most decisions; never written."""

    def count(self, case_id: str, group: str) -> RunCount | None:
        stored = self.cases.get(case_id, {}).get(group)
        return stored.count() if stored is not None else None


class _BaselineV1(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_: str = Field(alias="schema", pattern=r"^gate\.baseline/v1$")
    cases_digest: str
    identity: dict[str, Any] = Field(default_factory=dict)
    dimensions: dict[str, dict[str, Rate | None]]
    cases: dict[str, dict[str, Status]]

    def upgraded(self) -> Baseline:
        cases = {cid: {g: StoredCount(passed=int(s is Status.PASS), runs=1)
                       for g, s in groups.items() if s is not Status.SKIPPED}
                 for cid, groups in self.cases.items()}
        return Baseline(schema_=SCHEMA, cases_digest=self.cases_digest, identity=self.identity, runs_per_case=1,
                        dimensions=self.dimensions, cases={c: g for c, g in cases.items() if g},
                        converted_from_v1=True)


def from_metrics(metrics: Metrics, *, cases_digest: str, identity: dict[str, Any],
                 runs_per_case: int | None = None, calibration: dict[str, Any] | None = None) -> Baseline:
    """The baseline of computed metrics: every judged (case, group) with its counts."""
    return Baseline(
        schema_=SCHEMA, cases_digest=cases_digest, identity=identity, runs_per_case=runs_per_case,
        dimensions={key: {g: m.case_pass_rate for g, m in sorted(groups.items())}
                    for key, groups in sorted(metrics.dimensions.items())},
        cases={cid: {g: StoredCount(passed=c.passed, runs=c.judged) for g, c in sorted(o.counts.items()) if c.judged}
               for cid, o in sorted(metrics.cases.items()) if any(c.judged for c in o.counts.values())},
        calibration=calibration,
    )


def from_results(document: dict[str, Any], where: str = "results.json") -> Baseline:
    """A baseline from a results.json document (the latest `gate check` output)."""
    try:
        metrics = document["metrics"]
        cases: dict[str, dict[str, Any]] = {}
        for cid, outcome in sorted(metrics["cases"].items()):
            counts = outcome.get("counts")
            if counts is None:  # results written before counts were recorded: one run per status
                counts = {g: {"passed": int(s == "pass"), "judged": 1} for g, s in outcome["groups"].items()
                          if s != "skipped"}
            kept = {g: {"passed": c["passed"], "runs": c["judged"]} for g, c in sorted(counts.items()) if c["judged"]}
            if kept:
                cases[cid] = kept
        data = {
            "schema": SCHEMA,
            "cases_digest": document["cases_digest"],
            "identity": document.get("identity") or {},
            "dimensions": {
                key: {g: m.get("case_pass_rate") for g, m in sorted(value["groups"].items())}
                for key, value in sorted(metrics["dimensions"].items())
            },
            "cases": cases,
        }
        return Baseline.model_validate(data)
    except (KeyError, TypeError, AttributeError) as exc:
        raise GateError(f"not a gate check results document (missing or malformed {exc})", where=where) from None
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise GateError(f"not a gate check results document: {dotted(error['loc'])}: {error['msg']}", where=where) from None


def write(path: Path, baseline: Baseline) -> None:
    write_json(path, baseline.model_dump(mode="json", by_alias=True, exclude_none=True))


def load(path: Path) -> Baseline | None:
    """The baseline at ``path``; None when there is none yet; a corrupt file is a GateError."""
    if not path.exists():
        return None
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GateError(f"cannot read the baseline: {exc.strerror}", where=str(path)) from None
    return parse(data, str(path))


def parse(data: bytes, where: str) -> Baseline:
    """A baseline from the bytes of its file (``where`` names it in errors: a path, or ref:path)."""
    try:
        document = safejson.loads(data)
    except json.JSONDecodeError as exc:
        raise GateError(f"corrupt baseline: not valid JSON ({exc.msg}, line {exc.lineno})", where=where) from None
    except UnicodeDecodeError:
        raise GateError("corrupt baseline: not UTF-8 text", where=where) from None
    v1 = isinstance(document, dict) and document.get("schema") == SCHEMA_V1
    try:
        return _BaselineV1.model_validate(document).upgraded() if v1 else Baseline.model_validate(document)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise GateError(
            f"corrupt baseline: {dotted(error['loc'])}: {error['msg']} — regenerate it with `gate baseline update`",
            where=where,
        ) from None


class Comparison(BaseModel):
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

    def count(self, case_id: str, group: str) -> RunCount | None:
        return self.counts.get(case_id, {}).get(group)

    def state(self, case_id: str, group: str, status: Status) -> State:
        """Where a (case, group) stands against the baseline: known vs new, failing vs fixed."""
        if status is Status.SKIPPED:
            return "skipped"
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
                      newly_passing=tuple(passing), dimensions=baseline.dimensions, counts=counts)
