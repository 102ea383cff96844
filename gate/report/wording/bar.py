"""The words of a lowered bar."""

from __future__ import annotations

from gate.policy.reasons.bar import (
    BarLowered,
    CaseGone,
    ConstraintChanged,
    ConstraintRemoved,
    GroupRemoved,
    LineSetBelow,
    Lowered,
    NoLongerNever,
    TurnedOff,
)
from gate.report.wording.base import words

_WHY: dict[tuple[str, ...], str] = {("decision", "alpha"): " (fewer regressions confirmed)"}
"""What a lowered setting costs, where its name does not say it."""


def _value(value: float | str | None) -> str:
    if value is None:
        return "each case’s own"
    if isinstance(value, str | int):  # a word, or a count of repeats
        return str(value)
    return format(value, "g")


@words.register
def _lowered(reason: Lowered) -> str:
    case = "" if reason.case_id is None else f"case {reason.case_id}: "
    how = "relaxed" if reason.relaxed else "lowered"
    return (f"{case}{'.'.join(reason.setting)} {how} from {_value(reason.before)} to {_value(reason.after)}"
            f"{_WHY.get(reason.setting, '')}")


@words.register
def _set_below(reason: LineSetBelow) -> str:
    return (f"thresholds.per_dimension.{reason.dimension}.{reason.line} set to {reason.value:g}, below the "
            f"{reason.applied:g} that applied")


@words.register
def _turned_off(reason: TurnedOff) -> str:
    return f"{'.'.join(reason.setting)} turned off"


@words.register
def _case_gone(reason: CaseGone) -> str:
    return f"case {reason.case_id} no longer runs (removed, or no longer selected)"


@words.register
def _group_removed(reason: GroupRemoved) -> str:
    return f"case {reason.case_id}: group {reason.group} removed"


@words.register
def _constraint_removed(reason: ConstraintRemoved) -> str:
    return f"case {reason.case_id}: constraint `{reason.constraint}` removed"


@words.register
def _no_longer_never(reason: NoLongerNever) -> str:
    return f"case {reason.case_id}: constraint `{reason.constraint}` is no longer a never-rule (zero_tolerance)"


@words.register
def _changed(reason: ConstraintChanged) -> str:
    return (f"case {reason.case_id}: constraint `{reason.constraint}` changed ({reason.before} → {reason.after}, "
            "parameters or groups): a change may relax it")


@words.register
def _bar_lowered(reason: BarLowered) -> str:
    item = words(reason.lowering)
    if reason.acknowledged:
        return f"acknowledged: this change lowers the bar of {reason.ref}: {item}"
    return (f"this change lowers the bar of {reason.ref}: {item} — the base's bar applies; a maintainer acknowledges "
            "a deliberate lowering (--accept-lowered-bar, e.g. from a label)")
