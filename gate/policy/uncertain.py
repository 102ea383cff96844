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
from gate.policy.reasons import Said
from gate.policy.thresholds import Finding, Level
from gate.redaction.sanitize import one_line
from gate.scoring.comparison import Comparison
from gate.verdict import ConstraintVerdict, RunVerdict, Status, describe_readings

RULE = "needs-a-look"
SETTLE = "`gate review` settles it"

Pair = tuple[str, str]


def readings_line(constraint: ConstraintVerdict, run: int) -> str:
    """`count` (run 0): read as «…» → pass (…); or as «…» → fail (…)."""
    readings = describe_readings(constraint.readings) or one_line(constraint.detail, 200)
    return f"`{constraint.id}` (run {run}): {one_line(readings, 400)}"


def _is_never_rule(case: Case | None, constraint_id: str) -> bool:
    rule = case.constraint(constraint_id) if case is not None else None
    return rule is not None and rule.zero_tolerance


def _known(comparison: Comparison, pair: Pair) -> tuple[bool, str]:
    """Whether the baseline's record of the pair had uncertain runs too, and what it says of it."""
    before = comparison.count(*pair)
    if not comparison.present or before is None:
        return False, "no baseline record of this pair says whether it was read so before"
    if before.uncertain:
        runs = before.judged + before.uncertain
        return True, f"the baseline had {before.uncertain} of its {runs} runs of this pair uncertain too"
    return False, f"the baseline read all {before.judged} of its runs of this pair"


def _pair_finding(pair: Pair, runs: list[RunVerdict], total: int, cases: Mapping[str, Case],
                  comparison: Comparison, settings: DecisionConfig) -> Finding | None:
    case = cases.get(pair[0])
    shown = [(run.run, c) for run in runs for c in run.uncertain() if not _is_never_rule(case, c.id)]
    if not shown:  # only never-rules were uncertain: their own errors say it
        return None
    first: dict[str, tuple[int, ConstraintVerdict]] = {}
    for run, constraint in shown:
        first.setdefault(constraint.id, (run, constraint))
    named = " · ".join(readings_line(c, run) for run, c in first.values())
    known, baseline = _known(comparison, pair)
    message = (f"{pair[0]} ({pair[1]}): {len(runs)} of {total} runs uncertain, left out of the pass rate and never "
               f"counted as passes ({baseline}); {SETTLE} — {named}")
    if known:
        return Finding(level=Level.INFO, rule=RULE, case_id=pair[0], group=pair[1], value=float(len(runs)),
                       reason=Said(f"known: {message}"))
    level = Level.ERROR if settings.fail_on_inconclusive else Level.WARNING
    return Finding(level=level, rule=RULE, outcome="inconclusive", case_id=pair[0], group=pair[1],
                   value=float(len(runs)), reason=Said(message))


def _never_finding(key: tuple[str, str, str], runs: list[RunVerdict], total: int,
                   acceptance: Acceptance | None) -> Finding:
    case_id, constraint_id, group = key
    first = next(c for c in runs[0].uncertain() if c.id == constraint_id)
    head = f"{case_id} ({group}): never-rule `{constraint_id}` uncertain in {len(runs)} of {total} runs"
    readings = readings_line(first, runs[0].run)
    if acceptance is not None:
        return Finding(level=Level.WARNING, rule=RULE, case_id=case_id, group=group,
                       reason=Said(f"{head} — a possible case of a violation accepted on {acceptance.accepted_on}; "
                       f"{SETTLE} — {readings}"))
    return Finding(level=Level.ERROR, rule=RULE, case_id=case_id, group=group,
                   reason=Said(f"{head} — a possible violation of a never-rule is not waved through; {SETTLE} — {readings}"))


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
