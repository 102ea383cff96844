"""A dimension that drifts: more rounds where the first round's evidence is, and their test.

One run per case misses a drop spread thin (six cases passing 75 % instead of 95 % mostly still
pass their one run), and confirm reruns go only to the pairs that newly fail. So, within the
budget, every (case, group) of a dimension the first round put in doubt is run again, a round at
a time, and the dimension is tested on those fresh runs. The design keeps the dimension family's
error at ``alpha``:

1. **Selection reads the first round only.** A dimension is a candidate when at least two of its
   first-round runs failed, and more often than the other dimensions' (a case the baseline never
   passed does not count: its failure is expected); candidates go in order of how unlikely their failures are at
   that overall share (a binomial tail, so three failures of 12 runs come before one of 2). A
   pair its own test found regressed is left out: it fails the gate already, and a dimension
   finding should mean a drop beyond the cases named (without such a pair, the choice is the
   baseline-free one, so the gate's error is still bounded as below). The first takes as many
   rounds as the budget buys (at most ``power_rounds``); another joins only if the budget still
   buys every chosen one that many. Beyond those two exclusions, neither the baseline nor the
   confirm reruns enter the choice.
2. **The test reads the fresh runs only**: the exact test stratified by (case, group) of the
   fresh rounds' pass counts against the baseline's. Every run is independent of every other, so
   with no true drop the baseline and the fresh runs are independent of the first round that chose
   the dimension: the test keeps its level whatever the selection (but for the look at which
   cases the baseline never passed: with true pass rate p over n baseline runs that happens with
   probability (1 − p)ⁿ, 3·10⁻⁷ at 95 % over 5 runs). The ``s`` chosen dimensions
   share ``MORE_ROUNDS_SHARE × alpha`` (Bonferroni: 0.8 alpha / s each).
3. **Sequential looks.** After each round but the last, a dimension stops as regressed when
   p ≤ ℓ / 10(R − 1) (Haybittle–Peto), or as like its baseline when its fresh runs all passed, or
   from the second round on failed no more often than its baseline rates predict (stopping
   without rejecting can only lower the error);
   the last look is held to 0.9 ℓ. The looks' levels sum to ℓ (a union bound over the looks).

The other fifth of ``alpha`` goes to the first-round test of every dimension
(:func:`gate.policy.evidence.dimension_regressions`) when more rounds are possible at all: one run
per case rarely decides a dimension, and the more rounds are where a thin drop shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from pydantic import ConfigDict

from gate.config import DecisionConfig
from gate.model import SharedFieldNames
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import Metrics
from gate.scoring.power import detectable_drop
from gate.scoring.stats import binomial_cdf, stratified_exact_less
from gate.verdict import RunCount

Stratum = tuple[str, str]
Outcome = Literal["regressed", "like-baseline", "not-regressed", "open"]
MORE_ROUNDS_SHARE = 0.8
"""The share of alpha the more rounds' tests hold together; the first-round tests hold the rest."""
MIN_FAILED = 2
"""First-round failures a dimension needs before it is looked at again: one is what a 95 % agent
gives a dimension of a dozen runs every other check."""
TEST = "stratified exact test (cases x groups) of the fresh rounds against the baseline"


def enabled(settings: DecisionConfig) -> bool:
    """Whether the settings allow more rounds at all (then the first-round test gets a fifth of alpha)."""
    return settings.mode == "confidence" and settings.power_rounds > 0 and settings.budget > 1


@dataclass(frozen=True)
class Candidate:
    """A dimension with its compared strata and its first round's failing runs."""

    dimension: str
    strata: tuple[Stratum, ...]
    failed: int
    runs: int


@dataclass(frozen=True)
class Plan:
    """The dimensions chosen, in order, the rounds each may get and the calls that buys."""

    chosen: tuple[Candidate, ...]
    rounds: int
    available: int
    alpha: float

    @property
    def level(self) -> float:
        """ℓ, each chosen dimension's share of MORE_ROUNDS_SHARE × alpha."""
        return MORE_ROUNDS_SHARE * self.alpha / max(len(self.chosen), 1)

    def look_level(self, look: int) -> float:
        """The level of look ``look`` (1-based): small ones before the last, the rest at the last."""
        if self.rounds <= 1:
            return self.level
        return 0.9 * self.level if look >= self.rounds else 0.1 * self.level / (self.rounds - 1)


def candidates(first: Metrics, comparison: Comparison, regressed: frozenset[Stratum] = frozenset()) -> list[Candidate]:
    """Dimensions whose first round failed more than the others', most doubtful first; ``regressed``
    pairs (found by their own test, failing the gate already) are left out."""
    found: dict[str, list[Stratum]] = {}
    failed: dict[str, int] = {}
    runs: dict[str, int] = {}
    for case_id, outcome in sorted(first.cases.items()):
        dimension = first.case_dimension.get(case_id)
        for group, now in sorted(outcome.counts.items()):
            before = comparison.count(case_id, group)
            if (dimension is None or not now.judged or before is None or not before.judged
                    or (case_id, group) in regressed):
                continue
            found.setdefault(dimension, []).append((case_id, group))
            if before.passed:  # a case the baseline never passed fails as expected: no doubt in that
                failed[dimension] = failed.get(dimension, 0) + now.judged - now.passed
                runs[dimension] = runs.get(dimension, 0) + now.judged
    return ranked([Candidate(d, tuple(s), failed.get(d, 0), runs.get(d, 0)) for d, s in found.items()])


def ranked(found: list[Candidate]) -> list[Candidate]:
    """Dimensions that failed more often than the first round as a whole, the least likely at its
    overall failure share first (a binomial tail: three failures of 12 runs before one of 2)."""
    failed, runs = sum(c.failed for c in found), sum(c.runs for c in found)
    share = failed / max(runs, 1)

    def tail(c: Candidate) -> float:
        return 1 - binomial_cdf(c.failed - 1, c.runs, share)

    # above the other dimensions' failure share (with none, any failure is)
    doubtful = [c for c in found if c.failed >= MIN_FAILED
                and (runs == c.runs or c.failed * (runs - c.runs) > (failed - c.failed) * c.runs)]
    return sorted(doubtful, key=lambda c: (tail(c), c.dimension))


def choose(first: Metrics, comparison: Comparison, settings: DecisionConfig, first_calls: int,
           regressed: frozenset[Stratum] = frozenset()) -> Plan:
    """The dimensions that get more rounds and how many, within the budget."""
    return allocate(candidates(first, comparison, regressed), settings, first_calls)


def allocate(ordered: list[Candidate], settings: DecisionConfig, first_calls: int) -> Plan:
    """The first candidate takes the rounds the budget buys; the next join while all still get as many."""
    available = int((settings.budget - 1) * first_calls + 1e-9)
    chosen: list[Candidate] = []
    rounds = 0
    for candidate in ordered:
        size = sum(len(c.strata) for c in chosen) + len(candidate.strata)
        fits = min(settings.power_rounds, available // size)
        if not chosen and fits >= 1:
            chosen, rounds = [candidate], fits
        elif chosen and fits >= rounds:
            chosen.append(candidate)
    return Plan(tuple(chosen), rounds, available, settings.alpha)


Rows = list[tuple[int, int, int, int]]


def rows(candidate: Candidate, comparison: Comparison, fresh: Mapping[Stratum, RunCount]) -> Rows:
    """(baseline passed, baseline runs, fresh passed, fresh runs) of each stratum."""
    found = []
    for case_id, group in candidate.strata:
        before = comparison.count(case_id, group) or RunCount()
        now = fresh.get((case_id, group), RunCount())
        found.append((before.passed, before.judged, now.passed, now.judged))
    return found


def look(plan: Plan, number: int, table: Rows) -> tuple[Outcome | None, float]:
    """What look ``number`` decides (None: another round) and its p-value."""
    p = stratified_exact_less(table)
    if number >= plan.rounds:
        return ("regressed" if p <= plan.look_level(number) else "not-regressed"), p
    if p <= plan.look_level(number):
        return "regressed", p
    expected = sum(fj * (bj - bp) / bj for bp, bj, _, fj in table if bj)
    failed = sum(fj - fp for _, _, fp, fj in table)
    if failed == 0 or (number >= 2 and failed <= expected):  # one round's single failure is no evidence either way
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
                "fresh": self.fresh.model_dump(), "p_value": _round(self.p_value), "level": _round(self.level),
                "detectable_drop": self.detectable_drop}


def _round(value: float | None) -> float | None:
    return None if value is None else float(f"{value:.4g}")


def record(plan: Plan, candidate: Candidate, table: Rows, done: int, outcome: Outcome, p: float | None,
           power: float) -> DimensionDrift:
    """The decision with its pooled counts and the drop its fresh runs could have detected."""
    base = RunCount(passed=sum(r[0] for r in table), judged=sum(r[1] for r in table))
    fresh = RunCount(passed=sum(r[2] for r in table), judged=sum(r[3] for r in table))
    level = plan.look_level(max(done, 1))
    return DimensionDrift(dimension=candidate.dimension, strata=len(candidate.strata), rounds=done,
                          planned=plan.rounds, first_round=RunCount(passed=candidate.runs - candidate.failed,
                                                                    judged=candidate.runs),
                          baseline=base, fresh=fresh, outcome=outcome, p_value=p, level=level,
                          detectable_drop=detectable_drop(base.passed, base.judged, fresh.judged, plan.look_level(
                              plan.rounds), power))


@dataclass(frozen=True)
class Escalation:
    """What the more rounds bought: the plan, each chosen dimension's decision, the runs made."""

    plan: Plan
    decisions: list[DimensionDrift]
    first_calls: int
    confirm_calls: int
    made: frozenset[tuple[str, str, int]] = field(default_factory=frozenset)

    def as_json(self) -> dict[str, object]:
        return {"runs": [list(key) for key in sorted(self.made)], "budget": self.plan.available + self.first_calls, "first_round_calls": self.first_calls,
                "confirm_reruns": self.confirm_calls, "power_calls": len(self.made),
                "power_calls_available": self.plan.available, "planned_rounds": self.plan.rounds,
                "dimensions": [d.as_json() for d in self.decisions]}
