"""The words of the more rounds."""

from __future__ import annotations

from gate.formats.drops import detectable_drops
from gate.policy.drift import DimensionDrift
from gate.policy.reasons.drift import DetectableDrops, DriftCleared, Drifted, Spending
from gate.report.wording.base import words


def _evidence(d: DimensionDrift) -> str:
    p = d.p_value if d.p_value is None else f"{d.p_value:.3g}"
    return (f"{d.fresh.passed} of {d.fresh.judged} fresh runs pass over {d.rounds} more round(s) of its {d.strata} "
            f"(case, group) pairs, {d.baseline.passed} of {d.baseline.judged} in the baseline (stratified exact test "
            f"p = {p}")


@words.register
def _drifted(reason: Drifted) -> str:
    d = reason.decision
    return f"{d.dimension} drifted below its baseline: {_evidence(d)} ≤ {d.level:.3g})"


@words.register
def _cleared(reason: DriftCleared) -> str:
    d = reason.decision
    return f"{d.dimension}: {_evidence(d)}) — not below its baseline"


def _bought(spending: Spending | None) -> str:
    if spending is None:
        return "no more rounds"
    what = ", ".join(f"{dimension} {rounds} round(s)" for dimension, rounds in spending.rounds)
    spent = ([f"{spending.confirm_calls} on confirm reruns"] if spending.confirm_calls else []) + (
        [f"{spending.pilot_calls} on a pilot run of the doubtful dimensions"] if spending.pilot_calls else []) + (
        [f"{spending.round_calls} on more rounds ({what})"] if spending.round_calls else [])
    return (f"budget {spending.budget_calls} calls ({spending.budget:g}× the first round's {spending.first_calls}): "
            + (", ".join(spent) if spent else "no more rounds needed"))


@words.register
def _drops(reason: DetectableDrops) -> str:
    listed = ", ".join(f"{dimension} {drop}" for dimension, drop in detectable_drops(reason.decisions).items())
    return (f"{_bought(reason.spending)} · the drop each dimension could have detected ({reason.power * 100:.0f} % "
            f"power): {listed}")
