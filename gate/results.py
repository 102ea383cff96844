"""results.json (contract ``gate.results/v1``): every run verdict, metrics, findings, the verdict."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gate.verdict import ConstraintVerdict, RunVerdict

SCHEMA = "gate.results/v1"


def run_json(verdict: RunVerdict) -> dict[str, Any]:
    """One run verdict as results.json stores it (durations kept in ``metadata``)."""
    return {
        "case_id": verdict.case_id,
        "group": verdict.group,
        "run": verdict.run,
        "status": verdict.status.value,
        "unjudged": verdict.unjudged,
        "error": verdict.error,
        "constraints": [_constraint_json(c) for c in verdict.constraints],
        "metadata": verdict.metadata,
    }


def _constraint_json(verdict: ConstraintVerdict) -> dict[str, Any]:
    found: dict[str, Any] = {"id": verdict.id, "check": verdict.check, "status": verdict.status.value,
                             "detail": verdict.detail, "evidence": list(verdict.evidence)}
    if verdict.source is not None:  # decided by the judge or a human, not by the rule checkers
        found["source"] = verdict.source
    return found


def sort_verdicts(verdicts: Iterable[RunVerdict]) -> list[RunVerdict]:
    """Stable report order: case id, group, run."""
    return sorted(verdicts, key=lambda v: (v.case_id, v.group, v.run))


def results_document(
    *,
    cases_digest: str,
    verdicts: Iterable[RunVerdict],
    metrics: dict[str, Any],
    findings: list[dict[str, Any]],
    passed: bool,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The results.json document; keys sorted on write, runs sorted here."""
    return {
        "schema": SCHEMA,
        "cases_digest": cases_digest,
        "results": [run_json(v) for v in sort_verdicts(verdicts)],
        "metrics": metrics,
        "findings": findings,
        "passed": passed,
        **(extra or {}),
    }
