"""Never-rules: a ``zero_tolerance`` constraint broken in any run fails the gate.

"Never call send_message" is not a rate. One call is one message sent, one refund paid: a support
agent breaking it in a third of its runs is not "flaky, not regressed". So these constraints are
decided run by run, not by pass rates, the baseline or confirm reruns: each (case, constraint,
group) broken in any run is a red-line finding, named first in every report. A violation the base
branch knows is not waved through either; only an acceptance on the record (`gate baseline accept`,
stored in the baseline with its reason and day) turns it into a warning — and every report lists
each standing acceptance, broken this time or not.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from gate.baseline.store import Acceptance
from gate.case import Case
from gate.policy.reasons.never import NeverBroken, StandingAcceptance
from gate.policy.thresholds import Finding, Level
from gate.verdict import RunVerdict, Status

RULE = "zero-tolerance"
ACCEPTED_RULE = "zero-tolerance-accepted"

Key = tuple[str, str, str]
"""(case id, constraint id, group)."""


def violations(cases: Mapping[str, Case], verdicts: list[RunVerdict]) -> dict[Key, list[RunVerdict]]:
    """The runs that broke each never-rule, in run order."""
    broken: dict[Key, list[RunVerdict]] = defaultdict(list)
    for verdict in sorted(verdicts, key=lambda v: (v.case_id, v.group, v.run)):
        case = cases.get(verdict.case_id)
        if case is None:
            continue
        for constraint in verdict.constraints:
            rule = case.constraint(constraint.id)
            if constraint.status is Status.FAIL and rule is not None and rule.zero_tolerance:
                broken[(verdict.case_id, constraint.id, verdict.group)].append(verdict)
    return dict(broken)


def _judged_runs(verdicts: list[RunVerdict]) -> dict[tuple[str, str], int]:
    runs: dict[tuple[str, str], int] = defaultdict(int)
    for verdict in verdicts:
        runs[(verdict.case_id, verdict.group)] += verdict.status is not Status.SKIPPED
    return runs


def findings(cases: Mapping[str, Case], verdicts: list[RunVerdict], accepted: tuple[Acceptance, ...]) -> list[Finding]:
    """A red line per never-rule broken in some run (a warning when accepted on the record), and a
    warning per standing acceptance not broken this time."""
    broken = violations(cases, verdicts)
    runs = _judged_runs(verdicts)
    by_key = {(a.case_id, a.constraint): a for a in accepted}
    found = []
    for (case_id, constraint_id, group), bad in sorted(broken.items()):
        first = next(c for c in bad[0].constraints if c.id == constraint_id)
        acceptance = by_key.get((case_id, constraint_id))
        reason = NeverBroken(case_id=case_id, constraint=constraint_id, group=group, runs=tuple(v.run for v in bad),
                             judged=runs[(case_id, group)], first_detail=first.detail, acceptance=acceptance)
        if acceptance is not None:
            found.append(Finding(level=Level.WARNING, rule=ACCEPTED_RULE, case_id=case_id, group=group, reason=reason))
        else:
            found.append(Finding(level=Level.RED_LINE, rule=RULE, outcome="fail", case_id=case_id, group=group,
                                 reason=reason))
    seen = {(case_id, constraint_id) for case_id, constraint_id, _ in broken}
    for acceptance in accepted:
        if (acceptance.case_id, acceptance.constraint) not in seen and acceptance.case_id in cases:
            found.append(Finding(level=Level.WARNING, rule=ACCEPTED_RULE, case_id=acceptance.case_id,
                                 reason=StandingAcceptance(acceptance=acceptance)))
    return found
