"""Consistency lines of the X seed become findings like the B3 thresholds."""

from __future__ import annotations

from gate.policy.consistency import consistency_findings


def test_consistency_gain_and_curve_findings() -> None:
    report = {
        "cases": {
            "X-OC-01": {"groups": {"A": {"overall": 0.6, "status": "fail"}, "B": {"overall": 0.85, "status": "warn"}},
                        "gain": 0.25, "gain_status": None},
            "X-SD-01": {"groups": {"A": {"overall": 0.8, "status": None}, "B": {"overall": 0.82, "status": None}},
                        "gain": 0.02, "gain_status": "fail"},
            "X-SD-02": {"groups": {}, "gain": 0.12, "gain_status": "warn"},
            "X-CD-01": {"groups": {"A": {"overall": 1.0, "status": "pass"}}, "gain": None, "gain_status": None},
        },
        "curves": {"X-CD-04": {"status": "fail", "breaks": ["A: X-CD-02 → X-CD-03 drops 0.40"]}},
    }
    found = [(f.level.value, f.rule, f.case_id, f.group) for f in consistency_findings(report)]
    assert found == [
        ("error", "consistency", "X-OC-01", "A"),
        ("warning", "consistency", "X-OC-01", "B"),
        ("error", "stability-gain", "X-SD-01", None),
        ("warning", "stability-gain", "X-SD-02", None),
        ("error", "degradation-curve", "X-CD-04", None),
    ]
    messages = [f.message for f in consistency_findings(report)]
    assert messages[0] == "X-OC-01 (A): consistency 60.0% is below the case's fail line"
    assert messages[2] == "X-SD-01: skill stability gain B − A = 2.0% is below the case's fail line"
    assert messages[4] == "X-CD-04: consistency degradation curve — A: X-CD-02 → X-CD-03 drops 0.40"


def test_a_curve_failing_for_no_gain_says_so() -> None:
    found = consistency_findings({"curves": {"X-CD-04": {"status": "fail", "breaks": [], "hardest_gain": 0.0}}})
    assert [f.message for f in found] == ["X-CD-04: consistency degradation curve — B gain on the hardest task 0.0%"]
