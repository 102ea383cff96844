"""Which dimensions a check looks at again: chosen on selection runs that no test reads.

Selection runs are the first round and one pilot run of every (case, group) of each dimension whose
first round failed at all and more often than the others'. Neither the baseline nor any run a test
reads enters the choice (but for leaving out a case the baseline never passed, whose failure is
expected), so with no true drop the tested runs and the baseline are independent of the choice —
whatever it is (:mod:`gate.policy.drift`).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass

from gate.case import Case
from gate.config.decision import DecisionConfig
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
TESTED_ROUNDS = 6
"""The rounds a chosen dimension should still be able to get after the pilot: with fewer, a thin
drop's test is too weak for a better choice to matter, and the pilot is not made."""
WEIGHTS = {1: (1.0,), 2: (2 / 3, 1 / 3)}
"""Each chosen dimension's share of the more rounds' alpha, by rank: the second is tested only on
what the first left of the budget, after the first was decided."""


@dataclass(frozen=True)
class Candidate:
    """A dimension, or a declared group of cases, with its compared strata and its selection runs' failures."""

    dimension: str
    strata: tuple[Stratum, ...]
    failed: int
    runs: int
    declared: bool = False
    """A group of ``decision.case_groups``: its runs are also its dimensions', so it is compared with
    the selection's overall share rather than counted in it."""


Groups = Mapping[str, frozenset[str]]
"""A declared group's label ("group checkout") and its case ids."""


def matching(case_id: str, tags: tuple[str, ...], pattern: str) -> bool:
    """Whether a case belongs to a group's entry: ``tag:NAME``, or a case id pattern (``B3-QC-*``)."""
    return pattern[4:] in tags if pattern.startswith("tag:") else fnmatch.fnmatchcase(case_id, pattern)


def declared(cases: Mapping[str, Case], case_groups: Mapping[str, list[str]]) -> dict[str, frozenset[str]]:
    """Each declared group's label and the ids of the cases its entries name."""
    return {f"group {name}": frozenset(cid for cid, case in cases.items()
                                       if any(matching(cid, case.tags, pattern) for pattern in patterns))
            for name, patterns in case_groups.items()}


def unmatched(cases: Mapping[str, Case], case_groups: Mapping[str, list[str]]) -> list[tuple[str, str]]:
    """(group, entry) of every entry that names no case: a typo would watch nothing."""
    return [(name, pattern) for name, patterns in case_groups.items() for pattern in patterns
            if not any(matching(cid, case.tags, pattern) for cid, case in cases.items())]


def candidates(selection: Metrics, comparison: Comparison, min_failed: int = MIN_FAILED,
               groups: Groups | None = None) -> list[Candidate]:
    """Dimensions (and declared groups) whose selection runs failed more than the others', most
    doubtful first."""
    found: dict[str, list[Stratum]] = {}
    failed: dict[str, int] = {}
    runs: dict[str, int] = {}
    for case_id, outcome in sorted(selection.cases.items()):
        dimension = selection.case_dimension.get(case_id)
        labels = ([dimension] if dimension is not None else []) + sorted(
            label for label, ids in (groups or {}).items() if case_id in ids)
        for group, now in sorted(outcome.counts.items()):
            before = comparison.count(case_id, group)
            if not now.judged or before is None or not before.judged:
                continue
            for label in labels:
                found.setdefault(label, []).append((case_id, group))
                if before.passed:  # a case the baseline never passed fails as expected: no doubt in that
                    failed[label] = failed.get(label, 0) + now.judged - now.passed
                    runs[label] = runs.get(label, 0) + now.judged
    return ranked([Candidate(d, tuple(s), failed.get(d, 0), runs.get(d, 0), d in (groups or {}))
                   for d, s in found.items()], min_failed)


def ranked(found: list[Candidate], min_failed: int = MIN_FAILED) -> list[Candidate]:
    """Dimensions that failed more often than the selection as a whole, the least likely at its
    overall failure share first (a binomial tail: three failures of 12 runs before one of 2); a
    declared group, more often than the whole."""
    dimensions = [c for c in found if not c.declared]
    failed, runs = sum(c.failed for c in dimensions), sum(c.runs for c in dimensions)
    share = failed / max(runs, 1)

    def tail(c: Candidate) -> float:
        return 1 - binomial_cdf(c.failed - 1, c.runs, share)

    def above(c: Candidate) -> bool:  # above the others' failure share (with none, any failure is)
        if c.declared:
            return c.failed * runs > failed * c.runs or failed == c.failed
        return runs == c.runs or c.failed * (runs - c.runs) > (failed - c.failed) * c.runs

    doubtful = [c for c in found if c.failed >= min_failed and above(c)]
    return sorted(doubtful, key=lambda c: (tail(c), c.dimension))


def more_calls(settings: DecisionConfig, first_calls: int, spent: int) -> int:
    """Calls the budget leaves beyond the first round after ``spent`` (confirm reruns, the pilot)."""
    return max(int((settings.budget - 1) * first_calls + 1e-9) - spent, 0)


def pilot(first: Metrics, comparison: Comparison, settings: DecisionConfig, first_calls: int,
          spent: int = 0, groups: Groups | None = None) -> list[Stratum]:
    """One selection run more of every pair of each dimension the first round doubts at all, most
    doubtful first, within ``PILOT_SHARE`` of the calls left."""
    calls = more_calls(settings, first_calls, spent)
    return piloted(candidates(first, comparison, min_failed=1, groups=groups), calls)


def piloted(doubtful: list[Candidate], calls: int) -> list[Stratum]:
    """The pairs of ``doubtful`` (ranked) a pilot runs with ``calls`` left: none when what it leaves
    could not give the most doubtful ``TESTED_ROUNDS``."""
    cap = int(PILOT_SHARE * calls + 1e-9)
    if not doubtful or (calls - cap) // len(doubtful[0].strata) < TESTED_ROUNDS:
        return []  # a small budget is better spent testing the first round's choice than improving it
    found: dict[Stratum, None] = {}  # a pair of a dimension and of a group it shares runs with is piloted once
    for candidate in doubtful:
        new = [s for s in candidate.strata if s not in found]
        if len(found) + len(new) <= cap:
            found.update(dict.fromkeys(new))
    return list(found)


def chosen(selection: Metrics, comparison: Comparison, available: int,
           groups: Groups | None = None) -> tuple[Candidate, ...]:
    """The dimensions tested, in order: the most doubtful, then the next (on what the first leaves) —
    when ``available`` calls could give it ``TESTED_ROUNDS`` after the first's earliest stop (its
    third round); otherwise the first alone, at the whole level."""
    return tested(candidates(selection, comparison, groups=groups), available)


def tested(ordered: list[Candidate], available: int) -> tuple[Candidate, ...]:
    """The first of the ranked candidates, and the second when the calls leave it room (see :func:`chosen`)."""
    if len(ordered) > 1 and 3 * len(ordered[0].strata) + TESTED_ROUNDS * len(ordered[1].strata) <= available:
        return tuple(ordered[:2])
    return tuple(ordered[:1])
