"""More rounds for a drifting dimension: who gets them, within the budget, and the error they keep."""

from __future__ import annotations

import random

import pytest

from gate.config.decision import DecisionConfig
from gate.policy import drift, drift_choice
from gate.scoring.comparison import Comparison, compare, from_metrics
from gate.scoring.metrics import Metrics, compute
from gate.verdict import RunVerdict, Status
from tests.casefiles import repo_cases

CASES = repo_cases().cases
QC = sorted(c for c in CASES if c.startswith("B3-QC"))
LC = sorted(c for c in CASES if c.startswith("B3-LC"))
MC = sorted(c for c in CASES if c.startswith("B3-MC"))


def _runs(ids: list[str], runs: int, failing: set[tuple[str, str, int]] = frozenset()) -> list[RunVerdict]:  # type: ignore[assignment]
    return [RunVerdict(case_id=c, group=g, run=r, status=Status.FAIL if (c, g, r) in failing else Status.PASS)
            for c in ids for g in ("A", "B") for r in range(runs)]


def _selection(first: list[RunVerdict], base: list[RunVerdict]) -> tuple[Metrics, Comparison]:
    computed = compute(CASES, first)
    baseline = from_metrics(compute(CASES, base), cases_digest="sha256:x", identity={})
    return computed, compare(baseline, computed, "sha256:x")


def _plan(first: list[RunVerdict], base: list[RunVerdict], spent: int = 0, **settings: float) -> drift.Plan:
    computed, comparison = _selection(first, base)
    return drift.plan(computed, comparison, DecisionConfig(**settings), len(first), spent=spent)


def test_only_a_dimension_whose_selection_runs_failed_is_chosen() -> None:
    base = _runs(QC + LC, 5)
    plan = _plan(_runs(QC + LC, 1, {(QC[0], "A", 0), (QC[1], "B", 0)}), base, budget=2.0)
    assert [c.dimension for c in plan.chosen] == ["B3/QC"]
    assert plan.chosen[0].strata == tuple((c, g) for c in QC for g in ("A", "B"))
    assert _plan(_runs(QC + LC, 1), base, budget=2.0).chosen == ()
    assert _plan(_runs(QC + LC, 1, {(QC[0], "A", 0)}), base, budget=2.0).chosen == ()  # one failure: no doubt
    assert _plan(_runs(QC + LC, 1, {(QC[0], "A", 0), (QC[1], "B", 0)}), base, budget=1.5).rounds == 0  # 11 calls


def test_a_case_the_baseline_never_passed_is_no_reason_to_look_again() -> None:
    base = _runs(QC, 5, {(QC[0], "A", r) for r in range(5)})
    assert _plan(_runs(QC, 1, {(QC[0], "A", 0), (QC[1], "A", 0)}), base, budget=2.0).chosen == ()
    assert [c.dimension for c in _plan(_runs(QC, 1, {(QC[1], "A", 0), (QC[2], "A", 0)}), base,
                                       budget=2.0).chosen] == ["B3/QC"]


def test_the_pilot_takes_every_doubtful_dimension_when_the_budget_can_still_test_one() -> None:
    base = _runs(QC + LC + MC, 5)
    first = _runs(QC + LC + MC, 1, {(QC[0], "A", 0), (QC[1], "B", 0), (LC[0], "A", 0)})  # 34 calls
    computed, comparison = _selection(first, base)
    # 5×: 136 more calls, a third for the pilot leaves QC (12 pairs) 7 rounds: QC and LC (one failure each) piloted
    assert sorted({c for c, _ in drift_choice.pilot(computed, comparison, DecisionConfig(budget=5.0), len(first))}) == \
        sorted(QC + LC)
    # 2.5×: 51 more calls, the pilot would leave QC 2 rounds: better spent on testing the first round's choice
    assert drift_choice.pilot(computed, comparison, DecisionConfig(budget=2.5), len(first)) == []
    assert drift_choice.pilot(computed, comparison, DecisionConfig(budget=5.0), len(first), spent=60) == []
    assert drift_choice.pilot(*_selection(_runs(QC + LC, 1), base), DecisionConfig(budget=5.0), 22) == []  # no doubt


def test_two_dimensions_at_most_the_second_on_what_the_first_leaves() -> None:
    base = _runs(QC + LC + MC, 5)
    first = _runs(QC + LC + MC, 1, {(QC[0], "A", 0), (QC[1], "B", 0), (QC[2], "B", 0), (LC[0], "A", 0),
                                    (LC[1], "B", 0)})  # 34 calls
    plan = _plan(first, base, budget=4.0)  # 102 more calls: QC may stop at its third round, leaving LC 6
    assert [c.dimension for c in plan.chosen] == ["B3/QC", "B3/LC"]
    assert (plan.available, plan.rounds, plan.budget_calls) == (102, 8, 136)
    first_leg, second_leg = plan.leg(0, 102), plan.leg(1, 102 - 36)
    assert first_leg is not None and second_leg is not None
    assert (first_leg.rounds, second_leg.rounds) == (8, 6)  # LC's 10 pairs on the 66 calls QC left
    assert first_leg.level == pytest.approx(0.8 * 0.05 * 2 / 3) and second_leg.level == pytest.approx(0.8 * 0.05 / 3)
    assert plan.leg(1, 9) is None  # not one round of LC left
    alone = _plan(first, base, budget=2.3)  # 44: LC could not get 6 rounds after QC's three: QC alone, whole level
    assert [c.dimension for c in alone.chosen] == ["B3/QC"] and alone.rounds == 3
    only = alone.leg(0, 44)
    assert only is not None and only.level == pytest.approx(0.8 * 0.05)
    assert _plan(first, base, budget=4.0, power_rounds=2).rounds == 2
    assert _plan(first, base, budget=1.0).rounds == 0


def test_a_dimension_failing_no_more_than_the_others_is_not_chosen() -> None:
    base = _runs(QC + LC + MC, 5)
    first = _runs(QC + LC + MC, 1, {(QC[0], "A", 0), (QC[1], "A", 0), (LC[0], "A", 0), (LC[1], "A", 0),
                                    (MC[0], "B", 0), (MC[1], "B", 0)})
    assert [c.dimension for c in _plan(first, base, budget=3.0).chosen] == ["B3/LC"]  # 2 of 10 is above 4 of 24


def test_the_looks_levels_add_up_to_the_dimensions_share_of_alpha() -> None:
    leg = drift.Leg(drift.Candidate("d", (), 1, 1), level=0.02, rounds=4)
    assert sum(leg.look_level(k) for k in range(1, 5)) == pytest.approx(leg.level)
    assert leg.look_level(4) == pytest.approx(0.9 * leg.level)
    assert sum(drift_choice.WEIGHTS[2]) == pytest.approx(1)


def test_a_look_decides_regressed_like_its_baseline_or_another_round() -> None:
    leg = drift.Leg(drift.Candidate("d", (), 1, 1), level=0.04, rounds=4)
    steady = [(5, 5, 1, 1)] * 12
    assert drift.look(leg, 1, steady)[0] == "like-baseline"
    assert drift.look(leg, 1, [(5, 5, 0, 1)] * 3 + [(5, 5, 1, 1)] * 9)[0] is None
    # one failure where the baseline's rates predict 1.2: two rounds are too early to stop on that, three are not
    assert drift.look(leg, 2, [(2, 5, 1, 2)] + [(5, 5, 2, 2)] * 11)[0] is None
    assert drift.look(leg, 3, [(2, 5, 2, 3)] + [(5, 5, 3, 3)] * 11)[0] == "like-baseline"
    assert drift.look(leg, 2, [(5, 5, 0, 2)] * 12)[0] == "regressed"  # interim: p far below ℓ / 30
    assert drift.look(leg, 4, [(5, 5, 3, 4)] * 12)[0] in ("regressed", "not-regressed")
    assert drift.look(leg, 4, steady)[0] == "not-regressed"


def _simulate(rng: random.Random, rates: dict[str, list[float]], now: dict[str, list[float]],
              settings: DecisionConfig, first_calls: int) -> tuple[bool, int]:
    """One check of the policy alone (pilot, then at most two dimensions one after the other): does
    any dimension end regressed, and how many more calls."""
    def runs(p: float, n: int) -> int:
        return sum(rng.random() < p for _ in range(n))

    def candidates(passed: dict[str, list[int]], made: dict[str, int], min_failed: int) -> list[drift.Candidate]:
        return drift_choice.ranked([drift.Candidate(d, tuple((d, str(i)) for i in range(len(ps))),
                                                    made[d] * len(ps) - sum(passed[d]), made[d] * len(ps))
                                    for d, ps in now.items()], min_failed)

    base = {d: [runs(p, 5) for p in ps] for d, ps in rates.items()}
    passed = {d: [runs(p, 1) for p in ps] for d, ps in now.items()}
    made = dict.fromkeys(now, 1)
    available = drift_choice.more_calls(settings, first_calls, 0)
    pilot = drift_choice.piloted(candidates(passed, made, 1), available)
    for d in sorted({d for d, _ in pilot}):  # the pilot: one selection run more of each pair
        passed[d] = [x + runs(p, 1) for x, p in zip(passed[d], now[d], strict=True)]
        made[d] = 2
    calls = len(pilot)
    plan = drift.Plan(drift_choice.tested(candidates(passed, made, drift_choice.MIN_FAILED), available - calls),
                      available - calls, settings.alpha, settings.power_rounds, 0)
    remaining = plan.available
    for index in range(len(plan.chosen)):
        leg = plan.leg(index, remaining)
        if leg is None:
            break
        d = leg.candidate.dimension
        fresh = [0] * len(now[d])
        for number in range(1, leg.rounds + 1):
            fresh = [f + runs(p, 1) for f, p in zip(fresh, now[d], strict=True)]
            calls += len(now[d])
            remaining -= len(now[d])
            outcome, _ = drift.look(leg, number, [(b, 5, f, number) for b, f in zip(base[d], fresh, strict=True)])
            if outcome is not None:
                break
        if outcome == "regressed":
            return True, calls
    return False, calls


def test_the_family_error_stays_within_alpha_and_a_thin_drop_is_found() -> None:
    """The whole procedure on synthetic dimensions: an unchanged agent (95 %, a few cases flaky)
    ends regressed in no more than its share of alpha; six cases 20 points worse are found."""
    rng = random.Random(7)
    rates = {"QC": [0.95] * 12, "AC": [0.95] * 24 + [0.7] * 4, "LC": [0.95] * 10, "MC": [0.7] * 2 + [0.95] * 10}
    settings = DecisionConfig()
    trials = 1500
    alarms = sum(_simulate(rng, rates, rates, settings, 114)[0] for _ in range(trials))
    assert alarms / trials <= drift.MORE_ROUNDS_SHARE * settings.alpha + 0.01
    worse = {**rates, "QC": [0.75] * 12}
    found = sum(_simulate(rng, rates, worse, settings, 114)[0] for _ in range(300))
    assert found / 300 >= 0.75


def test_a_declared_group_names_cases_by_id_pattern_or_tag() -> None:
    groups = drift_choice.declared(CASES, {"quality": ["B3-QC-0[12]"], "tagged": ["tag:golden"], "one": ["B3-LC-01"]})
    assert groups["group quality"] == {"B3-QC-01", "B3-QC-02"} and groups["group one"] == {"B3-LC-01"}
    assert groups["group tagged"] == {cid for cid, case in CASES.items() if "golden" in case.tags}
    assert drift_choice.unmatched(CASES, {"typo": ["B3-QQ-*", "B3-QC-01"]}) == [("typo", "B3-QQ-*")]


def test_a_group_failing_above_the_whole_is_a_candidate_beside_its_dimension() -> None:
    base = _runs(QC + LC, 5)
    computed, comparison = _selection(_runs(QC + LC, 1, {(QC[0], "A", 0), (QC[1], "B", 0)}), base)
    groups = drift_choice.declared(CASES, {"pair": QC[:2]})
    found = drift_choice.candidates(computed, comparison, groups=groups)
    assert [c.dimension for c in found] == ["group pair", "B3/QC"]  # 2 of 4 is less likely than 2 of 12
    assert found[0].declared and found[0].strata == tuple((c, g) for c in QC[:2] for g in ("A", "B"))
