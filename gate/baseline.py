"""The committed baseline: what passed last time, per dimension and per case, and what changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from gate import safejson
from gate.atomic import write_json
from gate.errors import GateError
from gate.metrics import Metrics
from gate.policy import Finding, Level, at_least
from gate.verdict import Status
from gate.yamlio import dotted

SCHEMA = "gate.baseline/v1"


class Baseline(BaseModel):
    """baselines/<name>.json: per-dimension pass rates, per-case statuses, digest and identity."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    schema_: str = Field(alias="schema", pattern=r"^gate\.baseline/v1$")
    cases_digest: str
    identity: dict[str, Any] = Field(default_factory=dict)
    dimensions: dict[str, dict[str, float | None]]
    cases: dict[str, dict[str, Status]]


def from_results(document: dict[str, Any], where: str = "results.json") -> Baseline:
    """A baseline from a results.json document (the latest `gate check` output)."""
    try:
        metrics = document["metrics"]
        data = {
            "schema": SCHEMA,
            "cases_digest": document["cases_digest"],
            "identity": document.get("identity") or {},
            "dimensions": {
                key: {g: m.get("case_pass_rate") for g, m in sorted(value["groups"].items())}
                for key, value in sorted(metrics["dimensions"].items())
            },
            "cases": {cid: dict(sorted(c["groups"].items())) for cid, c in sorted(metrics["cases"].items())},
        }
        return Baseline.model_validate(data)
    except (KeyError, TypeError, AttributeError) as exc:
        raise GateError(f"not a gate check results document (missing or malformed {exc})", where=where) from None
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise GateError(f"not a gate check results document: {dotted(error['loc'])}: {error['msg']}", where=where) from None


def write(path: Path, baseline: Baseline) -> None:
    write_json(path, baseline.model_dump(mode="json", by_alias=True))


def load(path: Path) -> Baseline | None:
    """The baseline at ``path``; None when there is none yet; a corrupt file is a GateError."""
    if not path.exists():
        return None
    try:
        data = safejson.loads(path.read_bytes())
    except json.JSONDecodeError as exc:
        raise GateError(f"corrupt baseline: not valid JSON ({exc.msg}, line {exc.lineno})", where=str(path)) from None
    except UnicodeDecodeError:
        raise GateError("corrupt baseline: not UTF-8 text", where=str(path)) from None
    except OSError as exc:
        raise GateError(f"cannot read the baseline: {exc.strerror}", where=str(path)) from None
    try:
        return Baseline.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise GateError(
            f"corrupt baseline: {dotted(error['loc'])}: {error['msg']} — regenerate it with `gate baseline update`",
            where=str(path),
        ) from None


class Comparison(BaseModel):
    """How this run differs from the baseline."""

    model_config = ConfigDict(frozen=True)

    present: bool
    stale: bool = False
    other_agent: bool = False
    """The baseline was recorded with another agent identity or policy-relevant config."""
    newly_failing: tuple[tuple[str, str], ...] = ()
    newly_passing: tuple[tuple[str, str], ...] = ()
    dimensions: dict[str, dict[str, float | None]] = Field(default_factory=dict)
    """Baseline pass rate per dimension and group."""

    def as_json(self) -> dict[str, Any]:
        return {
            "present": self.present,
            "stale": self.stale,
            "other_agent": self.other_agent,
            "newly_failing": [list(pair) for pair in self.newly_failing],
            "newly_passing": [list(pair) for pair in self.newly_passing],
            "dimensions": self.dimensions,
        }


_FAILING = (Status.FAIL, Status.ERROR)


def compare(baseline: Baseline | None, metrics: Metrics, digest: str,
            identity: dict[str, Any] | None = None) -> Comparison:
    """Newly failing / passing (case, group) pairs and the baseline's dimension rates."""
    if baseline is None:
        return Comparison(present=False)
    other_agent = identity is not None and bool(baseline.identity) and baseline.identity != identity
    failing, passing = [], []
    for case_id, outcome in sorted(metrics.cases.items()):
        before = baseline.cases.get(case_id, {})
        for group, status in sorted(outcome.groups.items()):
            was = before.get(group)
            if was is Status.PASS and status in _FAILING:
                failing.append((case_id, group))
            elif was in _FAILING and status is Status.PASS:
                passing.append((case_id, group))
    return Comparison(present=True, stale=baseline.cases_digest != digest, other_agent=other_agent,
                      newly_failing=tuple(failing),
                      newly_passing=tuple(passing), dimensions=baseline.dimensions)


def findings(comparison: Comparison, metrics: Metrics, *, dimensions: bool = True) -> list[Finding]:
    """Regressions against the baseline as findings (dimension checks off for a partial shard)."""
    if not comparison.present:
        return [Finding(level=Level.INFO, rule="no-baseline",
                        message="no baseline yet: nothing to compare with — run `gate baseline update` to record one")]
    found: list[Finding] = []
    if comparison.stale:
        found.append(Finding(level=Level.WARNING, rule="stale-baseline",
                             message="the baseline was recorded on a different case set (cases_digest changed) — update it with `gate baseline update`"))
    if comparison.other_agent:
        found.append(Finding(level=Level.WARNING, rule="baseline-identity",
                             message="the baseline was recorded with another agent identity or gate.yaml policy "
                             "— the comparison may mix two agents; update it with `gate baseline update`"))
    attribution = {cid: o.attribution for cid, o in metrics.cases.items()}
    for case_id, group in comparison.newly_failing:
        blame = attribution.get(case_id)
        found.append(Finding(level=Level.ERROR, rule="regression", case_id=case_id, group=group,
                             message=f"{case_id} ({group}) passed in the baseline and fails now"
                             + (f" — attributed to the {blame.value}" if blame else "")))
    if dimensions:
        for dimension, groups in sorted(metrics.dimensions.items()):
            for group, m in sorted(groups.items()):
                before = comparison.dimensions.get(dimension, {}).get(group)
                now = m.case_pass_rate
                if before is not None and now is not None and not at_least(now, before):
                    found.append(Finding(level=Level.ERROR, rule="dimension-regression", dimension=dimension,
                                         group=group, value=now, threshold=before,
                                         message=f"{dimension} ({group}): pass rate {now * 100:.1f}% fell below the baseline's {before * 100:.1f}%"))
    return found
