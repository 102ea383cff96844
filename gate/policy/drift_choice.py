"""Which dimensions a check looks at again: chosen on selection runs that no test reads.

Selection runs are the first round and one pilot run of every (case, group) of each dimension whose
first round failed at all and more often than the others'. Neither the baseline nor any run a test
reads enters the choice (but for leaving out a case the baseline never passed, whose failure is
expected), so with no true drop the tested runs and the baseline are independent of the choice —
whatever it is (:mod:`gate.policy.drift`).
"""

from __future__ import annotations

from dataclasses import dataclass

from gate.config.gate_yaml import DecisionConfig
from gate.scoring.comparison import Comparison
from gate.scoring.metrics import Metrics
from gate.scoring.stats import binomial_cdf

Stratum = tuple[str, str]
MIN_FAILED = 2
"""Selection failures a dimension needs before it is chosen: one is what a 95 % agent gives a
dimension of a dozen runs every other check."""
PILOT_SHARE = 1 / 3
"""The share of the more rounds' calls the pilot may take: one selection run more of each doubtful
dimension's pairs sorts a thin drop (3 failures in 12 runs) from noise (1 in 12) far better than
one round alone, and leaves two thirds for the runs that are tested."""
WEIGHTS = {1: (1.0,), 2: (2 / 3, 1 / 3)}
"""Each chosen dimension's share of the more rounds' alpha, by rank: the second is tested only on
what the first left of the budget, after the first was decided."""


@dataclass(frozen=True)
class Candidate:
    """A dimension with its compared strata and its selection runs' failures."""

    dimension: str
    strata: tuple[Stratum, ...]
    failed: int
    runs: int


def candidates(selection: Metrics, comparison: Comparison, regressed: frozenset[Stratum] = frozenset(),
               min_failed: int = MIN_FAILED) -> list[Candidate]:
    """Dimensions whose selection runs failed more than the others', most doubtful first; ``regressed``
    pairs (found by their own test, failing the gate already) are left out."""
    found: dict[str, list[Stratum]] = {}
    failed: dict[str, int] = {}
    runs: dict[str, int] = {}
    for case_id, outcome in sorted(selection.cases.items()):
        dimension = selection.case_dimension.get(case_id)
        for group, now in sorted(outcome.counts.items()):
            before = comparison.count(case_id, group)
            if (dimension is None or not now.judged or before is None or not before.judged
                    or (case_id, group) in regressed):
                continue
            found.setdefault(dimension, []).append((case_id, group))
            if before.passed:  # a case the baseline never passed fails as expected: no doubt in that
                failed[dimension] = failed.get(dimension, 0) + now.judged - now.passed
                runs[dimension] = runs.get(dimension, 0) + now.judged
    return ranked([Candidate(d, tuple(s), failed.get(d, 0), runs.get(d, 0)) for d, s in found.items()], min_failed)


def ranked(found: list[Candidate], min_failed: int = MIN_FAILED) -> list[Candidate]:
    """Dimensions that failed more often than the selection as a whole, the least likely at its
    overall failure share first (a binomial tail: three failures of 12 runs before one of 2)."""
    failed, runs = sum(c.failed for c in found), sum(c.runs for c in found)
    share = failed / max(runs, 1)

    def tail(c: Candidate) -> float:
        return 1 - binomial_cdf(c.failed - 1, c.runs, share)

    # above the other dimensions' failure share (with none, any failure is)
    doubtful = [c for c in found if c.failed >= min_failed
                and (runs == c.runs or c.failed * (runs - c.runs) > (failed - c.failed) * c.runs)]
    return sorted(doubtful, key=lambda c: (tail(c), c.dimension))


def more_calls(settings: DecisionConfig, first_calls: int, spent: int) -> int:
    """Calls the budget leaves beyond the first round after ``spent`` (confirm reruns, the pilot)."""
    return max(int((settings.budget - 1) * first_calls + 1e-9) - spent, 0)


def pilot(first: Metrics, comparison: Comparison, settings: DecisionConfig, first_calls: int,
          regressed: frozenset[Stratum] = frozenset(), spent: int = 0) -> list[Stratum]:
    """One selection run more of every pair of each dimension the first round doubts at all, most
    doubtful first, within ``PILOT_SHARE`` of the calls left."""
    cap = int(PILOT_SHARE * more_calls(settings, first_calls, spent) + 1e-9)
    found: list[Stratum] = []
    for candidate in candidates(first, comparison, regressed, min_failed=1):
        if len(found) + len(candidate.strata) <= cap:
            found += candidate.strata
    return found


def chosen(selection: Metrics, comparison: Comparison, regressed: frozenset[Stratum] = frozenset()) -> tuple[Candidate, ...]:
    """The dimensions tested, in order: the most doubtful, then the next (on what the first leaves)."""
    return tuple(candidates(selection, comparison, regressed)[:max(WEIGHTS)])
