"""Baseline: v2 counts, v1 still read, comparisons, stale digests, a corrupt or missing file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate.baseline import store as baseline
from gate.config.decision import DecisionConfig
from gate.errors import GateError
from gate.policy import evidence as decision
from gate.results import ResultsFile
from gate.scoring.comparison import compare
from gate.scoring.metrics import CaseOutcome, GroupMetrics, Metrics
from gate.verdict import RunCount, Status

POINT = DecisionConfig(mode="point")


def metrics(cases: dict[str, dict[str, Status]], rates: dict[str, tuple[int, int]]) -> Metrics:
    """One run per case and group: a passing status is 1 of 1, any other 0 of 1."""
    dims = {"B3/QC": {g: GroupMetrics(runs=n, passed=p, failed=n - p, case_counts=((1, 1),) * p + ((0, 1),) * (n - p))
                      for g, (p, n) in rates.items()}}
    outcomes = {cid: CaseOutcome(case_id=cid, groups=groups,
                                 counts={g: RunCount(passed=int(s is Status.PASS), judged=1) for g, s in groups.items()})
                for cid, groups in cases.items()}
    return Metrics(dimensions=dims, skill_explicit={}, overall={}, cases=outcomes,
                   case_dimension={cid: "B3/QC" for cid in cases})


def recorded(digest: str = "sha256:x") -> baseline.Baseline:
    return baseline.Baseline.model_validate({
        "schema": "gate.baseline/v2", "cases_digest": digest,
        "dimensions": {"B3/QC": {"A": 1.0, "B": 0.5}},
        "cases": {"B3-QC-01": {"A": {"passed": 5, "runs": 5}, "B": {"passed": 5, "runs": 5}},
                  "B3-QC-02": {"A": {"passed": 5, "runs": 5}, "B": {"passed": 0, "runs": 5}}},
    })


def test_newly_failing_and_newly_passing() -> None:
    now = metrics({"B3-QC-01": {"A": Status.PASS, "B": Status.FAIL}, "B3-QC-02": {"A": Status.PASS, "B": Status.PASS}},
                  {"A": (2, 2), "B": (1, 2)})
    comparison = compare(recorded(), now, "sha256:x")
    assert comparison.newly_failing == (("B3-QC-01", "B"),)
    assert comparison.newly_passing == (("B3-QC-02", "B"),)
    assert not comparison.stale
    assert comparison.count("B3-QC-01", "B") == RunCount(passed=5, judged=5)


def test_an_agent_error_where_the_baseline_passed_is_newly_failing() -> None:
    now = metrics({"B3-QC-01": {"A": Status.ERROR, "B": Status.PASS}}, {"A": (1, 2), "B": (1, 2)})
    comparison = compare(recorded(), now, "sha256:x")
    assert comparison.newly_failing == (("B3-QC-01", "A"),)


def test_point_mode_dimension_below_its_baseline_is_a_regression_but_equal_is_not() -> None:
    now = metrics({}, {"A": (1, 2), "B": (1, 2)})
    found = decision.dimension_regressions(now, compare(recorded(), now, "sha256:x"), POINT)
    assert [(f.rule, f.group) for f in found] == [("dimension-regression", "A")]
    assert found[0].value == 0.5 and found[0].threshold == 1.0


def test_stale_baseline_is_reported() -> None:
    now = metrics({}, {"A": (2, 2), "B": (1, 2)})
    found = decision.baseline_notes(compare(recorded("sha256:old"), now, "sha256:new"))
    assert [(f.level.value, f.rule) for f in found] == [("warning", "stale-baseline")]


def test_missing_baseline_is_a_first_run_note(tmp_path: Path) -> None:
    assert baseline.load(tmp_path / "none.json") is None
    now = metrics({}, {"A": (2, 2)})
    found = decision.baseline_notes(compare(None, now, "sha256:x"))
    assert [(f.level.value, f.rule) for f in found] == [("info", "no-baseline")]


def test_a_v1_baseline_loads_as_one_run_per_case_with_a_note(tmp_path: Path) -> None:
    path = tmp_path / "main.json"
    path.write_text(json.dumps({
        "schema": "gate.baseline/v1", "cases_digest": "sha256:x", "dimensions": {"B3/QC": {"A": 1.0}},
        "cases": {"B3-QC-01": {"A": "pass", "B": "fail"}, "B3-MM-01": {"A": "skipped"}}}), encoding="utf-8")
    loaded = baseline.load(path)
    assert loaded is not None and loaded.converted_from_v1
    assert loaded.count("B3-QC-01", "A") == RunCount(passed=1, judged=1)
    assert loaded.count("B3-QC-01", "B") == RunCount(passed=0, judged=1)
    assert loaded.count("B3-MM-01", "A") is None  # a skipped case was never judged
    comparison = compare(loaded, metrics({}, {"A": (1, 1)}), "sha256:x")
    assert [f.rule for f in decision.baseline_notes(comparison)] == ["baseline-v1"]
    baseline.write(tmp_path / "v2.json", loaded)
    assert json.loads((tmp_path / "v2.json").read_text())["schema"] == "gate.baseline/v2"


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "corrupt baseline: not valid JSON (Expecting property name enclosed in double quotes, line 1)"),
    ('{"schema": "gate.baseline/v2"}', "corrupt baseline: cases_digest: Field required — regenerate it with `gate baseline update`"),
    ('{"schema": "other", "cases_digest": "", "dimensions": {}, "cases": {}}', "corrupt baseline: schema: String should match pattern '^gate\\.baseline/v2$' — regenerate it with `gate baseline update`"),
    ('{"schema": "gate.baseline/v2", "cases_digest": "", "dimensions": {"B3/QC": {"A": 1.5}}, "cases": {}}',
     "corrupt baseline: dimensions.B3/QC.A: Input should be less than or equal to 1 — regenerate it with `gate baseline update`"),
    ('{"schema": "gate.baseline/v2", "cases_digest": "", "dimensions": {"B3/QC": {"A": NaN}}, "cases": {}}',
     "corrupt baseline: not valid JSON (NaN is not JSON; write null or a number, line 1)"),
    ('{"schema": "gate.baseline/v2", "cases_digest": "", "dimensions": {}, "cases": {"X": {"A": {"passed": 6, "runs": 5}}}}',
     "corrupt baseline: cases.X.A: Value error, passed (6) exceeds runs (5) — regenerate it with `gate baseline update`"),
    ('{"schema": "gate.baseline/v2", "cases_digest": "", "dimensions": {}, "cases": {"X": {"A": {"passed": -1, "runs": 5}}}}',
     "corrupt baseline: cases.X.A.passed: Input should be greater than or equal to 0 — regenerate it with `gate baseline update`"),
])
def test_corrupt_baseline_names_file_and_problem(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "main.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(GateError) as info:
        baseline.load(path)
    assert str(info.value) == f"{path}: {message}"


def test_round_trip_is_deterministic(tmp_path: Path) -> None:
    document = {"schema": "gate.results/v1", "passed": True, "results": [], "findings": [],
                "cases_digest": "sha256:x", "identity": {"agent": "demo"},
                "metrics": {"dimensions": {"B3/QC": {"groups": {"B": {"case_pass_rate": 0.5}, "A": {"case_pass_rate": 1.0}}}},
                            "cases": {"B3-QC-02": {"groups": {"A": "pass"}, "counts": {"A": {"passed": 3, "judged": 5}}},
                                      "B3-QC-01": {"groups": {"B": "fail", "A": "pass"}}}}}
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    baseline.write(first, baseline.from_results(ResultsFile.model_validate(document)))
    baseline.write(second, baseline.from_results(ResultsFile.model_validate(json.loads(json.dumps(document)))))
    assert first.read_bytes() == second.read_bytes()
    assert baseline.load(first) == baseline.from_results(ResultsFile.model_validate(document))
    stored = json.loads(first.read_text())
    assert list(stored["cases"]) == ["B3-QC-01", "B3-QC-02"]
    assert stored["cases"]["B3-QC-02"] == {"A": {"passed": 3, "runs": 5}}  # counts kept as recorded
    assert stored["cases"]["B3-QC-01"] == {"A": {"passed": 1, "runs": 1}, "B": {"passed": 0, "runs": 1}}


def test_a_baseline_of_another_agent_is_flagged() -> None:
    base = recorded().model_copy(update={"identity": {"agent": {"identity": "v1"}}})
    now = metrics({}, {"A": (2, 2), "B": (1, 2)})
    comparison = compare(base, now, "sha256:x", {"agent": {"identity": "v2"}})
    assert comparison.other_agent
    assert [f.rule for f in decision.baseline_notes(comparison)] == ["baseline-identity"]
    assert not compare(base, now, "sha256:x", {"agent": {"identity": "v1"}}).other_agent
