"""Consistency of repeated runs (X suite): key fields, mode frequency, skill gain, degradation curve.

A repeated case runs N times per group. Each run is reduced to one string per key field (its tool
sequence, item count, numbers, answer shape …); a field's consistency is the share of runs that
agree with its most common value, and a group's consistency is the mean over the case's fields.
The skill stability gain is B − A. Pure functions over frozen models: no I/O, deterministic.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Literal

from pydantic import BaseModel, ConfigDict

from gate.case import Case, Consistency, ConsistencyBounds
from gate.subject import Subject
from gate.text.terms import fold
from gate.trajectory import Group, Trajectory

ConsistencyField = Literal["tool_sequence", "item_count", "numbers", "structure", "answer"]
Level = Literal["pass", "warn", "fail"]

MIN_RUNS = 2
"""Fewer successful runs than this in a group: nothing to compare, consistency is None."""
_DP = 4
_MODE_SHOWN = 120


# ---------------------------------------------------------------- field extraction

# A number; thousands separators allowed. A leading '-' is a sign only where it cannot be a range
# dash (see _signed).
_NUMBER_RE = re.compile(r"(?P<sign>[-−])?(?P<digits>\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?P<frac>\.\d+)?")
# NFKC has already turned ℃ into °C and full-width forms into ASCII.
_TEMPERATURE_UNIT_RE = re.compile(r"\s*(?:°|度|摄氏度)")
_RANGE_GAP_RE = re.compile(r"\s*(?:[-−~–—]|至|到)\s*")
_RANGE_END_RE = re.compile(r"(?:\d|°C?|度)\s*$")


def _signed(text: str, match: re.Match[str]) -> tuple[float, int]:
    """The number's value and where its digits start ('15-25': the '-' is a range dash)."""
    value = float(match.group("digits").replace(",", "") + (match.group("frac") or ""))
    before = text[: match.start()]
    if match.group("sign") and not _RANGE_END_RE.search(before):
        return -value, match.start()
    if before.rstrip().endswith("零下"):
        return -value, match.start("digits")
    return value, match.start("digits")


def _format(value: float) -> str:
    return str(int(value)) if value.is_integer() else repr(value)


def _numbers(answer: str) -> str:
    """Temperatures if the answer states any, else every number; sorted, distinct, comma-joined.

    A temperature is a number followed by °C / ℃ / ° / 度 / 摄氏度, or the low end of a range whose
    high end is one ("15-25°C", "15 到 25 度", "-3~5℃"). "零下 3 度" is −3. With no temperature,
    every number counts (prices, times, list ordinals) — the answer's figures as a whole.
    """
    text = unicodedata.normalize("NFKC", answer)
    found = [(*_signed(text, m), m.end()) for m in _NUMBER_RE.finditer(text)]
    is_temp = [bool(_TEMPERATURE_UNIT_RE.match(text, end)) for _, _, end in found]
    for i in range(len(found) - 2, -1, -1):  # backwards, so a chain of range ends propagates
        gap = text[found[i][2] : found[i + 1][1]]
        if is_temp[i + 1] and _RANGE_GAP_RE.fullmatch(gap):
            is_temp[i] = True
    keep_all = not any(is_temp)
    chosen = [value for (value, _, _), temp in zip(found, is_temp, strict=True) if temp or keep_all]
    return ",".join(_format(v) for v in sorted(set(chosen)))


def _bucket(size: int) -> str:
    """List/table sizes in coarse classes: 3 vs 4 options is the same shape, 1 vs 8 is not."""
    if size <= 1:
        return str(max(size, 0))
    return "2-5" if size <= 5 else "6-10" if size <= 10 else "11+"


_BLOCK_TOKENS = {"paragraph": "p", "quote": "quote", "code": "code", "rule": "hr", "html": "html"}


def _structure(subject: Subject) -> str:
    """The answer's Markdown shape: its top-level blocks in order, words ignored.

    Headings keep their level (h2), lists their kind and bucketed size (ol[2-5]), tables their
    columns and bucketed rows (table[3x2-5]); consecutive paragraphs count as one prose block.
    A JSON answer is json:array[size] or json:object.
    """
    if subject.json.ok:
        value = subject.json.value
        return f"json:array[{_bucket(len(value))}]" if isinstance(value, list) else "json:object"
    tokens: list[str] = []
    for block in subject.markdown.blocks:
        if block.kind == "heading":
            token = f"h{block.level}"
        elif block.kind == "list" and block.node is not None:
            kind = "ol" if block.node.type == "ordered_list" else "ul"
            token = f"{kind}[{_bucket(len(block.node.children))}]"
        elif block.kind == "table":
            columns = len(block.cells[0]) if block.cells else 0
            token = f"table[{columns}x{_bucket(len(block.cells) - 1)}]"
        else:
            token = _BLOCK_TOKENS.get(block.kind, block.kind)
        if not (token == "p" and tokens and tokens[-1] == "p"):
            tokens.append(token)
    return " ".join(tokens) or "empty"


def _extract(field: ConsistencyField, subject: Subject) -> str:
    trajectory = subject.trajectory
    if field == "tool_sequence":
        return ">".join(trajectory.tool_names())
    if field == "item_count":
        return str(len(subject.items))
    if field == "numbers":
        return _numbers(trajectory.final_answer)
    if field == "structure":
        return _structure(subject)
    return " ".join(fold(trajectory.final_answer).split())


def extract(field: ConsistencyField, trajectory: Trajectory) -> str:
    """One run's value of a key field; runs agree on the field when these strings are equal.

    tool_sequence: tool names in call order joined by '>'; item_count: the number of recommended
    items; numbers: see :func:`_numbers`; structure: see :func:`_structure`; answer: the answer
    NFKC-folded, case-folded, whitespace collapsed.
    """
    return _extract(field, Subject(trajectory))


def mode_frequency(values: Sequence[str]) -> float | None:
    """Share of values equal to the most common one (the seed's field consistency); None if empty."""
    if not values:
        return None
    return max(Counter(values).values()) / len(values)


def _mode(values: Sequence[str]) -> str | None:
    ranked = sorted(Counter(values).items(), key=lambda kv: (-kv[1], kv[0]))
    return ranked[0][0] if ranked else None


# ---------------------------------------------------------------- per case


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FieldConsistency(_Frozen):
    """One key field of one group: how often runs agree, and on what."""

    field: ConsistencyField
    frequency: float | None
    mode: str | None
    distinct: int


class GroupConsistency(_Frozen):
    """One group of a repeated case. ``runs`` excludes agent errors, counted in ``errors``."""

    group: Group
    runs: int
    errors: int
    fields: tuple[FieldConsistency, ...]
    overall: float | None
    """Mean of the field frequencies; None with fewer than MIN_RUNS runs."""
    status: Level | None


class CaseConsistency(_Frozen):
    """A repeated case's consistency per group, and the skill stability gain B − A."""

    case_id: str
    groups: dict[Group, GroupConsistency]
    gain: float | None
    gain_status: Level | None

    def overall(self, group: Group) -> float | None:
        found = self.groups.get(group)
        return found.overall if found is not None else None


def level(value: float | None, bounds: ConsistencyBounds | None) -> Level | None:
    """pass at or above the pass line, fail below the fail line, warn between; None if undecidable."""
    if value is None or bounds is None:
        return None
    if value >= bounds.pass_:
        return "pass"
    return "fail" if value < bounds.fail else "warn"


def _group(settings: Consistency, group: Group, runs: list[Trajectory]) -> GroupConsistency:
    good = [Subject(t) for t in sorted(runs, key=lambda t: t.run) if t.error is None]
    fields = []
    for name in settings.fields:
        values = [_extract(name, subject) for subject in good]
        frequency = mode_frequency(values) if len(good) >= MIN_RUNS else None
        mode = _mode(values)
        fields.append(FieldConsistency(
            field=name,
            frequency=None if frequency is None else round(frequency, _DP),
            mode=None if mode is None else mode[:_MODE_SHOWN],
            distinct=len(set(values)),
        ))
    frequencies = [f.frequency for f in fields if f.frequency is not None]
    overall = round(sum(frequencies) / len(frequencies), _DP) if frequencies else None
    return GroupConsistency(
        group=group, runs=len(good), errors=len(runs) - len(good), fields=tuple(fields),
        overall=overall, status=level(overall, settings.threshold),
    )


def case_consistency(case: Case, trajectories: Iterable[Trajectory]) -> CaseConsistency:
    """Consistency of ``case`` over its recorded runs (other cases' runs are ignored)."""
    settings = case.consistency
    if settings is None:
        raise ValueError(f"case {case.id} declares no consistency fields")
    by_group: dict[Group, list[Trajectory]] = {}
    for trajectory in trajectories:
        if trajectory.case_id == case.id:
            by_group.setdefault(trajectory.group, []).append(trajectory)
    groups = {g: _group(settings, g, runs) for g, runs in sorted(by_group.items())}
    a = groups["A"].overall if "A" in groups else None
    b = groups["B"].overall if "B" in groups else None
    gain = round(b - a, _DP) if a is not None and b is not None else None
    return CaseConsistency(
        case_id=case.id, groups=groups, gain=gain, gain_status=level(gain, settings.gain),
    )


# ---------------------------------------------------------------- degradation curve


class CurvePolicy(_Frozen):
    """When a degradation curve counts as smooth (defaults; configurable by the caller)."""

    max_rise: float = 0.05
    """Consistency may rise by at most this much from a case to the next, more complex one."""
    max_drop: float = 0.35
    """A larger fall between neighbours is an abrupt break (simple ≥ 0.9 → complex 0.6 is fine)."""


class CurvePoint(_Frozen):
    """One case of the curve: its difficulty and each group's overall consistency."""

    case_id: str
    difficulty: str | None
    a: float | None
    b: float | None


class DegradationCurve(_Frozen):
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


def _series(points: Sequence[CurvePoint], group: Group) -> list[tuple[str, float]]:
    return [(p.case_id, v) for p in points if (v := p.a if group == "A" else p.b) is not None]


def _breaks(series: list[tuple[str, float]], group: Group, policy: CurvePolicy) -> list[str]:
    found = []
    for (left, x), (right, y) in pairwise(series):
        step = round(y - x, _DP)
        if step > policy.max_rise:
            found.append(f"{group}: {left}→{right} rises {step:.2f} > {policy.max_rise:.2f}")
        elif -step > policy.max_drop:
            found.append(f"{group}: {left}→{right} drops {-step:.2f} > {policy.max_drop:.2f}")
    return found


def _decay(series: list[tuple[str, float]]) -> float | None:
    return round(series[0][1] - series[-1][1], _DP) if len(series) >= 2 else None


def degradation_curve(
    aggregate: Case,
    cases: Mapping[str, Case],
    per_case: Mapping[str, CaseConsistency],
    policy: CurvePolicy | None = None,
) -> DegradationCurve:
    """The curve over ``aggregate``'s cases, in the order it lists them (simple to complex)."""
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
    series = {g: _series(points, g) for g in ("A", "B")}
    breaks = [b for g in ("A", "B") for b in _breaks(series[g], g, policy)]
    curved = [g for g in ("A", "B") if len(series[g]) >= 2]
    smooth = None if not curved else not breaks
    decay_a, decay_b = _decay(series["A"]), _decay(series["B"])
    b_less = decay_b < decay_a if decay_a is not None and decay_b is not None else None
    hardest = None
    for point in points:  # the last point measured in both groups is the most complex one
        if point.a is not None and point.b is not None:
            hardest = round(point.b - point.a, _DP)
    return DegradationCurve(
        case_id=aggregate.id, points=tuple(points), smooth=smooth, breaks=tuple(breaks),
        decay_a=decay_a, decay_b=decay_b, b_decays_less=b_less, hardest_gain=hardest,
        status=_curve_status(smooth, hardest, b_less),
    )


def _curve_status(smooth: bool | None, hardest_gain: float | None, b_less: bool | None) -> Level | None:
    # The seed: pass = smooth and B clearly above A on complex tasks; fail = a break or no B gain.
    if smooth is False or (hardest_gain is not None and hardest_gain <= 0):
        return "fail"
    if smooth is None or hardest_gain is None:
        return None
    return "pass" if b_less is not False else "warn"


# ---------------------------------------------------------------- the report


class ConsistencyReport(_Frozen):
    """Consistency of every repeated case that ran, and every degradation curve they feed."""

    cases: tuple[CaseConsistency, ...]
    curves: tuple[DegradationCurve, ...]

    def as_json(self) -> dict[str, object]:
        """Sorted keys, values rounded to 4 decimals: the same runs give the same document."""
        return {
            "cases": {c.case_id: _case_json(c) for c in sorted(self.cases, key=lambda c: c.case_id)},
            "curves": {c.case_id: _curve_json(c) for c in sorted(self.curves, key=lambda c: c.case_id)},
        }


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, _DP)


def _case_json(case: CaseConsistency) -> dict[str, object]:
    groups = {
        g: {
            "runs": group.runs,
            "errors": group.errors,
            "fields": {
                f.field: {"frequency": _r(f.frequency), "mode": f.mode, "distinct": f.distinct}
                for f in sorted(group.fields, key=lambda f: f.field)
            },
            "overall": _r(group.overall),
            "status": group.status,
        }
        for g, group in sorted(case.groups.items())
    }
    return {"groups": groups, "gain": _r(case.gain), "gain_status": case.gain_status}


def _curve_json(curve: DegradationCurve) -> dict[str, object]:
    return {
        "points": [
            {"case_id": p.case_id, "difficulty": p.difficulty, "A": _r(p.a), "B": _r(p.b)}
            for p in curve.points
        ],
        "smooth": curve.smooth,
        "breaks": list(curve.breaks),
        "decay": {"A": _r(curve.decay_a), "B": _r(curve.decay_b)},
        "b_decays_less": curve.b_decays_less,
        "hardest_gain": _r(curve.hardest_gain),
        "status": curve.status,
    }


def compute_all(
    cases: Mapping[str, Case], trajectories: Iterable[Trajectory], policy: CurvePolicy | None = None,
) -> ConsistencyReport:
    """Consistency of each case with ``consistency`` settings that has runs, and each curve."""
    runs: dict[str, list[Trajectory]] = {}
    for trajectory in trajectories:
        runs.setdefault(trajectory.case_id, []).append(trajectory)
    per_case = {
        case_id: case_consistency(case, runs[case_id])
        for case_id, case in sorted(cases.items())
        if case.consistency is not None and case_id in runs
    }
    curves = [
        degradation_curve(case, cases, per_case, policy)
        for _, case in sorted(cases.items())
        if case.aggregate and any(member in per_case for member in case.aggregate)
    ]
    return ConsistencyReport(cases=tuple(per_case.values()), curves=tuple(curves))
