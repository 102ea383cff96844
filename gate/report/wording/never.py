"""The words of the never-rules and of the uncertain runs."""

from __future__ import annotations

from gate.baseline.store import Acceptance
from gate.policy.reasons.never import NeverBroken, NeverUncertain, StandingAcceptance, Uncertain
from gate.redaction.sanitize import one_line
from gate.report.wording.base import words
from gate.verdict import ConstraintVerdict, RunCount, describe_readings

SETTLE = "`gate review` settles it"
_RUNS_NAMED = 5


def _accepted(acceptance: Acceptance) -> str:
    return f"accepted on {acceptance.accepted_on}: {one_line(acceptance.reason, 200)}"


@words.register
def _broken(reason: NeverBroken) -> str:
    which = ", ".join(str(run) for run in reason.runs[:_RUNS_NAMED]) + (", …" if len(reason.runs) > _RUNS_NAMED else "")
    evidence = (f"{reason.case_id} ({reason.group}): never-rule `{reason.constraint}` broken in {len(reason.runs)} of "
                f"{reason.judged} runs (run {which}; run {reason.runs[0]}: {one_line(reason.first_detail, 160)})")
    if reason.acceptance is not None:
        return f"{evidence} — a known violation, {_accepted(reason.acceptance)}"
    return f"{evidence} — one violation fails the gate, whatever the rates, the baseline or the reruns say"


@words.register
def _standing(reason: StandingAcceptance) -> str:
    a = reason.acceptance
    return (f"{a.case_id}: never-rule `{a.constraint}` has a standing acceptance ({_accepted(a)}), not broken in this "
            "run — revoke it with `gate baseline accept --revoke`")


def readings_line(constraint: ConstraintVerdict, run: int) -> str:
    """`count` (run 0): read as «…» → pass (…); or as «…» → fail (…)."""
    readings = describe_readings(constraint.readings) or one_line(constraint.detail, 200)
    return f"`{constraint.id}` (run {run}): {one_line(readings, 400)}"


def _baseline(before: RunCount | None, known: bool) -> str:
    if before is None:
        return "no baseline record of this pair says whether it was read so before"
    if known:
        return f"the baseline had {before.uncertain} of its {before.judged + before.uncertain} runs of this pair uncertain too"
    return f"the baseline read all {before.judged} of its runs of this pair"


@words.register
def _uncertain(reason: Uncertain) -> str:
    named = " · ".join(readings_line(constraint, run) for run, constraint in reason.shown)
    said = (f"{reason.case_id} ({reason.group}): {reason.uncertain} of {reason.total} runs uncertain, left out of the "
            f"pass rate and never counted as passes ({_baseline(reason.baseline, reason.known)}); {SETTLE} — {named}")
    return f"known: {said}" if reason.known else said


@words.register
def _never_uncertain(reason: NeverUncertain) -> str:
    head = (f"{reason.case_id} ({reason.group}): never-rule `{reason.first.id}` uncertain in {reason.uncertain} of "
            f"{reason.total} runs")
    readings = readings_line(reason.first, reason.run)
    if reason.accepted_on is not None:
        return f"{head} — a possible case of a violation accepted on {reason.accepted_on}; {SETTLE} — {readings}"
    return f"{head} — a possible violation of a never-rule is not waved through; {SETTLE} — {readings}"
