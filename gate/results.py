"""results.json (contract ``gate.results/v1``): every run verdict, metrics, findings, the verdict."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

from pydantic import ConfigDict, Field, StrictBool

from gate.model import Model
from gate.process.memo import ByIdentity
from gate.process.shard import MAX_SHARDS
from gate.verdict import ConstraintVerdict, RunVerdict, Status

SCHEMA = "gate.results/v1"

RunKey = tuple[str, str, int]
"""A run's (case, group, run)."""


# ---------------------------------------------------------------- the document, as readers see it


class _Part(Model):
    """A part of results.json: typed where a reader relies on it; keys added by later versions pass."""

    model_config = ConfigDict(extra="allow", frozen=True)


class ReadingRecord(_Part):
    """One reading of the answer a checker weighed: what was read, the verdict it gives, why it was
    chosen or set aside."""

    label: str
    verdict: Status
    why: str = ""
    chosen: bool = False


class ConstraintRecord(_Part):
    id: str
    check: str
    status: Status
    """``uncertain``: its readings give different verdicts (both are in ``readings``)."""
    detail: str = ""
    evidence: list[Any] = Field(default_factory=list)
    source: Literal["judge", "human"] | None = None
    """Who decided it when not the rule checkers."""
    readings: list[ReadingRecord] = Field(default_factory=list)
    """The readings the checker weighed, when it offers them; absent when it offered none."""


class RunRecord(_Part):
    """One run's verdict."""

    case_id: str
    group: str
    run: int = Field(ge=0)
    status: Status
    """``uncertain`` when no constraint failed and one's readings disagree: never a pass."""
    unjudged: int = Field(0, ge=0)
    error: str | None = None
    constraints: list[ConstraintRecord] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    trajectory: str | None = None
    """The digest of the run's trajectory (``sha256:…``) in trajectories.jsonl beside it: what
    `gate merge` holds the record to; absent where no trajectory was written (`gate eval`)."""


class CountRecord(_Part):
    """Passing runs of judged runs of one (case, group), and its uncertain runs (judged apart)."""

    passed: int = Field(ge=0)
    judged: int = Field(ge=0)
    uncertain: int = Field(0, ge=0)

    @property
    def rate(self) -> float | None:
        return self.passed / self.judged if self.judged else None


class CaseRecord(_Part):
    groups: dict[str, Status]
    counts: dict[str, CountRecord] | None = None
    """Absent in results written before counts were recorded: then one run per status."""
    attribution: str | None = None
    states: dict[str, str] = Field(default_factory=dict)


class GroupRecord(_Part):
    runs: int = Field(0, ge=0)
    passed: int = Field(0, ge=0)
    uncertain: int = Field(0, ge=0)
    """Runs left uncertain: not in the rates, never passes."""
    case_pass_rate: float | None = Field(None, ge=0, le=1)
    constraint_follow_rate: float | None = Field(None, ge=0, le=1)


class DimensionRecord(_Part):
    groups: dict[str, GroupRecord]
    delta: float | None = None


class MetricsRecord(_Part):
    dimensions: dict[str, DimensionRecord] = Field(default_factory=dict)
    overall: dict[str, GroupRecord] = Field(default_factory=dict)
    cases: dict[str, CaseRecord] = Field(default_factory=dict)


class FindingRecord(_Part):
    level: Literal["red-line", "error", "warning", "info"]
    rule: str
    message: str
    dimension: str | None = None
    case_id: str | None = None
    group: str | None = None
    outcome: Literal["fail", "inconclusive"] | None = None


class ShardRecord(_Part):
    k: int = Field(ge=1, le=MAX_SHARDS)
    n: int = Field(ge=1, le=MAX_SHARDS)


class BaselineRecord(_Part):
    present: bool
    stale: bool = False
    newly_failing: list[tuple[str, str]] = Field(default_factory=list)
    newly_passing: list[tuple[str, str]] = Field(default_factory=list)


class ResultsFile(_Part):
    """results.json (``gate.results/v1``) as `gate check`, `gate merge` and `gate eval --json` write
    it; every reader in the package validates into it (`gate schema results` is its JSON Schema)."""

    schema_: Literal["gate.results/v1"] = Field(alias="schema")
    cases_digest: str
    passed: StrictBool
    """The gate did not fail: its exit code was 0 (an inconclusive run too, unless
    ``decision.fail_on_inconclusive``); ``verdict`` says which."""
    verdict: Literal["passed", "inconclusive", "failed", "unavailable", "interrupted"] | None = None
    """The verdict word (absent from files written before it was recorded)."""
    results: list[RunRecord]
    metrics: MetricsRecord
    findings: list[FindingRecord]
    baseline: BaselineRecord | None = None
    identity: dict[str, Any] | None = None
    shard: ShardRecord | None = None
    interrupted: StrictBool = False
    cached_answers: int = Field(0, ge=0)

    def run_keys(self) -> set[tuple[str, str, int]]:
        return {(r.case_id, r.group, r.run) for r in self.results}


def run_json(verdict: RunVerdict, trajectory: str | None = None) -> dict[str, Any]:
    """One run verdict as results.json stores it (durations kept in ``metadata``), with its
    trajectory's digest when one was written."""
    found = {
        "case_id": verdict.case_id,
        "group": verdict.group,
        "run": verdict.run,
        "status": verdict.status.value,
        "unjudged": verdict.unjudged,
        "error": verdict.error,
        "constraints": [_constraint_json(c) for c in verdict.constraints],
        "metadata": verdict.metadata,
    }
    if trajectory is not None:
        found["trajectory"] = trajectory
    return found


def _constraint_json(verdict: ConstraintVerdict) -> dict[str, Any]:
    found: dict[str, Any] = {"id": verdict.id, "check": verdict.check, "status": verdict.status.value,
                             "detail": verdict.detail, "evidence": list(verdict.evidence)}
    if verdict.source is not None:  # decided by the judge or a human, not by the rule checkers
        found["source"] = verdict.source
    if verdict.readings:
        found["readings"] = [r.model_dump(mode="json") for r in verdict.readings]
    return found


def sort_verdicts(verdicts: Iterable[RunVerdict]) -> list[RunVerdict]:
    """Stable report order: case id, group, run."""
    return sorted(verdicts, key=lambda v: (v.case_id, v.group, v.run))


def results_head(*, cases_digest: str, metrics: dict[str, Any], findings: list[dict[str, Any]], passed: bool,
                 extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything results.json holds but its runs."""
    return {"schema": SCHEMA, "cases_digest": cases_digest, "metrics": metrics, "findings": findings,
            "passed": passed, **(extra or {})}


def results_document(head: dict[str, Any], verdicts: Iterable[RunVerdict],
                     digests: Mapping[RunKey, str] | None = None) -> dict[str, Any]:
    """The results.json document; keys sorted on write, runs sorted here; ``digests``: each run's
    trajectory digest, where its trajectory was written."""
    digests = digests or {}
    return {**head, "results": [run_json(v, digests.get((v.case_id, v.group, v.run))) for v in sort_verdicts(verdicts)]}


# ---------------------------------------------------------------- the document, written a run at a time


def results_text(head: dict[str, Any], verdicts: Iterable[RunVerdict],
                 digests: Mapping[RunKey, str] | None = None) -> Iterator[str]:
    """``dump_json(results_document(head, verdicts, digests))`` piece by piece, the same bytes: no run's dict
    outlives its own text, and the constraints and metadata runs share (a deterministic agent's
    repeats share one verdict) are encoded once."""
    entries = sorted([*head, "results"])
    yield "{"
    for index, key in enumerate(entries):
        yield f"\n  {_encode(key)}: "
        if key == "results":
            yield from _runs_text(sort_verdicts(verdicts), digests or {})
        else:
            yield from _encode_parts(head[key], 2)
        yield "," if index < len(entries) - 1 else "\n}\n"


_ENCODER = json.JSONEncoder(ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False)


def _encode(value: Any, level: int = 0) -> str:
    """``value`` as dump_json writes it, nested ``level`` spaces deep (JSON strings hold no raw
    newline, so every newline in the text is one of the indentation's)."""
    if isinstance(value, str):
        return json.encoder.encode_basestring(value)
    if value is None:
        return "null"
    return _indented(_ENCODER.encode(value), level)


def _encode_parts(value: Any, level: int, size: int = 1 << 16) -> Iterator[str]:
    """``_encode(value, level)`` in parts of about ``size`` characters: the metrics of a large case
    set encoded at once held their pieces and copies beside the text."""
    if isinstance(value, str) or value is None:
        yield _encode(value, level)
        return
    batch: list[str] = []
    held = 0
    for chunk in _ENCODER.iterencode(value):
        batch.append(chunk)
        held += len(chunk)
        if held >= size:
            yield _indented("".join(batch), level)
            batch, held = [], 0
    if batch:
        yield _indented("".join(batch), level)


def _indented(text: str, level: int) -> str:
    return text.replace("\n", "\n" + " " * level) if level else text


def _constraints_text(constraints: tuple[ConstraintVerdict, ...]) -> str:
    return _encode([_constraint_json(c) for c in constraints], 6)


def _metadata_text(metadata: dict[str, object]) -> str:
    return _encode(metadata, 6)


def _runs_text(verdicts: list[RunVerdict], digests: Mapping[RunKey, str]) -> Iterator[str]:
    if not verdicts:
        yield "[]"
        return
    field = "\n      "  # a run's keys, inside the results list, inside the document
    shared: ByIdentity[str] = ByIdentity()  # the texts of the constraints and metadata runs share
    for index, verdict in enumerate(verdicts):
        constraints, metadata = verdict.constraints, verdict.metadata
        trajectory = digests.get((verdict.case_id, verdict.group, verdict.run))
        # run_json's keys, sorted
        yield ("[\n    {" if index == 0 else ",\n    {") + field + f",{field}".join((
            f'"case_id": {_encode(verdict.case_id)}',
            f'"constraints": {shared.get(constraints, _constraints_text, constraints)}',
            f'"error": {_encode(verdict.error)}',
            f'"group": {_encode(verdict.group)}',
            f'"metadata": {shared.get(metadata, _metadata_text, metadata)}',
            f'"run": {verdict.run}',
            f'"status": {_encode(verdict.status.value)}',
            *([f'"trajectory": {_encode(trajectory)}'] if trajectory is not None else []),
            f'"unjudged": {verdict.unjudged}',
        )) + "\n    }"
    yield "\n  ]"
