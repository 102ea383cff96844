"""Consistency of one case's repeated runs: each key field's mode frequency per group, the group's
consistency (their mean), the skill stability gain B − A with intervals, and the level each reaches
against the case's bounds."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import ConfigDict

from gate.case import Case, Consistency, ConsistencyBounds
from gate.model import SharedFieldNames
from gate.process.budget import DEFAULT_BUDGET_S
from gate.scoring.fields import ConsistencyField, mode, mode_frequency
from gate.scoring.readings import Readings, Run
from gate.trajectory import Group

Level = Literal["pass", "warn", "fail"]


MIN_RUNS = 2
"""Fewer successful runs than this in a group: nothing to compare, consistency is None."""


DP = 4


_MODE_SHOWN = 120


class Frozen(SharedFieldNames):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FieldConsistency(Frozen):
    """One key field of one group: how often runs agree, and on what."""

    field: ConsistencyField
    frequency: float | None
    mode: str | None
    distinct: int


class GroupConsistency(Frozen):
    """One group of a repeated case. ``runs`` excludes agent errors, counted in ``errors``."""

    group: Group
    runs: int
    errors: int
    fields: tuple[FieldConsistency, ...]
    overall: float | None
    """Mean of the field frequencies; None with fewer than MIN_RUNS runs."""
    status: Level | None


class CaseConsistency(Frozen):
    """A repeated case's consistency per group, and the skill stability gain B − A."""

    case_id: str
    groups: dict[Group, GroupConsistency]
    gain: float | None
    gain_status: Level | None

    def overall(self, group: Group) -> float | None:
        found = self.groups.get(group)
        return found.overall if found is not None else None


def level(value: float | None, bounds: ConsistencyBounds | None, upper: float | None = None) -> Level | None:
    """pass at or above the pass line, fail below the fail line, warn between; None if undecidable.

    With ``upper`` (the upper end of the value's confidence interval) a value below the fail line
    fails only when its whole interval is below it; otherwise it is a warning: five runs with one
    unlucky one are not evidence of an inconsistent agent.
    """
    if value is None or bounds is None:
        return None
    if value >= bounds.pass_:
        return "pass"
    below = upper if upper is not None else value
    return "fail" if below < bounds.fail else "warn"


def _interval(value: float, outputs: int, confidence: float) -> tuple[float, float]:
    from gate.scoring.stats import wilson_interval

    return wilson_interval(value * outputs, outputs, confidence)


def difference(x: float, nx: int, y: float, ny: int, confidence: float) -> tuple[float, float]:
    """The interval of y − x, each a share of its own runs."""
    from gate.scoring.stats import newcombe_interval

    return newcombe_interval(x, nx, y, ny, confidence)


def _group(settings: Consistency, group: Group, runs: list[Run], confidence: float | None,
           budget_s: float | None, readings: Readings) -> GroupConsistency:
    ordered = sorted(runs, key=lambda t: t.run)
    good = [t for t in ordered if t.error is None]
    per_run = [readings.of(settings, t, budget_s) for t in ordered]
    fields = []
    for index, name in enumerate(settings.fields):
        # An errored run is an output too (mode frequency over all outputs): it counts as its own value.
        values = [run_values[index] for run_values in per_run]
        frequency = mode_frequency(values) if len(good) >= MIN_RUNS else None
        common = mode(values)
        fields.append(FieldConsistency(
            field=name,
            frequency=None if frequency is None else round(frequency, DP),
            mode=None if common is None else common[:_MODE_SHOWN],
            distinct=len(set(values)),
        ))
    frequencies = [f.frequency for f in fields if f.frequency is not None]
    overall = round(sum(frequencies) / len(frequencies), DP) if frequencies else None
    upper = _interval(overall, len(runs), confidence)[1] if overall is not None and confidence else None
    return GroupConsistency(
        group=group, runs=len(good), errors=len(runs) - len(good), fields=tuple(fields),
        overall=overall, status=level(overall, settings.threshold, upper),
    )


def case_consistency(case: Case, trajectories: Iterable[Run], confidence: float | None = None,
                     budget_s: float | None = DEFAULT_BUDGET_S, readings: Readings | None = None) -> CaseConsistency:
    """Consistency of ``case`` over its recorded runs (other cases' runs are ignored).

    ``confidence``: decide the fail lines on evidence (intervals at that level) instead of the
    observed values alone. ``readings``: the runs' fields as read while they were judged.
    """
    readings = Readings() if readings is None else readings
    settings = case.consistency
    if settings is None:
        raise ValueError(f"case {case.id} declares no consistency fields")
    by_group: dict[Group, list[Run]] = {}
    for trajectory in trajectories:
        if trajectory.case_id == case.id:
            by_group.setdefault(trajectory.group, []).append(trajectory)
    groups = {g: _group(settings, g, runs, confidence, budget_s, readings) for g, runs in sorted(by_group.items())}
    a = groups["A"].overall if "A" in groups else None
    b = groups["B"].overall if "B" in groups else None
    gain = round(b - a, DP) if a is not None and b is not None else None
    upper = None
    if gain is not None and a is not None and b is not None and confidence:
        upper = difference(a, outputs(groups["A"]), b, outputs(groups["B"]), confidence)[1]
    return CaseConsistency(
        case_id=case.id, groups=groups, gain=gain, gain_status=level(gain, settings.gain, upper),
    )


def outputs(group: GroupConsistency) -> int:
    return group.runs + group.errors


def rounded(value: float | None) -> float | None:
    """A consistency figure as results.json records it (4 decimals): every report reads this one."""
    return None if value is None else round(value, DP)
