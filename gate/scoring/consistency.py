"""Consistency of repeated runs (X suite): key fields, mode frequency, skill gain, degradation curve.

A repeated case runs N times per group. Each run is reduced to one string per key field (its tool
sequence, item count, numbers, answer shape …); a field's consistency is the share of runs that
agree with its most common value, and a group's consistency is the mean over the case's fields.
The skill stability gain is B − A. Pure functions over frozen models: no I/O, deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

from gate.case import Case
from gate.process.budget import DEFAULT_BUDGET_S
from gate.scoring.readings import Readings, Run
from gate.scoring.repeats import DP, CaseConsistency, Frozen, Level, case_consistency, difference, outputs, rounded
from gate.trajectory import Group

# ---------------------------------------------------------------- per case


# ---------------------------------------------------------------- degradation curve


class CurvePolicy(Frozen):
    """When a degradation curve counts as smooth (defaults; configurable by the caller)."""

    max_rise: float = 0.05
    """Consistency may rise by at most this much from a case to the next, more complex one."""
    max_drop: float = 0.35
    """A larger fall between neighbours is an abrupt break (simple ≥ 0.9 → complex 0.6 is fine)."""


class CurvePoint(Frozen):
    """One case of the curve: its difficulty and each group's overall consistency."""

    case_id: str
    difficulty: str | None
    a: float | None
    b: float | None


class DegradationCurve(Frozen):
    """Consistency over cases of growing complexity (X-CD-04) and the seed's verdict on it."""

    case_id: str
    points: tuple[CurvePoint, ...]
    smooth: bool | None
    """Every group with ≥ 2 points stays within the policy; None when no group has 2 points."""
    breaks: tuple[str, ...]
    decay_a: float | None
    decay_b: float | None
    """First minus last point of the group's curve (how much consistency it loses)."""
    b_decays_less: bool | None
    hardest_gain: float | None
    """B − A at the most complex point where both groups were measured."""
    status: Level | None


_Point = tuple[str, float, int]
"""A curve point of one group: case id, consistency, outputs it was measured on."""


def _series(points: Sequence[CurvePoint], group: Group, per_case: Mapping[str, CaseConsistency]) -> list[_Point]:
    series = []
    for p in points:
        value = p.a if group == "A" else p.b
        if value is not None:
            series.append((p.case_id, value, outputs(per_case[p.case_id].groups[group])))
    return series


def _breaks(series: list[_Point], group: Group, policy: CurvePolicy,
            confidence: float | None) -> tuple[list[str], list[str]]:
    """Steps beyond the policy: established ones, and (with ``confidence``) those within the noise."""
    found: list[str] = []
    possible: list[str] = []
    for (left, x, nx), (right, y, ny) in pairwise(series):
        step = round(y - x, DP)
        low, high = difference(x, nx, y, ny, confidence) if confidence else (step, step)
        if step > policy.max_rise:
            text = f"{group}: {left}→{right} rises {step:.2f} > {policy.max_rise:.2f}"
            (found if low > policy.max_rise else possible).append(text)
        elif -step > policy.max_drop:
            text = f"{group}: {left}→{right} drops {-step:.2f} > {policy.max_drop:.2f}"
            (found if -high > policy.max_drop else possible).append(text)
    return found, possible


def _decay(series: list[_Point]) -> float | None:
    return round(series[0][1] - series[-1][1], DP) if len(series) >= 2 else None


def degradation_curve(
    aggregate: Case,
    cases: Mapping[str, Case],
    per_case: Mapping[str, CaseConsistency],
    policy: CurvePolicy | None = None,
    confidence: float | None = None,
) -> DegradationCurve:
    """The curve over ``aggregate``'s cases, in the order it lists them (simple to complex).

    ``confidence``: a step or a missing B gain fails only when its interval says so; one only the
    observed values show makes the curve a warning.
    """
    policy = policy or CurvePolicy()
    points = []
    for case_id in aggregate.aggregate:
        measured, case = per_case.get(case_id), cases.get(case_id)
        points.append(CurvePoint(
            case_id=case_id,
            difficulty=case.difficulty if case is not None else None,
            a=measured.overall("A") if measured is not None else None,
            b=measured.overall("B") if measured is not None else None,
        ))
    series = {g: _series(points, g, per_case) for g in ("A", "B")}
    breaks, possible = [], []
    for g in ("A", "B"):
        found, maybe = _breaks(series[g], g, policy, confidence)
        breaks += found
        possible += [f"{text} — within the noise of the runs" for text in maybe]
    curved = [g for g in ("A", "B") if len(series[g]) >= 2]
    smooth = None if not curved else not breaks
    decay_a, decay_b = _decay(series["A"]), _decay(series["B"])
    b_less = decay_b < decay_a if decay_a is not None and decay_b is not None else None
    hardest, hardest_upper = None, None
    last = points[-1] if points else None  # the most complex task; its gain decides the curve
    if last is not None and last.a is not None and last.b is not None:
        hardest = round(last.b - last.a, DP)
        if confidence:
            groups = per_case[last.case_id].groups
            hardest_upper = difference(last.a, outputs(groups["A"]), last.b, outputs(groups["B"]), confidence)[1]
    status = _curve_status(smooth, hardest, b_less, hardest_upper)
    if possible and status != "fail":
        status = "warn"  # a step only the observed values show: worth a look, not a failure
    return DegradationCurve(
        case_id=aggregate.id, points=tuple(points), smooth=smooth, breaks=tuple(breaks + possible),
        decay_a=decay_a, decay_b=decay_b, b_decays_less=b_less, hardest_gain=hardest, status=status,
    )


def _curve_status(smooth: bool | None, hardest_gain: float | None, b_less: bool | None,
                  hardest_upper: float | None = None) -> Level | None:
    # The seed: pass = smooth and B clearly above A on complex tasks; fail = a break or no B gain.
    no_gain = hardest_gain is not None and hardest_gain <= 0
    if smooth is False or (no_gain and (hardest_upper is None or hardest_upper <= 0)):
        return "fail"
    if no_gain:
        return "warn"  # B is not above A on the hardest task, but the runs cannot tell
    if smooth is None or hardest_gain is None:
        return None
    return "pass" if b_less is not False else "warn"


# ---------------------------------------------------------------- the report


class ConsistencyReport(Frozen):
    """Consistency of every repeated case that ran, and every degradation curve they feed."""

    cases: tuple[CaseConsistency, ...]
    curves: tuple[DegradationCurve, ...]

    def as_json(self) -> dict[str, object]:
        """Sorted keys, values rounded to 4 decimals: the same runs give the same document."""
        return {
            "cases": {c.case_id: _case_json(c) for c in sorted(self.cases, key=lambda c: c.case_id)},
            "curves": {c.case_id: _curve_json(c) for c in sorted(self.curves, key=lambda c: c.case_id)},
        }


def _case_json(case: CaseConsistency) -> dict[str, object]:
    groups = {
        g: {
            "runs": group.runs,
            "errors": group.errors,
            "fields": {
                f.field: {"frequency": rounded(f.frequency), "mode": f.mode, "distinct": f.distinct}
                for f in sorted(group.fields, key=lambda f: f.field)
            },
            "overall": rounded(group.overall),
            "status": group.status,
        }
        for g, group in sorted(case.groups.items())
    }
    return {"groups": groups, "gain": rounded(case.gain), "gain_status": case.gain_status}


def _curve_json(curve: DegradationCurve) -> dict[str, object]:
    return {
        "points": [
            {"case_id": p.case_id, "difficulty": p.difficulty, "A": rounded(p.a), "B": rounded(p.b)}
            for p in curve.points
        ],
        "smooth": curve.smooth,
        "breaks": list(curve.breaks),
        "decay": {"A": rounded(curve.decay_a), "B": rounded(curve.decay_b)},
        "b_decays_less": curve.b_decays_less,
        "hardest_gain": rounded(curve.hardest_gain),
        "status": curve.status,
    }


def compute_all(
    cases: Mapping[str, Case], trajectories: Iterable[Run], policy: CurvePolicy | None = None,
    confidence: float | None = None, budget_s: float | None = DEFAULT_BUDGET_S, readings: Readings | None = None,
) -> ConsistencyReport:
    """Consistency of each case with ``consistency`` settings that has runs, and each curve;
    with ``confidence``, the lines are decided on the evidence of the runs; ``readings``: the runs'
    fields as read while they were judged."""
    runs: dict[str, list[Run]] = {}
    for trajectory in trajectories:
        runs.setdefault(trajectory.case_id, []).append(trajectory)
    per_case = {
        case_id: case_consistency(case, runs[case_id], confidence, budget_s, readings)
        for case_id, case in sorted(cases.items())
        if case.consistency is not None and case_id in runs
    }
    curves = [
        degradation_curve(case, cases, per_case, policy, confidence)
        for _, case in sorted(cases.items())
        if case.aggregate and any(member in per_case for member in case.aggregate)
    ]
    return ConsistencyReport(cases=tuple(per_case.values()), curves=tuple(curves))
