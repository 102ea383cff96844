"""Consistency lines of the X seed become findings like the B3 thresholds."""

from __future__ import annotations

from gate.policy.consistency import consistency_findings
from gate.report.wording import message_of
from gate.scoring.consistency import ConsistencyReport, DegradationCurve
from gate.scoring.repeats import CaseConsistency, GroupConsistency, Level


def _group(group: str, overall: float | None, status: Level | None) -> GroupConsistency:
    return GroupConsistency(group=group, runs=5, errors=0, fields=(), overall=overall, status=status)  # type: ignore[arg-type]


def _case(case_id: str, groups: list[GroupConsistency], gain: float | None, gain_status: Level | None) -> CaseConsistency:
    return CaseConsistency(case_id=case_id, groups={g.group: g for g in groups}, gain=gain, gain_status=gain_status)


def _curve(status: Level | None, breaks: tuple[str, ...] = (), hardest_gain: float | None = None) -> DegradationCurve:
    return DegradationCurve(case_id="X-CD-04", points=(), smooth=None, breaks=breaks, decay_a=None, decay_b=None,
                            b_decays_less=None, hardest_gain=hardest_gain, status=status)


def test_consistency_gain_and_curve_findings() -> None:
    report = ConsistencyReport(cases=(
        _case("X-OC-01", [_group("A", 0.6, "fail"), _group("B", 0.85, "warn")], 0.25, None),
        _case("X-SD-01", [_group("A", 0.8, None), _group("B", 0.82, None)], 0.02, "fail"),
        _case("X-SD-02", [], 0.12, "warn"),
        _case("X-CD-01", [_group("A", 1.0, "pass")], None, None),
    ), curves=(_curve("fail", ("A: X-CD-02 → X-CD-03 drops 0.40",)),))
    found = [(f.level.value, f.rule, f.case_id, f.group) for f in consistency_findings(report)]
    assert found == [
        ("error", "consistency", "X-OC-01", "A"),
        ("warning", "consistency", "X-OC-01", "B"),
        ("error", "stability-gain", "X-SD-01", None),
        ("warning", "stability-gain", "X-SD-02", None),
        ("error", "degradation-curve", "X-CD-04", None),
    ]
    messages = [message_of(f) for f in consistency_findings(report)]
    assert messages[0] == "X-OC-01 (A): consistency 60.0% is below the case's fail line"
    assert messages[2] == "X-SD-01: skill stability gain B − A = 2.0% is below the case's fail line"
    assert messages[4] == "X-CD-04: consistency degradation curve — A: X-CD-02 → X-CD-03 drops 0.40"


def test_values_are_those_results_json_records() -> None:
    report = ConsistencyReport(cases=(_case("X-OC-01", [_group("A", 2 / 3, "fail")], None, None),), curves=())
    (finding,) = consistency_findings(report)
    assert finding.value == 0.6667 and message_of(finding) == "X-OC-01 (A): consistency 66.7% is below the case's fail line"
    assert report.as_json()["cases"]["X-OC-01"]["groups"]["A"]["overall"] == finding.value  # type: ignore[index]


def test_a_curve_failing_for_no_gain_says_so() -> None:
    found = consistency_findings(ConsistencyReport(cases=(), curves=(_curve("fail", (), 0.0),)))
    assert [message_of(f) for f in found] == ["X-CD-04: consistency degradation curve — B gain on the hardest task 0.0%"]
