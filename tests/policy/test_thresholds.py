"""The seeds' thresholds at their edges: exactly 70%, AC at −5%, the −15% red line, empty dimensions."""

from __future__ import annotations

import pytest

from gate.config.gate_yaml import Thresholds
from gate.policy.thresholds import Level, dimension_findings, gate_passed, skill_explicit_findings, sort_findings
from gate.scoring.metrics import GroupMetrics


def group(passed: int, judged: int) -> GroupMetrics:
    """One run for each of ``judged`` cases, ``passed`` of them passing."""
    return GroupMetrics(runs=judged, passed=passed, failed=judged - passed,
                        case_counts=((1, 1),) * passed + ((0, 1),) * (judged - passed))


def rules(findings: list) -> list[tuple[str, str]]:
    return [(f.level.value, f.rule) for f in findings]


def delta(a: GroupMetrics, b: GroupMetrics) -> float:
    assert a.case_pass_rate is not None and b.case_pass_rate is not None
    return round(b.case_pass_rate - a.case_pass_rate, 4)


def test_exactly_seventy_percent_meets_the_a_line() -> None:
    a, b = group(7, 10), group(7, 10)
    assert dimension_findings("B3/QC", {"A": a, "B": b}, delta(a, b), Thresholds()) == []


def test_just_below_seventy_percent_is_an_error() -> None:
    a, b = group(69, 100), group(69, 100)
    found = dimension_findings("B3/QC", {"A": a, "B": b}, delta(a, b), Thresholds())
    assert rules(found) == [("error", "min-a")]
    assert found[0].value == 0.69 and found[0].threshold == 0.70


SEED_AC = Thresholds(per_dimension={"B3/AC": {"min_a": 0.60, "min_delta": -0.05}})  # as gate.yaml states them


def test_adversarial_dimension_has_its_own_lines() -> None:
    # AC: A ≥ 60% and B − A ≥ −5%: 12/20 = 60% and a −5 point delta both hold.
    a, b = group(12, 20), group(11, 20)
    assert dimension_findings("B3/AC", {"A": a, "B": b}, delta(a, b), SEED_AC) == []
    b = group(10, 20)  # −10 points: below AC's −5% line, above the red line
    assert rules(dimension_findings("B3/AC", {"A": a, "B": b}, delta(a, b), SEED_AC)) == [("error", "min-delta")]
    # the library knows no dimension of its own: without the lines, AC is held to the general ones
    assert rules(dimension_findings("B3/AC", {"A": a, "B": b}, delta(a, b), Thresholds())) == [
        ("error", "min-a"), ("error", "min-delta")]


def test_negative_delta_fails_other_dimensions() -> None:
    a, b = group(10, 10), group(9, 10)
    assert rules(dimension_findings("B3/FC", {"A": a, "B": b}, delta(a, b), Thresholds())) == [("error", "min-delta")]


@pytest.mark.parametrize(("b_passed", "expected"), [(17, []), (16, [("red-line", "red-line-delta")])])
def test_red_line_is_strictly_below_minus_fifteen_points(b_passed: int, expected: list) -> None:
    # A 20/20; B 17/20 is exactly −15 points (an ordinary delta error), 16/20 crosses the red line.
    a, b = group(20, 20), group(b_passed, 20)
    found = dimension_findings("B3/AC", {"A": a, "B": b}, delta(a, b), Thresholds(per_dimension={"B3/AC": {"min_delta": -0.15}}))
    assert rules(found) == expected


def test_a_dimension_with_no_judged_run_is_reported_not_passed() -> None:
    skipped = GroupMetrics(runs=3, skipped=3)
    found = dimension_findings("B3/MM", {"A": skipped, "B": skipped}, None, Thresholds())
    assert rules(found) == [("warning", "no-judged-case")]


def test_skill_explicit_lines() -> None:
    t = Thresholds()
    assert skill_explicit_findings(group(17, 20), t) == []  # 85% exactly
    assert rules(skill_explicit_findings(group(16, 20), t)) == [("error", "skill-explicit-min-b")]  # 80%
    assert rules(skill_explicit_findings(group(14, 20), t)) == [("red-line", "red-line-skill-explicit")]  # 70%
    assert skill_explicit_findings(None, t) == []


def test_fail_on_levels() -> None:
    a, b = group(10, 10), group(9, 10)
    errors = dimension_findings("B3/FC", {"A": a, "B": b}, delta(a, b), Thresholds())
    assert not gate_passed(errors, "error")
    assert gate_passed(errors, "red-line")
    warnings = dimension_findings("B3/MM", {"A": GroupMetrics(runs=1, skipped=1)}, None, Thresholds())
    assert gate_passed(warnings, "error")
    assert not gate_passed(warnings, "warning")


def test_findings_sort_most_serious_first() -> None:
    a, b = group(5, 10), group(1, 10)
    found = sort_findings(dimension_findings("B3/QC", {"A": a, "B": b}, delta(a, b), Thresholds()))
    assert [f.level for f in found] == [Level.RED_LINE, Level.ERROR]


def test_a_dimension_gated_by_consistency_is_only_noted() -> None:
    skipped = GroupMetrics(runs=5, skipped=5)
    found = dimension_findings("X/SD", {"A": skipped}, None, Thresholds(), by_consistency=True)
    assert rules(found) == [("info", "no-judged-case")]
    assert gate_passed(found, "warning")
