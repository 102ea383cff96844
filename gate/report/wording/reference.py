"""The words about the base commit's baseline and bar."""

from __future__ import annotations

from gate.policy.reasons.reference import (
    AcceptancesAdded,
    BaselineLoweredAt,
    BaselineUnparsable,
    ComparedAt,
    NoBarAt,
    NoBaselineAt,
    RefUnreadable,
)
from gate.report.wording.base import words

_HISTORY = "check out with history (fetch-depth: 0) so the base's can be read"
_INSTEAD = {"baseline": "compared with the working tree's, which this change may have edited",
            "bar": "this change's own cases and settings decide"}


@words.register
def _unreadable(reason: RefUnreadable) -> str:
    return f"could not read the {reason.what} at {reason.ref} ({reason.error}) — {_INSTEAD[reason.what]}; {_HISTORY}"


@words.register
def _no_baseline(reason: NoBaselineAt) -> str:
    return f"no baseline at {reason.ref} yet: compared with the working tree's"


@words.register
def _no_bar(reason: NoBarAt) -> str:
    return f"no {reason.file} at {reason.ref}: the bar is this change's own"


@words.register
def _unparsable(reason: BaselineUnparsable) -> str:
    return f"the baseline at {reason.ref} is unreadable ({reason.error}) — compared with the working tree's"


@words.register
def _compared(reason: ComparedAt) -> str:
    return f"compared with the baseline at {reason.ref}"


@words.register
def _lowered(reason: BaselineLoweredAt) -> str:
    return (f"this change lowers the baseline for {len(reason.cases)} case(s) that passed at {reason.ref}: "
            f"{', '.join(reason.cases)} — a lowered bar must be a reviewed decision")


@words.register
def _accepted(reason: AcceptancesAdded) -> str:
    added = ", ".join(f"{case_id} `{constraint}`" for case_id, constraint in reason.added)
    later = "" if reason.acknowledged else " — they count only once a maintainer acknowledges the lowered bar"
    return f"this change accepts never-rule violations the baseline at {reason.ref} does not: {added}{later}"
