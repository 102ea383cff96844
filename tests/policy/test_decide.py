"""The gate's one decision as a table of situations: what was measured → the findings and the verdict."""

from __future__ import annotations

from typing import Any

import pytest

from gate.config.decision import DecisionConfig
from gate.config.gate_yaml import Thresholds
from gate.policy.decide import decide
from gate.scoring.comparison import compare, from_metrics
from gate.scoring.metrics import compute
from gate.verdict import RunVerdict, Status
from tests.casefiles import repo_cases

CASES = repo_cases().cases
QC = sorted(c.id for c in CASES.values() if c.id.startswith("B3-QC"))


def _verdicts(failing: dict[str, str] | None = None, errors: int = 0, runs: int = 5) -> list[RunVerdict]:
    """Every QC case in both groups, ``runs`` runs each; ``failing``: case → group that always fails;
    the first ``errors`` (case, group) pairs end in agent errors."""
    found = []
    for index, (case_id, group) in enumerate((c, g) for c in QC for g in ("A", "B")):
        for run in range(runs):
            if index < errors:
                found.append(RunVerdict(case_id=case_id, group=group, run=run, status=Status.ERROR, error="agent down"))
                continue
            bad = (failing or {}).get(case_id) == group
            found.append(RunVerdict(case_id=case_id, group=group, run=run, status=Status.FAIL if bad else Status.PASS))
    return found


def _decide(verdicts: list[RunVerdict], base: list[RunVerdict] | None = None, **options: Any) -> tuple[list[tuple[str, str]], bool]:
    computed = compute(CASES, verdicts)
    baseline = from_metrics(compute(CASES, base), cases_digest="sha256:x", identity={}) if base is not None else None
    found = decide(CASES, verdicts, computed, compare(baseline, computed, "sha256:x", {}), None,
                   thresholds=Thresholds(), settings=DecisionConfig(), fail_on="error", **options)
    return sorted((f.level.value, f.rule) for f in found.findings), found.passed


ALL_FAIL_A = {case_id: "A" for case_id in QC}


@pytest.mark.parametrize(
    ("verdicts", "base", "options", "present", "absent", "passed"),
    [
        pytest.param(_verdicts(), None, {}, {"no-baseline"}, {"min-a", "regression"}, True, id="all-pass-no-baseline"),
        pytest.param(_verdicts(ALL_FAIL_A), None, {}, {"min-a"}, set(), False, id="a-below-70"),
        pytest.param(_verdicts(ALL_FAIL_A), None, {"partial": True}, {"shard"}, {"min-a"}, True, id="a-shard-checks-no-line"),
        pytest.param(_verdicts({QC[0]: "A"}), _verdicts(), {}, {"regression"}, set(), False, id="baseline-pass-now-fails"),
        pytest.param(_verdicts(), _verdicts(), {}, set(), {"regression", "no-baseline"}, True, id="as-the-baseline"),
        pytest.param(_verdicts(), None, {"interrupted": True}, {"interrupted"}, set(), False, id="interrupted"),
        pytest.param(_verdicts(errors=2 * len(QC)), None, {}, {"agent-unavailable"}, {"min-a"}, False, id="agent-down"),
    ],
)
def test_situations_give_their_findings(verdicts: list[RunVerdict], base: list[RunVerdict] | None, options: dict[str, Any],
                                        present: set[str], absent: set[str], passed: bool) -> None:
    found, ok = _decide(verdicts, base, **options)
    names = {rule for _, rule in found}
    assert ok is passed and present <= names and not absent & names, found
