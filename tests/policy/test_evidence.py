"""Decisions with evidence: each line and regression test as a table of situations → outcome."""

from __future__ import annotations

import pytest

from gate.config.decision import DecisionConfig
from gate.config.gate_yaml import Thresholds
from gate.policy import evidence as decision
from gate.policy import regressions
from gate.policy.regressions import PairOutcome
from gate.report.wording import message_of
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import CaseOutcome, GroupMetrics, Metrics
from gate.verdict import RunCount, Status

CONFIDENCE = DecisionConfig()
POINT = DecisionConfig(mode="point")


def group(*counts: tuple[int, int]) -> GroupMetrics:
    """One entry per case: (passed, judged) runs."""
    passed = sum(p for p, _ in counts)
    judged = sum(j for _, j in counts)
    return GroupMetrics(runs=judged, passed=passed, failed=judged - passed, case_counts=counts)


def dimension(a: list[tuple[int, int]], b: list[tuple[int, int]] | None = None, key: str = "B3/QC") -> Metrics:
    """A dimension of cases c0, c1, … with the given counts in A (and B)."""
    cases = {}
    for index, count in enumerate(a):
        counts = {"A": RunCount(passed=count[0], judged=count[1])}
        if b is not None:
            counts["B"] = RunCount(passed=b[index][0], judged=b[index][1])
        statuses = {g: Status.PASS if 2 * c.passed > c.judged else Status.FAIL for g, c in counts.items()}
        cases[f"c{index}"] = CaseOutcome(case_id=f"c{index}", groups=statuses, counts=counts)
    groups = {"A": group(*a)} | ({"B": group(*b)} if b is not None else {})
    return Metrics(dimensions={key: groups}, skill_explicit={}, overall={}, cases=cases,
                   case_dimension={cid: key for cid in cases})


def outcomes(findings: list) -> list[tuple[str, str, str | None]]:
    return [(f.rule, f.level.value, f.outcome) for f in findings if f.rule != "agent-errors"]


# --- rate lines: fail only when the whole interval is below; inconclusive when only the rate is --

@pytest.mark.parametrize(("a", "expected"), [
    pytest.param([(1, 1)] * 3 + [(0, 1)], [], id="75% of 4 cases meets the 70% line"),
    pytest.param([(1, 1)] * 2 + [(0, 1)] * 2, [("min-a", "warning", "inconclusive")], id="50% of 4 cases: inconclusive"),
    pytest.param([(1, 1)] + [(0, 1)] * 9, [("min-a", "error", "fail")], id="10% of 10 cases: below the line"),
    pytest.param([(5, 5)] * 2 + [(0, 5)] * 2, [("min-a", "warning", "inconclusive")],
                 id="50% over 5 runs each: the interval just reaches 70%"),
    pytest.param([(5, 5)] * 2 + [(0, 5)] * 3, [("min-a", "error", "fail")], id="40% over 5 runs each: below"),
    pytest.param([(4, 5), (5, 5), (5, 5), (5, 5)], [], id="a flake of one run in five"),
    pytest.param([(7, 10)], [], id="exactly 70% meets the line"),
])
def test_the_a_line(a: list[tuple[int, int]], expected: list) -> None:
    assert outcomes(decision.line_findings(dimension(a), Thresholds(), CONFIDENCE)) == expected


def test_inconclusive_says_what_would_decide_it_and_can_fail_the_gate() -> None:
    metrics = dimension([(1, 1)] * 2 + [(0, 1)] * 2)
    (finding,) = decision.line_findings(metrics, Thresholds(), CONFIDENCE)
    assert message_of(finding) == ("B3/QC: A pass rate 50.0% (2/4 cases) [15–85%] vs the 70.0% line — "
                               "inconclusive: about 6 runs per case would decide it")
    assert finding.interval == (0.1500, 0.8500)
    strict = decision.line_findings(metrics, Thresholds(), DecisionConfig(fail_on_inconclusive=True))
    assert outcomes(strict) == [("min-a", "error", "inconclusive")]


def test_point_mode_keeps_the_literal_rule() -> None:
    metrics = dimension([(1, 1)] * 2 + [(0, 1)] * 2)
    assert outcomes(decision.line_findings(metrics, Thresholds(), POINT)) == [("min-a", "error", None)]


def test_reruns_weigh_each_case_once() -> None:
    # one case rerun four times must not outweigh the three that ran once
    m = group((1, 5), (1, 1), (1, 1), (1, 1))
    assert m.case_pass_rate == 0.8
    assert m.effective_runs == pytest.approx(16 / 3.2)


# --- B − A: Newcombe's interval over the cases judged in both groups --------------------------

@pytest.mark.parametrize(("a", "b", "expected"), [
    pytest.param([(1, 1)] * 6, [(1, 1)] * 5 + [(0, 1)], [("red-line-delta", "warning", "inconclusive")],
                 id="one flipped case of six: the red line is inconclusive, not crossed"),
    pytest.param([(5, 5)] * 6, [(0, 5)] * 6, [("red-line-delta", "red-line", "fail")], id="B fails everything"),
    pytest.param([(5, 5)] * 10, [(5, 5)] * 9 + [(0, 5)], [("min-delta", "error", "fail")],
                 id="one of ten cases lost, five runs each: below zero"),
    pytest.param([(5, 5)] * 10, [(5, 5)] * 7 + [(0, 5)] * 3, [("red-line-delta", "red-line", "fail")],
                 id="three of ten cases lost, five runs each: past the red line"),
    pytest.param([(1, 1)] * 4, [(1, 1)] * 4, [], id="equal"),
])
def test_the_delta_lines(a: list, b: list, expected: list) -> None:
    found = [f for f in decision.line_findings(dimension(a, b), Thresholds(), CONFIDENCE) if f.rule != "min-a"]
    assert outcomes(found) == expected


def test_skill_explicit_lines_with_evidence() -> None:
    metrics = dimension([(1, 1)] * 10, [(1, 1)] * 10)
    b = group(*[(5, 5)] * 3, *[(0, 5)] * 7)
    with_explicit = metrics.model_copy(update={"skill_explicit": {"B": b}})
    found = [f for f in decision.line_findings(with_explicit, Thresholds(), CONFIDENCE) if f.group == "B"]
    assert outcomes(found) == [("red-line-skill-explicit", "red-line", "fail")]
    close = metrics.model_copy(update={"skill_explicit": {"B": group(*[(1, 1)] * 8, (0, 1))}})
    found = [f for f in decision.line_findings(close, Thresholds(), CONFIDENCE) if f.group == "B"]
    assert outcomes(found) == []  # 88.9% of 9 meets the 85% line


# --- regressions of one (case, group) --------------------------------------------------------

def compared(base: dict[str, tuple[int, int]], now: dict[str, tuple[int, int]]) -> tuple[Metrics, Comparison]:
    metrics = dimension([now[c] for c in sorted(now)])
    counts = {f"c{i}": {"A": RunCount(passed=p, judged=j)} for i, (p, j) in enumerate(base[c] for c in sorted(base))}
    return metrics, Comparison(present=True, counts=counts, dimensions={"B3/QC": {"A": 1.0}})


@pytest.mark.parametrize(("base", "now", "expected"), [
    pytest.param((5, 5), (0, 4), PairOutcome.REGRESSED, id="always failing now: confirmed"),
    pytest.param((5, 5), (4, 5), PairOutcome.CLEARED, id="one bad run in five: a flake"),
    pytest.param((5, 5), (2, 5), PairOutcome.INCONCLUSIVE, id="fails by majority but not yet significant"),
    pytest.param((1, 1), (0, 5), PairOutcome.INCONCLUSIVE, id="a one-run baseline cannot confirm"),
    pytest.param((20, 25), (4, 5), PairOutcome.CLEARED, id="a flaky case as flaky as before"),
    pytest.param((4, 5), (1, 2), PairOutcome.CLEARED, id="flaky in the baseline, failing by majority now: its test decides"),
    pytest.param((5, 5), (1, 2), PairOutcome.INCONCLUSIVE, id="never failed in the baseline, failing by majority now"),
])
def test_pair_outcomes(base: tuple[int, int], now: tuple[int, int], expected: PairOutcome) -> None:
    metrics, comparison = compared({"x": base}, {"x": now})
    (decided,) = regressions.decide(metrics, comparison, alpha=0.05)
    assert decided.outcome is expected


def test_unchanged_and_known_failing_pairs_need_no_decision() -> None:
    metrics, comparison = compared({"a": (5, 5), "b": (0, 5)}, {"a": (1, 1), "b": (0, 1)})
    assert regressions.decide(metrics, comparison, alpha=0.05) == []


def test_the_family_is_corrected_but_flakes_do_not_dilute_it() -> None:
    # Two confirmed-looking regressions: each p = 1/252 must meet alpha / K with K = 2 (Tarone).
    base = {"a": (5, 5), "b": (5, 5), "c": (5, 5), "d": (5, 5)}
    now = {"a": (0, 5), "b": (0, 5), "c": (4, 5), "d": (4, 5)}
    metrics, comparison = compared(base, now)
    decided = {d.case_id: d for d in regressions.decide(metrics, comparison, alpha=0.05)}
    assert decided["c0"].level == pytest.approx(0.025)  # c and d cannot reach significance: not counted
    assert [decided[c].outcome for c in ("c0", "c1", "c2", "c3")] == [
        PairOutcome.REGRESSED, PairOutcome.REGRESSED, PairOutcome.CLEARED, PairOutcome.CLEARED]


def test_point_mode_regression_is_any_failure_where_every_baseline_run_passed() -> None:
    metrics, comparison = compared({"a": (5, 5), "b": (4, 5)}, {"a": (4, 5), "b": (0, 5)})
    decided = regressions.decide(metrics, comparison, alpha=0.05, point=True)
    assert [(d.case_id, d.outcome) for d in decided] == [("c0", PairOutcome.REGRESSED)]


def test_which_pairs_stay_open_for_reruns() -> None:
    metrics, comparison = compared({"a": (5, 5), "b": (5, 5), "c": (1, 5)}, {"a": (0, 1), "b": (1, 1), "c": (0, 1)})
    # a: failing, could be confirmed; b: passing, nothing to confirm; c: rarely passed before, no test can tell
    assert regressions.still_open(metrics, comparison, alpha=0.05, remaining=4) == [("c0", "A")]
    assert regressions.still_open(metrics, comparison, alpha=0.05, remaining=0) == []


def test_a_pair_failing_by_majority_is_rerun_even_when_no_run_left_could_confirm_it() -> None:
    # 1 of 2 against 4 of 5: three more failing runs could not reach alpha, yet stopping would leave a
    # flake of a flaky case undecided; 3 of 4 passes by majority and is left alone
    metrics, comparison = compared({"a": (4, 5), "b": (4, 5)}, {"a": (1, 2), "b": (3, 4)})
    assert not regressions.can_still_regress(RunCount(passed=4, judged=5), RunCount(passed=1, judged=2), 3, 0.05)
    assert regressions.still_open(metrics, comparison, alpha=0.05, remaining=3) == [("c0", "A")]


def test_regression_messages_carry_the_counts_and_the_test() -> None:
    metrics, comparison = compared({"a": (5, 5), "b": (5, 5)}, {"a": (0, 4), "b": (4, 5)})
    found = decision.pair_findings(regressions.decide(metrics, comparison, alpha=0.05), metrics, CONFIDENCE)
    assert [message_of(f) for f in found] == [
        "c0 (A): passes 0 of 4 runs now, 5 of 5 in the baseline (Fisher p = 0.00794 ≤ 0.05)",
        "c1 (A): passes 4 of 5 runs now, 5 of 5 in the baseline — within the baseline's noise, not a regression",
    ]
    assert [f.level.value for f in found] == ["error", "info"]


# --- a dimension below its baseline: stratified by case --------------------------------------

def test_dimension_regression_needs_evidence_across_cases() -> None:
    base = {c: (5, 5) for c in "abcdef"}
    one_flake = {**{c: (1, 1) for c in "abcde"}, "f": (4, 5)}
    metrics, comparison = compared(base, one_flake)
    assert decision.dimension_regressions(metrics, comparison, CONFIDENCE) == []
    assert [f.rule for f in decision.dimension_regressions(metrics, comparison, POINT)] == ["dimension-regression"]
    broken = {**{c: (1, 1) for c in "abcd"}, "e": (0, 4), "f": (0, 4)}
    metrics, comparison = compared(base, broken)
    (finding,) = decision.dimension_regressions(metrics, comparison, CONFIDENCE)
    assert (finding.rule, finding.outcome, finding.level.value) == ("dimension-regression", "fail", "error")
    assert finding.p_value is not None and finding.p_value < 0.001


def test_a_dimension_finding_is_not_a_second_finding_for_a_regressed_case() -> None:
    base = {c: (5, 5) for c in "abcdef"}
    broken = {**{c: (1, 1) for c in "abcd"}, "e": (0, 4), "f": (0, 4)}
    metrics, comparison = compared(base, broken)
    named = frozenset({("c4", "A"), ("c5", "A")})
    assert decision.dimension_regressions(metrics, comparison, CONFIDENCE, named) == []
    assert len(decision.dimension_regressions(metrics, comparison, CONFIDENCE, frozenset({("c4", "A")}))) == 1
