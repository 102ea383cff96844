"""More rounds for a drifting dimension: who gets them, within the budget, and the error they keep."""

from __future__ import annotations

import random

import pytest

from gate.config import DecisionConfig
from gate.policy import drift
from gate.scoring.comparison import compare, from_metrics
from gate.scoring.metrics import compute
from gate.verdict import RunVerdict, Status
from tests.casefiles import repo_cases

CASES = repo_cases().cases
QC = sorted(c for c in CASES if c.startswith("B3-QC"))
LC = sorted(c for c in CASES if c.startswith("B3-LC"))
MC = sorted(c for c in CASES if c.startswith("B3-MC"))


def _runs(ids: list[str], runs: int, failing: set[tuple[str, str, int]] = frozenset()) -> list[RunVerdict]:  # type: ignore[assignment]
    return [RunVerdict(case_id=c, group=g, run=r, status=Status.FAIL if (c, g, r) in failing else Status.PASS)
            for c in ids for g in ("A", "B") for r in range(runs)]


def _plan(first: list[RunVerdict], base: list[RunVerdict], **settings: float) -> drift.Plan:
    computed = compute(CASES, first)
    baseline = from_metrics(compute(CASES, base), cases_digest="sha256:x", identity={})
    return drift.choose(computed, compare(baseline, computed, "sha256:x"), DecisionConfig(**settings), len(first))


def test_only_a_dimension_whose_first_round_failed_gets_more_rounds() -> None:
    base = _runs(QC + LC, 5)
    plan = _plan(_runs(QC + LC, 1, {(QC[0], "A", 0), (QC[1], "B", 0)}), base, budget=2.0)
    assert [c.dimension for c in plan.chosen] == ["B3/QC"]
    assert plan.chosen[0].strata == tuple((c, g) for c in QC for g in ("A", "B"))
    assert _plan(_runs(QC + LC, 1), base, budget=2.0).chosen == ()
    assert _plan(_runs(QC + LC, 1, {(QC[0], "A", 0)}), base, budget=2.0).chosen == ()  # one failure: no doubt
    assert _plan(_runs(QC + LC, 1, {(QC[0], "A", 0), (QC[1], "B", 0)}), base).chosen == ()  # 11 calls: no round


def test_a_case_the_baseline_never_passed_is_no_reason_for_more_rounds() -> None:
    base = _runs(QC, 5, {(QC[0], "A", r) for r in range(5)})
    assert _plan(_runs(QC, 1, {(QC[0], "A", 0), (QC[1], "A", 0)}), base, budget=2.0).chosen == ()
    assert [c.dimension for c in _plan(_runs(QC, 1, {(QC[1], "A", 0), (QC[2], "A", 0)}), base,
                                       budget=2.0).chosen] == ["B3/QC"]


def test_the_budget_bounds_the_rounds_and_who_joins() -> None:
    base = _runs(QC + LC + MC, 5)
    first = _runs(QC + LC + MC, 1, {(QC[0], "A", 0), (QC[1], "B", 0), (QC[2], "B", 0), (LC[0], "A", 0),
                                    (LC[1], "B", 0)})  # 34 calls
    plan = _plan(first, base, budget=1.65)  # 22 more calls: QC (12 a round) first, 1 round; LC (10) fits too
    assert ([c.dimension for c in plan.chosen], plan.rounds, plan.available) == (["B3/QC", "B3/LC"], 1, 22)
    plan = _plan(first, base, budget=2.3)  # 44: QC alone could have 3 rounds, with LC (10) only 2: LC stays out
    assert ([c.dimension for c in plan.chosen], plan.rounds) == (["B3/QC"], 3)
    plan = _plan(first, base, budget=2.3, power_rounds=2)  # capped at 2 rounds: both fit (44 ≥ 2 × 22)
    assert ([c.dimension for c in plan.chosen], plan.rounds) == (["B3/QC", "B3/LC"], 2)
    assert plan.rounds * sum(len(c.strata) for c in plan.chosen) <= plan.available
    assert _plan(first, base, budget=1.0).chosen == ()


def test_a_dimension_failing_no_more_than_the_others_gets_nothing() -> None:
    base = _runs(QC + LC + MC, 5)
    first = _runs(QC + LC + MC, 1, {(QC[0], "A", 0), (QC[1], "A", 0), (LC[0], "A", 0), (LC[1], "A", 0),
                                    (MC[0], "B", 0), (MC[1], "B", 0)})
    assert [c.dimension for c in _plan(first, base, budget=3.0).chosen] == ["B3/LC"]  # 2 of 10 is above 4 of 24


def test_the_looks_levels_add_up_to_the_dimensions_share_of_alpha() -> None:
    plan = drift.Plan(chosen=(drift.Candidate("d", (), 1, 1),) * 2, rounds=4, available=0, alpha=0.05)
    assert plan.level == pytest.approx(0.02)  # 0.8 alpha shared by two
    assert sum(plan.look_level(k) for k in range(1, 5)) == pytest.approx(plan.level)
    assert plan.look_level(4) == pytest.approx(0.9 * plan.level)


def test_a_look_decides_regressed_like_its_baseline_or_another_round() -> None:
    plan = drift.Plan(chosen=(drift.Candidate("d", (), 1, 1),), rounds=4, available=0, alpha=0.05)
    steady = [(5, 5, 1, 1)] * 12
    assert drift.look(plan, 1, steady)[0] == "like-baseline"
    assert drift.look(plan, 1, [(5, 5, 0, 1)] * 3 + [(5, 5, 1, 1)] * 9)[0] is None
    assert drift.look(plan, 2, [(5, 5, 0, 2)] * 12)[0] == "regressed"  # interim: p far below ℓ / 30
    assert drift.look(plan, 4, [(5, 5, 3, 4)] * 12)[0] in ("regressed", "not-regressed")
    assert drift.look(plan, 4, steady)[0] == "not-regressed"


def _simulate(rng: random.Random, rates: dict[str, list[float]], now: dict[str, list[float]],
              settings: DecisionConfig, first_calls: int) -> tuple[bool, int]:
    """One check of the policy alone: does any dimension end regressed, and how many more calls."""
    def runs(p: float, n: int) -> int:
        return sum(rng.random() < p for _ in range(n))

    base = {d: [runs(p, 5) for p in ps] for d, ps in rates.items()}
    first = {d: [runs(p, 1) for p in ps] for d, ps in now.items()}
    found = [drift.Candidate(d, tuple((d, str(i)) for i in range(len(ps))), sum(1 - x for x in first[d]), len(ps))
             for d, ps in rates.items()]
    plan = drift.allocate(drift.ranked(found), settings, first_calls)
    chosen, rounds = plan.chosen, plan.rounds
    rejected, calls = False, 0
    for c in chosen:
        fresh = [0] * len(c.strata)
        for number in range(1, rounds + 1):
            fresh = [f + runs(p, 1) for f, p in zip(fresh, now[c.dimension], strict=True)]
            calls += len(c.strata)
            table = [(b, 5, f, number) for b, f in zip(base[c.dimension], fresh, strict=True)]
            outcome, _ = drift.look(plan, number, table)
            if outcome is not None:
                rejected |= outcome == "regressed"
                break
    return rejected, calls


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
    assert found / 300 >= 0.4
