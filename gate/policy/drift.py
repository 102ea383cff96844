"""A dimension that drifts: more rounds where the selection runs point, and their test.

One run per case misses a drop spread thin (six cases passing 75 % instead of 95 % mostly still
pass their one run), and confirm reruns go only to the pairs that newly fail. So, within the
budget, the dimensions the selection runs put in doubt (:mod:`gate.policy.drift_choice`: the first
round and a pilot run of each doubtful dimension) are run again, every (case, group) a round at a
time, and each is tested on those fresh runs only. The design keeps the family's error at ``alpha``:

1. **Selection and test read disjoint runs.** Every run is independent of every other, so with no
   true drop the fresh runs and the baseline are independent of the selection runs that chose the
   dimension: the test keeps its level whatever was chosen (but for leaving out a case the
   baseline never passed: with true pass rate p over n baseline runs that happens with probability
   (1 − p)ⁿ, 3·10⁻⁷ at 95 % over 5 runs).
2. **The test**: the exact test stratified by (case, group) of the fresh rounds' pass counts
   against the baseline's.
3. **At most two dimensions, one after the other.** The most doubtful takes the rounds the budget
   buys (at most ``power_rounds``) at ⅔ of ``MORE_ROUNDS_SHARE × alpha``; when it is decided
   without a regression, the next takes what is left at ⅓ (weights fixed by the selection runs, so
   the union bound holds: ⅔ + ⅓). A regressed dimension fails the gate already: the rest is kept.
4. **Sequential looks.** After each round but the last, a dimension stops as regressed when
   p ≤ ℓ / 10(R − 1) (Haybittle–Peto), or as like its baseline when its fresh runs all passed, or
   from the third round on failed no more often than its baseline rates predict (stopping without
   rejecting can only lower the error); the last look is held to 0.9 ℓ. The looks' levels sum to ℓ
   (a union bound over the looks).

The other fifth of ``alpha`` goes to the first-round test of every dimension
(:func:`gate.policy.evidence.dimension_regressions`) when more rounds are possible at all: one run
per case rarely decides a dimension, and the more rounds are where a thin drop shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import ConfigDict

from gate.config.decision import DecisionConfig
from gate.model import SharedFieldNames
from gate.policy.drift_choice import WEIGHTS, Candidate, Groups, Stratum, chosen, more_calls
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import Metrics
from gate.scoring.power import detectable_drop
from gate.scoring.stats import four_digits_or_none, stratified_exact_less
from gate.verdict import RunCount

Outcome = Literal["regressed", "like-baseline", "not-regressed", "open"]
MORE_ROUNDS_SHARE = 0.8
"""The share of alpha the more rounds' tests hold together; the first-round tests hold the rest."""
TEST = "stratified exact test (cases x groups) of the fresh rounds against the baseline"


def enabled(settings: DecisionConfig) -> bool:
    """Whether the settings allow more rounds at all (then the first-round test gets a fifth of alpha)."""
    return settings.mode == "confidence" and settings.power_rounds > 0 and settings.budget > 1


@dataclass(frozen=True)
class Leg:
    """One chosen dimension's test: its level ℓ and the rounds the budget left it when it started."""

    candidate: Candidate
    level: float
    rounds: int

    def look_level(self, look: int) -> float:
        """The level of look ``look`` (1-based): small ones before the last, the rest at the last."""
        if self.rounds <= 1:
            return self.level
        return 0.9 * self.level if look >= self.rounds else 0.1 * self.level / (self.rounds - 1)


@dataclass(frozen=True)
class Plan:
    """The dimensions chosen, in order, and the calls the budget leaves their rounds."""

    chosen: tuple[Candidate, ...]
    available: int
    alpha: float
    max_rounds: int
    budget_calls: int

    def leg(self, index: int, remaining: int) -> Leg | None:
        """The ``index``-th chosen dimension's test with ``remaining`` calls left; None when no round fits."""
        candidate = self.chosen[index]
        rounds = min(self.max_rounds, remaining // max(len(candidate.strata), 1))
        if rounds < 1:
            return None
        return Leg(candidate, MORE_ROUNDS_SHARE * self.alpha * WEIGHTS[len(self.chosen)][index], rounds)

    @property
    def rounds(self) -> int:
        """The rounds the first chosen dimension may get."""
        first = self.leg(0, self.available) if self.chosen else None
        return first.rounds if first else 0


def plan(selection: Metrics, comparison: Comparison, settings: DecisionConfig, first_calls: int,
         spent: int = 0, groups: Groups | None = None) -> Plan:
    """The dimensions tested and the calls left for them after ``spent`` (confirm reruns, the pilot)."""
    available = more_calls(settings, first_calls, spent)
    return Plan(chosen(selection, comparison, available, groups), available, settings.alpha,
                settings.power_rounds, int(settings.budget * first_calls + 1e-9))


Rows = list[tuple[int, int, int, int]]


def rows(candidate: Candidate, comparison: Comparison, fresh: Mapping[Stratum, RunCount]) -> Rows:
    """(baseline passed, baseline runs, fresh passed, fresh runs) of each stratum."""
    found = []
    for case_id, group in candidate.strata:
        before = comparison.count(case_id, group) or RunCount()
        now = fresh.get((case_id, group), RunCount())
        found.append((before.passed, before.judged, now.passed, now.judged))
    return found


def look(leg: Leg, number: int, table: Rows) -> tuple[Outcome | None, float]:
    """What look ``number`` decides (None: another round) and its p-value."""
    p = stratified_exact_less(table)
    if number >= leg.rounds:
        return ("regressed" if p <= leg.look_level(number) else "not-regressed"), p
    if p <= leg.look_level(number):
        return "regressed", p
    expected = sum(fj * (bj - bp) / bj for bp, bj, _, fj in table if bj)
    failed = sum(fj - fp for _, _, fp, fj in table)
    if failed == 0 or (number >= 3 and failed <= expected):  # two rounds' few failures are no evidence either way
        return "like-baseline", p
    return None, p


class DimensionDrift(SharedFieldNames):
    """The decision on one dimension given more rounds, with its evidence."""

    model_config = ConfigDict(frozen=True)

    dimension: str
    strata: int
    rounds: int
    planned: int
    first_round: RunCount
    baseline: RunCount
    fresh: RunCount
    outcome: Outcome
    p_value: float | None
    level: float
    detectable_drop: float | None

    def as_json(self) -> dict[str, object]:
        return {"dimension": self.dimension, "stage": "more rounds", "test": TEST, "strata": self.strata,
                "rounds": self.rounds, "planned_rounds": self.planned, "outcome": self.outcome,
                "first_round": self.first_round.model_dump(), "baseline": self.baseline.model_dump(),
                "fresh": self.fresh.model_dump(), "p_value": four_digits_or_none(self.p_value), "level": four_digits_or_none(self.level),
                "detectable_drop": self.detectable_drop}


def record(leg: Leg, table: Rows, done: int, outcome: Outcome, p: float | None, power: float) -> DimensionDrift:
    """The decision with its pooled counts and the drop its fresh runs could have detected."""
    candidate = leg.candidate
    base = RunCount(passed=sum(r[0] for r in table), judged=sum(r[1] for r in table))
    fresh = RunCount(passed=sum(r[2] for r in table), judged=sum(r[3] for r in table))
    level = leg.look_level(max(done, 1))
    return DimensionDrift(dimension=candidate.dimension, strata=len(candidate.strata), rounds=done,
                          planned=leg.rounds, first_round=RunCount(passed=candidate.runs - candidate.failed,
                                                                    judged=candidate.runs),
                          baseline=base, fresh=fresh, outcome=outcome, p_value=p, level=level,
                          detectable_drop=detectable_drop(base.passed, base.judged, fresh.judged, leg.look_level(
                              leg.rounds), power))


@dataclass(frozen=True)
class Escalation:
    """What the more rounds bought: the plan, each chosen dimension's decision, the runs made."""

    plan: Plan
    decisions: list[DimensionDrift]
    first_calls: int
    confirm_calls: int
    pilot_calls: int = 0
    made: frozenset[tuple[str, str, int]] = field(default_factory=frozenset)

    def as_json(self) -> dict[str, object]:
        return {"runs": [list(key) for key in sorted(self.made)], "budget": self.plan.budget_calls, "first_round_calls": self.first_calls,
                "confirm_reruns": self.confirm_calls, "pilot_calls": self.pilot_calls, "power_calls": len(self.made),
                "power_calls_available": self.plan.available, "planned_rounds": self.plan.rounds,
                "dimensions": [d.as_json() for d in self.decisions]}
