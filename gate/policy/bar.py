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
from gate.policy.reasons import Said
from gate.policy.thresholds import FAIL_ON, Finding, Level, rank

RULE = "bar-lowered"

_LINES = ("min_a", "min_delta", "skill_explicit_min_b", "red_line_delta", "red_line_skill_explicit_b")
"""Threshold lines; each is lowered when its number goes down (a rate line, or a B − A line)."""


def _constraint_bar(constraint: Constraint) -> str:
    """What a constraint demands, as canonical text: its check, parameters, groups, children and
    whether it is a never-rule — not its wording (``says``)."""
    data = constraint.model_dump(mode="json", by_alias=True, exclude={"says"}, exclude_defaults=True)
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _case_lowerings(before: Case, after: Case | None) -> list[str]:
    if after is None:
        return [f"case {before.id} no longer runs (removed, or no longer selected)"]
    found = []
    for group in sorted(set(before.groups) - set(after.groups)):
        found.append(f"case {before.id}: group {group} removed")
    if after.repeats < before.repeats:
        found.append(f"case {before.id}: repeats lowered from {before.repeats} to {after.repeats}")
    for constraint in before.constraints:
        if not constraint.is_rule or constraint.id is None:
            continue
        now = after.constraint(constraint.id)
        if now is None:
            found.append(f"case {before.id}: constraint `{constraint.id}` removed")
        elif constraint.zero_tolerance and not now.zero_tolerance:
            found.append(f"case {before.id}: constraint `{constraint.id}` is no longer a never-rule (zero_tolerance)")
        elif _constraint_bar(constraint) != _constraint_bar(now.model_copy(update={"zero_tolerance": constraint.zero_tolerance})):
            found.append(f"case {before.id}: constraint `{constraint.id}` changed ({constraint.label} → {now.label}, "
                         "parameters or groups): a change may relax it")
    return found


def _threshold_lowerings(before: Thresholds, after: Thresholds) -> list[str]:
    found = [f"thresholds.{line} lowered from {getattr(before, line):g} to {getattr(after, line):g}"
             for line in _LINES if getattr(after, line) < getattr(before, line)]
    for dimension, lines in sorted(before.per_dimension.items()):
        for line, value in sorted(lines.items()):
            now = after.per_dimension.get(dimension, {}).get(line, getattr(after, line))
            if now < value:
                found.append(f"thresholds.per_dimension.{dimension}.{line} lowered from {value:g} to {now:g}")
    for dimension, lines in sorted(after.per_dimension.items()):
        for line, value in sorted(lines.items()):
            if line not in before.per_dimension.get(dimension, {}) and value < getattr(before, line):
                found.append(f"thresholds.per_dimension.{dimension}.{line} set to {value:g}, below the "
                             f"{getattr(before, line):g} that applied")
    return found


def _setting_lowerings(before: GateConfig, after: GateConfig) -> list[str]:
    found = []
    if rank(FAIL_ON[after.fail_on]) < rank(FAIL_ON[before.fail_on]):
        found.append(f"fail_on relaxed from {before.fail_on} to {after.fail_on}")
    b, a = before.decision, after.decision
    if b.mode == "point" and a.mode != "point":
        found.append("decision.mode relaxed from point to confidence")
    if a.alpha < b.alpha:
        found.append(f"decision.alpha lowered from {b.alpha:g} to {a.alpha:g} (fewer regressions confirmed)")
    if b.fail_on_inconclusive and not a.fail_on_inconclusive:
        found.append("decision.fail_on_inconclusive turned off")
    if before.baseline_lowered == "error" and after.baseline_lowered != "error":
        found.append(f"baseline_lowered relaxed from error to {after.baseline_lowered}")
    if after.repeats is not None and (before.repeats is None or after.repeats < before.repeats):
        found.append(f"repeats lowered from {before.repeats or 'each case’s own'} to {after.repeats}")
    return found


def lowerings(before: GateConfig, before_cases: Iterable[Case], after: GateConfig, after_cases: Iterable[Case]) -> list[str]:
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


def findings(lowered: list[str], ref: str, *, acknowledged: bool) -> list[Finding]:
    """A red line per lowering (whatever ``fail_on`` says), or a listed warning once acknowledged."""
    if acknowledged:
        return [Finding(level=Level.WARNING, rule=RULE, reason=Said(f"acknowledged: this change lowers the bar of {ref}: {item}"))
                for item in lowered]
    return [Finding(level=Level.RED_LINE, rule=RULE, outcome="fail",
                    reason=Said(f"this change lowers the bar of {ref}: {item} — the base's bar applies; a maintainer "
                    "acknowledges a deliberate lowering (--accept-lowered-bar, e.g. from a label)"))
            for item in lowered]
