"""The committed baseline: pass counts per (case, group) and rates per dimension, and what changed.

Storage only: the decisions on what the differences mean are in gate.policy; the comparison with a run is gate.scoring.comparison.
Schema ``gate.baseline/v2`` stores counts (``{"passed": 4, "runs": 5}``) so a decision can weigh
how sure the baseline itself is; a ``gate.baseline/v1`` file (one status per case) still loads,
read as one run per case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationError, model_validator

from gate.errors import GateError
from gate.files import safefiles, safejson
from gate.files.atomic import write_json
from gate.files.yamlio import dotted
from gate.model import Model
from gate.results import CountRecord, ResultsFile
from gate.verdict import RunCount, Status

SCHEMA = "gate.baseline/v2"
SCHEMA_V1 = "gate.baseline/v1"

Rate = Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


class StoredCount(Model):
    """Passing runs out of judged runs, as recorded, and the runs left uncertain beside them
    (absent when none was: files written before uncertain runs existed read the same)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    passed: int = Field(ge=0)
    runs: int = Field(ge=0)
    """Judged runs (uncertain ones are not judged)."""
    uncertain: int | None = Field(None, ge=1)
    """Runs whose readings disagreed, when there were any."""

    @model_validator(mode="after")
    def _passed_within_runs(self) -> StoredCount:
        if self.passed > self.runs:
            raise ValueError(f"passed ({self.passed}) exceeds runs ({self.runs})")
        if self.runs == 0 and not self.uncertain:
            raise ValueError("runs must be ≥ 1 (or uncertain ≥ 1, when every run was uncertain)")
        return self

    @classmethod
    def of(cls, count: RunCount | CountRecord) -> StoredCount:
        return cls(passed=count.passed, runs=count.judged, uncertain=count.uncertain or None)

    def count(self) -> RunCount:
        return RunCount(passed=self.passed, judged=self.runs, uncertain=self.uncertain or 0)


class Acceptance(Model):
    """A known violation of a never-rule (a ``zero_tolerance`` constraint), accepted on the record:
    while it stands, the violation warns instead of failing, and every report lists it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    case_id: str = Field(min_length=1)
    constraint: str = Field(min_length=1)
    reason: str = Field(min_length=1)
    accepted_on: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    """The day it was accepted (YYYY-MM-DD)."""


class Baseline(Model):
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
    accepted: tuple[Acceptance, ...] = ()
    """Never-rule violations accepted on the record (`gate baseline accept`), kept across updates."""
    converted_from_v1: bool = Field(False, exclude=True)
    """Read from a v1 file (one run per case): too thin for most decisions; never written."""

    def count(self, case_id: str, group: str) -> RunCount | None:
        stored = self.cases.get(case_id, {}).get(group)
        return stored.count() if stored is not None else None

    def acceptance(self, case_id: str, constraint: str) -> Acceptance | None:
        return next((a for a in self.accepted if (a.case_id, a.constraint) == (case_id, constraint)), None)


class _BaselineV1(Model):
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


def from_results(document: ResultsFile, where: str = "results.json") -> Baseline:
    """A baseline from a results.json document (the latest `gate check` output)."""
    cases: dict[str, dict[str, StoredCount]] = {}
    for cid, outcome in sorted(document.metrics.cases.items()):
        counts = outcome.counts
        if counts is None:  # results written before counts were recorded: one run per status
            counts = {g: CountRecord(passed=int(s is Status.PASS), judged=int(s is not Status.UNCERTAIN),
                                     uncertain=int(s is Status.UNCERTAIN))
                      for g, s in outcome.groups.items() if s is not Status.SKIPPED}
        kept = {g: StoredCount.of(c) for g, c in sorted(counts.items()) if c.judged or c.uncertain}
        if kept:
            cases[cid] = kept
    try:
        return Baseline(schema_=SCHEMA, cases_digest=document.cases_digest, identity=document.identity or {},
                        dimensions={key: {g: m.case_pass_rate for g, m in sorted(value.groups.items())}
                                    for key, value in sorted(document.metrics.dimensions.items())},
                        cases=cases)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise GateError(f"not a gate check results document: {dotted(error['loc'])}: {error['msg']}", where=where) from None


def write(path: Path, baseline: Baseline) -> None:
    data = baseline.model_dump(mode="json", by_alias=True, exclude_none=True)
    if not baseline.accepted:
        del data["accepted"]  # files without acceptances stay as they were
    write_json(path, data)


def load(path: Path) -> Baseline | None:
    """The baseline at ``path``; None when there is none yet; a corrupt file is a GateError."""
    if not path.exists() and not path.is_symlink():
        return None
    return parse(safefiles.read_bytes(path, what="the baseline", limit=safefiles.DOCUMENT_LIMIT), str(path))


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
