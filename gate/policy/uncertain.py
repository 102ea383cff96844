"""Runs the readers could not read one way: never a silent pass.

A constraint is uncertain when two readings of the answer give different verdicts and nothing
separates them; a run with one (and no failure) is uncertain, left out of the pass rates and counted
apart. A gate whose agent answers in a way it can no longer read must not pass on the runs it could
read, so every (case, group) with uncertain runs is a ``needs-a-look`` finding naming the constraint
and both readings of its first uncertain run:

- an open decision (a warning, or an error with ``decision.fail_on_inconclusive``; the verdict word
  INCONCLUSIVE) when the baseline read that pair without doubt, or has no record of it;
- an info note ("known: …") when the baseline's own runs of that pair were uncertain too.

A never-rule (``zero_tolerance``) uncertain in any run is an error whatever the baseline says: a
possible violation is not waved through (a warning while the baseline accepts that violation on the
record). A human verdict in the reviews file settles a constraint on that exact trajectory.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from gate.baseline.store import Acceptance
from gate.case import Case
from gate.config.decision import DecisionConfig
from gate.policy.reasons.never import NeverUncertain, Uncertain
from gate.policy.thresholds import Finding, Level
from gate.scoring.comparison import Comparison
from gate.verdict import ConstraintVerdict, RunVerdict, Status

RULE = "needs-a-look"

Pair = tuple[str, str]


def _is_never_rule(case: Case | None, constraint_id: str) -> bool:
    rule = case.constraint(constraint_id) if case is not None else None
    return rule is not None and rule.zero_tolerance


def _pair_finding(pair: Pair, runs: list[RunVerdict], total: int, cases: Mapping[str, Case],
                  comparison: Comparison, settings: DecisionConfig) -> Finding | None:
    case = cases.get(pair[0])
    shown = [(run.run, c) for run in runs for c in run.uncertain() if not _is_never_rule(case, c.id)]
    if not shown:  # only never-rules were uncertain: their own errors say it
        return None
    first: dict[str, tuple[int, ConstraintVerdict]] = {}
    for run, constraint in shown:
        first.setdefault(constraint.id, (run, constraint))
    # the baseline's record of the pair: uncertain there too, the gap is known
    before = comparison.count(*pair) if comparison.present else None
    known = before is not None and before.uncertain > 0
    reason = Uncertain(case_id=pair[0], group=pair[1], uncertain=len(runs), total=total, baseline=before, known=known,
                       shown=tuple(first.values()))
    if known:
        return Finding(level=Level.INFO, rule=RULE, case_id=pair[0], group=pair[1], value=float(len(runs)),
                       reason=reason)
    level = Level.ERROR if settings.fail_on_inconclusive else Level.WARNING
    return Finding(level=level, rule=RULE, outcome="inconclusive", case_id=pair[0], group=pair[1],
                   value=float(len(runs)), reason=reason)


def _never_finding(key: tuple[str, str, str], runs: list[RunVerdict], total: int,
                   acceptance: Acceptance | None) -> Finding:
    case_id, constraint_id, group = key
    first = next(c for c in runs[0].uncertain() if c.id == constraint_id)
    reason = NeverUncertain(case_id=case_id, group=group, uncertain=len(runs), total=total, run=runs[0].run,
                            first=first, accepted_on=None if acceptance is None else acceptance.accepted_on)
    return Finding(level=Level.WARNING if acceptance is not None else Level.ERROR, rule=RULE, case_id=case_id,
                   group=group, reason=reason)


def findings(cases: Mapping[str, Case], verdicts: list[RunVerdict], comparison: Comparison,
             settings: DecisionConfig) -> list[Finding]:
    """A ``needs-a-look`` finding per (case, group) with uncertain runs, and an error per never-rule
    uncertain in some run (whatever the run's own status)."""
    totals: dict[Pair, int] = defaultdict(int)
    uncertain: dict[Pair, list[RunVerdict]] = defaultdict(list)
    never: dict[tuple[str, str, str], list[RunVerdict]] = defaultdict(list)
    for verdict in sorted(verdicts, key=lambda v: (v.case_id, v.group, v.run)):
        pair = (verdict.case_id, verdict.group)
        totals[pair] += verdict.status is not Status.SKIPPED
        if verdict.status is Status.UNCERTAIN:
            uncertain[pair].append(verdict)
        for constraint in verdict.uncertain():
            if _is_never_rule(cases.get(verdict.case_id), constraint.id):
                never[(verdict.case_id, constraint.id, verdict.group)].append(verdict)
    found = [finding for pair, runs in sorted(uncertain.items())
             if (finding := _pair_finding(pair, runs, totals[pair], cases, comparison, settings)) is not None]
    accepted = {(a.case_id, a.constraint): a for a in comparison.accepted}
    found += [_never_finding(key, runs, totals[(key[0], key[2])], accepted.get(key[:2]))
              for key, runs in sorted(never.items())]
    return found
