"""Is a (case, group) worse than in the baseline? Exact tests on pass counts, corrected as a family.

Per pair: a one-sided Fisher exact test of the pass count now against the baseline's. The family
of pairs is corrected with Tarone's Bonferroni for discrete tests: a pair whose margins cannot give
a small p-value (no failure anywhere, or too few runs) does not dilute the others — so a flake that
reruns cleared does not make a real regression harder to confirm.

``point`` mode keeps the literal rule: a pair that passed every baseline run and fails one now.
"""

from __future__ import annotations

from enum import Enum

from pydantic import ConfigDict

from gate.model import SharedFieldNames
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import Metrics
from gate.scoring.power import detectable_drop
from gate.scoring.stats import fisher_less, fisher_min_attainable, four_digits_or_none, tarone_bonferroni
from gate.verdict import RunCount

MAX_RUNS_NEEDED = 100
"""Beyond this many more runs, "what would decide it" is the baseline, not the check."""


class PairOutcome(str, Enum):
    """What the evidence says of a (case, group) that fails now where the baseline passed."""

    REGRESSED = "regressed"
    INCONCLUSIVE = "inconclusive"
    CLEARED = "cleared"


class PairDecision(SharedFieldNames):
    """The decision on one (case, group), with its evidence."""

    model_config = ConfigDict(frozen=True)

    case_id: str
    group: str
    baseline: RunCount
    now: RunCount
    outcome: PairOutcome
    p_value: float | None = None
    level: float | None = None
    """The corrected significance level the p-value was held to (alpha / K)."""
    runs_needed: int | None = None
    """Inconclusive: about how many more runs like these would decide it (None: more baseline runs)."""
    detectable_drop: float | None = None
    """The drop in this pair's pass rate its runs could have detected at ``level`` (decision.power)."""

    def as_json(self) -> dict[str, object]:
        return {
            "case_id": self.case_id, "group": self.group, "outcome": self.outcome.value,
            "test": POINT_TEST if self.p_value is None else TEST,
            "now": self.now.model_dump(), "baseline": self.baseline.model_dump(),
            "p_value": four_digits_or_none(self.p_value), "level": four_digits_or_none(self.level),
            "runs_needed": self.runs_needed,
            "detectable_drop": self.detectable_drop,
        }


TEST = "one-sided Fisher exact test against the baseline, Tarone-corrected over the compared pairs"
POINT_TEST = "point: passed every baseline run and fails one now"


Pair = tuple[str, str]


def compared_pairs(metrics: Metrics, comparison: Comparison) -> dict[Pair, tuple[RunCount, RunCount]]:
    """(baseline, now) counts of every (case, group) judged in both, in key order."""
    pairs = {}
    for case_id, outcome in sorted(metrics.cases.items()):
        for group, now in sorted(outcome.counts.items()):
            before = comparison.count(case_id, group)
            if before is not None and before.judged and now.judged:
                pairs[(case_id, group)] = (before, now)
    return pairs


def suspicious(before: RunCount, now: RunCount) -> bool:
    """A pair worth a decision: it fails now at least once, and passed at least once before."""
    return now.passed < now.judged and before.passed > 0


def family_level(pairs: dict[Pair, tuple[RunCount, RunCount]], alpha: float) -> float:
    """alpha / K, Tarone's corrected level for the whole family of compared pairs."""
    if not pairs:
        return alpha
    mins = [fisher_min_attainable(b.passed, b.judged, n.passed, n.judged) for b, n in pairs.values()]
    _, k = tarone_bonferroni([1.0] * len(mins), mins, alpha)
    return alpha / k


def p_value(before: RunCount, now: RunCount) -> float:
    return fisher_less(before.passed, before.judged, now.passed, now.judged)


def fails_by_majority_now(before: RunCount, now: RunCount) -> bool:
    """Passed by majority in the baseline, and passes by majority no more."""
    return 2 * before.passed > before.judged and 2 * now.passed <= now.judged


def can_still_regress(before: RunCount, now: RunCount, remaining: int, alpha: float) -> bool:
    """Whether ``remaining`` more runs, all failing, could bring the test to ``alpha``."""
    return fisher_less(before.passed, before.judged, now.passed, now.judged + remaining) <= alpha


def runs_needed(before: RunCount, now: RunCount, level: float) -> int | None:
    """More runs at the rate seen now that would bring the p-value to ``level``; None past the cap."""
    rate = now.passed / now.judged
    for extra in range(1, MAX_RUNS_NEEDED + 1):
        passed = now.passed + round(extra * rate)
        if fisher_less(before.passed, before.judged, passed, now.judged + extra) <= level:
            return extra
    return None


def decide(metrics: Metrics, comparison: Comparison, *, alpha: float, point: bool = False,
           power: float = 0.8) -> list[PairDecision]:
    """A decision for every suspicious pair, in key order.

    Confidence mode: regressed when the p-value meets the family's corrected level; inconclusive
    when it does not, but the test is significant before the correction, or a pair that never
    failed in the baseline passes by majority no more; cleared otherwise — a flake (a pair the
    baseline already saw fail is judged by its test alone: flaky there, flaky here). Point mode: regressed when every baseline run
    passed and a run fails now.
    """
    pairs = compared_pairs(metrics, comparison)
    decisions = []
    if point:
        for (case_id, group), (before, now) in pairs.items():
            if before.passed == before.judged and now.passed < now.judged:
                decisions.append(PairDecision(case_id=case_id, group=group, baseline=before, now=now,
                                              outcome=PairOutcome.REGRESSED))
        return decisions
    level = family_level(pairs, alpha)
    for (case_id, group), (before, now) in pairs.items():
        if not suspicious(before, now):
            continue
        p = p_value(before, now)
        if p <= level:
            outcome, needed = PairOutcome.REGRESSED, None
        elif p <= alpha or (fails_by_majority_now(before, now) and before.passed == before.judged):
            outcome, needed = PairOutcome.INCONCLUSIVE, runs_needed(before, now, level)
        else:
            outcome, needed = PairOutcome.CLEARED, None
        decisions.append(PairDecision(case_id=case_id, group=group, baseline=before, now=now, outcome=outcome,
                                      p_value=p, level=level, runs_needed=needed,
                                      detectable_drop=detectable_drop(before.passed, before.judged, now.judged,
                                                                      level, power)))
    return decisions


def still_open(metrics: Metrics, comparison: Comparison, *, alpha: float, remaining: int) -> list[Pair]:
    """Suspicious pairs that more runs could still settle: not yet regressed at a level that cannot
    tighten further, and either able to reach ``alpha`` if every remaining run failed or failing by
    majority now (a flake of a flaky case: 1 of 2 against 4 of 5 — more runs clear it or keep it
    failing, where stopping would leave it undecided)."""
    pairs = compared_pairs(metrics, comparison)
    suspects = {key: counts for key, counts in pairs.items() if suspicious(*counts)}
    # Confirming early is safe only at a level no later round can tighten: one per suspect.
    early = min(family_level(pairs, alpha), alpha / max(len(suspects), 1))
    if remaining <= 0:
        return []
    return [key for key, (before, now) in suspects.items()
            if p_value(before, now) > early
            and (can_still_regress(before, now, remaining, alpha) or fails_by_majority_now(before, now))]
