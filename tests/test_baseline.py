"""Baseline: regressions, newly passing cases, stale digests, a corrupt or missing file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate import baseline
from gate.errors import GateError
from gate.metrics import CaseOutcome, GroupMetrics, Metrics
from gate.verdict import Status


def metrics(cases: dict[str, dict[str, Status]], rates: dict[str, tuple[int, int]]) -> Metrics:
    dims = {"B3/QC": {g: GroupMetrics(runs=n, passed=p, failed=n - p) for g, (p, n) in rates.items()}}
    return Metrics(dimensions=dims, skill_explicit={}, overall={},
                   cases={cid: CaseOutcome(case_id=cid, groups=groups) for cid, groups in cases.items()})


def recorded(digest: str = "sha256:x") -> baseline.Baseline:
    return baseline.Baseline.model_validate({
        "schema": "gate.baseline/v1", "cases_digest": digest,
        "dimensions": {"B3/QC": {"A": 1.0, "B": 0.5}},
        "cases": {"B3-QC-01": {"A": "pass", "B": "pass"}, "B3-QC-02": {"A": "pass", "B": "fail"}},
    })


def test_newly_failing_and_newly_passing() -> None:
    now = metrics({"B3-QC-01": {"A": Status.PASS, "B": Status.FAIL}, "B3-QC-02": {"A": Status.PASS, "B": Status.PASS}},
                  {"A": (2, 2), "B": (1, 2)})
    comparison = baseline.compare(recorded(), now, "sha256:x")
    assert comparison.newly_failing == (("B3-QC-01", "B"),)
    assert comparison.newly_passing == (("B3-QC-02", "B"),)
    assert not comparison.stale
    rules = [(f.rule, f.case_id) for f in baseline.findings(comparison, now)]
    assert rules == [("regression", "B3-QC-01")]


def test_an_agent_error_where_the_baseline_passed_is_a_regression() -> None:
    now = metrics({"B3-QC-01": {"A": Status.ERROR, "B": Status.PASS}}, {"A": (1, 2), "B": (1, 2)})
    comparison = baseline.compare(recorded(), now, "sha256:x")
    assert comparison.newly_failing == (("B3-QC-01", "A"),)


def test_dimension_below_its_baseline_is_a_regression_but_equal_is_not() -> None:
    now = metrics({}, {"A": (1, 2), "B": (1, 2)})
    found = baseline.findings(baseline.compare(recorded(), now, "sha256:x"), now)
    assert [(f.rule, f.group) for f in found] == [("dimension-regression", "A")]
    assert found[0].value == 0.5 and found[0].threshold == 1.0
    assert baseline.findings(baseline.compare(recorded(), now, "sha256:x"), now, dimensions=False) == []


def test_stale_baseline_is_reported() -> None:
    now = metrics({}, {"A": (2, 2), "B": (1, 2)})
    found = baseline.findings(baseline.compare(recorded("sha256:old"), now, "sha256:new"), now)
    assert [(f.level.value, f.rule) for f in found] == [("warning", "stale-baseline")]


def test_missing_baseline_is_a_first_run_note(tmp_path: Path) -> None:
    assert baseline.load(tmp_path / "none.json") is None
    now = metrics({}, {"A": (2, 2)})
    found = baseline.findings(baseline.compare(None, now, "sha256:x"), now)
    assert [(f.level.value, f.rule) for f in found] == [("info", "no-baseline")]


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "corrupt baseline: not valid JSON (Expecting property name enclosed in double quotes, line 1)"),
    ('{"schema": "gate.baseline/v1"}', "corrupt baseline: cases_digest: Field required — regenerate it with `gate baseline update`"),
    ('{"schema": "other", "cases_digest": "", "dimensions": {}, "cases": {}}', "corrupt baseline: schema: String should match pattern '^gate\\.baseline/v1$' — regenerate it with `gate baseline update`"),
])
def test_corrupt_baseline_names_file_and_problem(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "main.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(GateError) as info:
        baseline.load(path)
    assert str(info.value) == f"{path}: {message}"


def test_round_trip_is_deterministic(tmp_path: Path) -> None:
    document = {"cases_digest": "sha256:x", "identity": {"agent": "demo"},
                "metrics": {"dimensions": {"B3/QC": {"groups": {"B": {"case_pass_rate": 0.5}, "A": {"case_pass_rate": 1.0}}}},
                            "cases": {"B3-QC-02": {"groups": {"A": "pass"}}, "B3-QC-01": {"groups": {"B": "fail", "A": "pass"}}}}}
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    baseline.write(first, baseline.from_results(document))
    baseline.write(second, baseline.from_results(json.loads(json.dumps(document))))
    assert first.read_bytes() == second.read_bytes()
    assert baseline.load(first) == baseline.from_results(document)
    assert list(json.loads(first.read_text())["cases"]) == ["B3-QC-01", "B3-QC-02"]


def test_a_baseline_of_another_agent_is_flagged() -> None:
    base = recorded().model_copy(update={"identity": {"agent": {"identity": "v1"}}})
    now = metrics({}, {"A": (2, 2), "B": (1, 2)})
    comparison = baseline.compare(base, now, "sha256:x", {"agent": {"identity": "v2"}})
    assert comparison.other_agent
    assert [f.rule for f in baseline.findings(comparison, now)] == ["baseline-identity"]
    assert not baseline.compare(base, now, "sha256:x", {"agent": {"identity": "v1"}}).other_agent
