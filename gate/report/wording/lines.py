"""The words of the seeds' lines."""

from __future__ import annotations

from gate.policy.reasons.lines import Settled
from gate.report.wording.base import words

_STANDING = {"met": "within the baseline's noise",
             "undecided": "undecided on the base too — a known open question, not this change's"}


@words.register
def _settled(reason: Settled) -> str:
    # the line's evidence, without what it said of being inconclusive
    shown = words(reason.line).split(" — inconclusive")[0].split(" — ")[0]
    tests = ", ".join(f"{group} p = {p:.3g}" for group, p in reason.tests)
    return f"{shown} — {_STANDING[reason.standing]} (no drop from the baseline: {tests})"
