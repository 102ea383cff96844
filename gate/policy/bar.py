"""The bar a pull request is held to is the base branch's: what the change removes or relaxes.

A pull request could otherwise lower its own bar — delete the case it breaks, relax ``fail_on``,
lower a threshold, turn a never-rule off — and pass. So the gate compares the bar of the base
commit (its gate.yaml and the cases it selects) with the change's, names every lowering, decides
with the base's setting wherever the change relaxes one, and fails with a ``bar-lowered`` red line
unless the lowering is acknowledged (``--accept-lowered-bar``, which a workflow sets from a label a
maintainer adds): then each is a warning that the reports list. Raising the bar needs no consent.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from gate.case import Case, Constraint
from gate.config.gate_yaml import GateConfig, Thresholds
from gate.policy.reasons import Reason
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
from gate.policy.thresholds import FAIL_ON, Finding, Level, rank

RULE = "bar-lowered"

_LINES = ("min_a", "min_delta", "skill_explicit_min_b", "red_line_delta", "red_line_skill_explicit_b")
"""Threshold lines; each is lowered when its number goes down (a rate line, or a B − A line)."""


def _constraint_bar(constraint: Constraint) -> str:
    """What a constraint demands, as canonical text: its check, parameters, groups, children and
    whether it is a never-rule — not its wording (``says``)."""
    data = constraint.model_dump(mode="json", by_alias=True, exclude={"says"}, exclude_defaults=True)
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _case_lowerings(before: Case, after: Case | None) -> list[Reason]:
    if after is None:
        return [CaseGone(case_id=before.id)]
    found: list[Reason] = []
    for group in sorted(set(before.groups) - set(after.groups)):
        found.append(GroupRemoved(case_id=before.id, group=group))
    if after.repeats < before.repeats:
        found.append(Lowered(setting=("repeats",), before=before.repeats, after=after.repeats, case_id=before.id))
    for constraint in before.constraints:
        if not constraint.is_rule or constraint.id is None:
            continue
        now = after.constraint(constraint.id)
        if now is None:
            found.append(ConstraintRemoved(case_id=before.id, constraint=constraint.id))
        elif constraint.zero_tolerance and not now.zero_tolerance:
            found.append(NoLongerNever(case_id=before.id, constraint=constraint.id))
        elif _constraint_bar(constraint) != _constraint_bar(now.model_copy(update={"zero_tolerance": constraint.zero_tolerance})):
            found.append(ConstraintChanged(case_id=before.id, constraint=constraint.id, before=constraint.label,
                                           after=now.label))
    return found


def _threshold_lowerings(before: Thresholds, after: Thresholds) -> list[Reason]:
    found: list[Reason] = [Lowered(setting=("thresholds", line), before=getattr(before, line), after=getattr(after, line))
                           for line in _LINES if getattr(after, line) < getattr(before, line)]
    for dimension, lines in sorted(before.per_dimension.items()):
        for line, value in sorted(lines.items()):
            now = after.per_dimension.get(dimension, {}).get(line, getattr(after, line))
            if now < value:
                found.append(Lowered(setting=("thresholds", "per_dimension", dimension, line), before=value, after=now))
    for dimension, lines in sorted(after.per_dimension.items()):
        for line, value in sorted(lines.items()):
            if line not in before.per_dimension.get(dimension, {}) and value < getattr(before, line):
                found.append(LineSetBelow(dimension=dimension, line=line, value=value, applied=getattr(before, line)))
    return found


def _setting_lowerings(before: GateConfig, after: GateConfig) -> list[Reason]:
    found: list[Reason] = []
    if rank(FAIL_ON[after.fail_on]) < rank(FAIL_ON[before.fail_on]):
        found.append(Lowered(setting=("fail_on",), before=before.fail_on, after=after.fail_on, relaxed=True))
    b, a = before.decision, after.decision
    if b.mode == "point" and a.mode != "point":
        found.append(Lowered(setting=("decision", "mode"), before="point", after="confidence", relaxed=True))
    if a.alpha < b.alpha:
        found.append(Lowered(setting=("decision", "alpha"), before=b.alpha, after=a.alpha))
    if b.fail_on_inconclusive and not a.fail_on_inconclusive:
        found.append(TurnedOff(setting=("decision", "fail_on_inconclusive")))
    if before.baseline_lowered == "error" and after.baseline_lowered != "error":
        found.append(Lowered(setting=("baseline_lowered",), before="error", after=after.baseline_lowered, relaxed=True))
    if after.repeats is not None and (before.repeats is None or after.repeats < before.repeats):
        found.append(Lowered(setting=("repeats",), before=before.repeats, after=after.repeats))
    return found


def lowerings(before: GateConfig, before_cases: Iterable[Case], after: GateConfig, after_cases: Iterable[Case]) -> list[Reason]:
    """Everything ``after`` removes or relaxes of ``before``'s bar, in a stable order."""
    now = {case.id: case for case in after_cases}
    found = _setting_lowerings(before, after) + _threshold_lowerings(before.thresholds, after.thresholds)
    for case in sorted(before_cases, key=lambda c: c.id):
        found += _case_lowerings(case, now.get(case.id))
    return found


def effective(after: GateConfig, before: GateConfig) -> GateConfig:
    """``after`` with every setting it relaxes taken from ``before``: what an unacknowledged change is
    decided by (raising the bar stands)."""
    from gate.config.gate_yaml import replaced

    thresholds: dict[str, Any] = {line: max(getattr(before.thresholds, line), getattr(after.thresholds, line))
                                  for line in _LINES}
    per_dimension = {key: dict(lines) for key, lines in after.thresholds.per_dimension.items()}
    for key, lines in before.thresholds.per_dimension.items():
        for line, value in lines.items():
            now = per_dimension.get(key, {}).get(line, getattr(after.thresholds, line))
            per_dimension.setdefault(key, {})[line] = max(value, now)
    decision = after.decision.model_copy(update={
        "mode": "point" if before.decision.mode == "point" else after.decision.mode,
        "alpha": max(before.decision.alpha, after.decision.alpha),
        "fail_on_inconclusive": before.decision.fail_on_inconclusive or after.decision.fail_on_inconclusive,
    })
    fail_on = after.fail_on if rank(FAIL_ON[after.fail_on]) >= rank(FAIL_ON[before.fail_on]) else before.fail_on
    return replaced(after, thresholds=after.thresholds.model_copy(update={**thresholds, "per_dimension": per_dimension}),
                    decision=decision, fail_on=fail_on,
                    baseline_lowered="error" if "error" in (before.baseline_lowered, after.baseline_lowered) else "warning")


def findings(lowered: list[Reason], ref: str, *, acknowledged: bool) -> list[Finding]:
    """A red line per lowering (whatever ``fail_on`` says), or a listed warning once acknowledged."""
    if acknowledged:
        return [Finding(level=Level.WARNING, rule=RULE, reason=BarLowered(lowering=item, ref=ref, acknowledged=True))
                for item in lowered]
    return [Finding(level=Level.RED_LINE, rule=RULE, outcome="fail",
                    reason=BarLowered(lowering=item, ref=ref, acknowledged=False))
            for item in lowered]
