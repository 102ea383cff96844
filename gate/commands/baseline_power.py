"""What a baseline lets the more rounds detect, per dimension, and the runs that would do better.

A dimension's drift is tested against the baseline's runs, so a thin baseline caps the drop any
check can detect: `gate baseline update` prints, per dimension, the drop the more rounds could
detect if the budget went to it alone, and how many baseline runs per case would bring that to
``TARGET_DROP`` (a nightly baseline of many runs narrows the test).
"""

from __future__ import annotations

from typing import Any

from gate.config.gate_yaml import GateConfig
from gate.policy.drift import MORE_ROUNDS_SHARE
from gate.scoring.metrics import Metrics
from gate.scoring.power import baseline_runs_for, detectable_drop

TARGET_DROP = 0.2
"""The drop of a whole dimension's pass rate the calibration aims to detect."""


def dimension_calibration(metrics: Metrics, config: GateConfig, runs: int,
                          first_calls: int | None = None) -> list[dict[str, Any]]:
    """Per dimension: its (case, group) pairs, pooled baseline rate, the drop detectable with the
    rounds the default budget buys it alone, and the baseline runs per case for ``TARGET_DROP``.
    ``first_calls``: a check's first round (default: the judged runs per baseline run)."""
    settings = config.decision
    pairs: dict[str, list[tuple[int, int]]] = {}
    for case_id, outcome in sorted(metrics.cases.items()):
        for count in outcome.counts.values():
            if count.judged:
                pairs.setdefault(metrics.case_dimension[case_id], []).append((count.passed, count.judged))
    if first_calls is None:
        first_calls = sum(j for p in pairs.values() for _, j in p) // max(runs, 1)
    level = 0.9 * MORE_ROUNDS_SHARE * settings.alpha  # the last look of a dimension chosen alone
    found = []
    for dimension, counts in sorted(pairs.items()):
        strata = len(counts)
        rounds = min(settings.power_rounds, int((settings.budget - 1) * first_calls + 1e-9) // strata)
        passed, judged = sum(p for p, _ in counts), sum(j for _, j in counts)
        fresh = rounds * strata
        drop = detectable_drop(passed, judged, fresh, level, settings.power) if fresh else None
        needed = baseline_runs_for(passed / judged, strata, fresh, level, settings.power, TARGET_DROP) if fresh else None
        found.append({"dimension": dimension, "pairs": strata, "rate": round(passed / judged, 4), "rounds": rounds,
                      "detectable_drop": drop, "baseline_runs_for_target": needed, "runs_per_case": runs})
    return found


def describe_dimensions(found: list[dict[str, Any]], power: float) -> list[str]:
    """One line per dimension for the printout."""
    lines = [f"a dimension's drift, with the more rounds the budget buys it ({power * 100:.0f}% power): "
             f"the drop it could detect, and the baseline runs per case for {TARGET_DROP * 100:.0f} pts"]
    for entry in found:
        drop = entry["detectable_drop"]
        needed = entry["baseline_runs_for_target"]
        lines.append(f"  {entry['dimension']} ({entry['pairs']} pairs, {entry['rounds']} more rounds): "
                     + (f"{drop * 100:.0f} pts" if drop is not None else "no drop (no round fits the budget)")
                     + _better(drop, needed))
    return lines


def _better(drop: float | None, needed: int | None) -> str:
    if drop is not None and drop <= TARGET_DROP + 1e-9:
        return ""
    if needed is None:
        return f" — no baseline brings it to {TARGET_DROP * 100:.0f} pts: the check's own runs are too few"
    return f" — {needed} baseline runs per case would bring it to {TARGET_DROP * 100:.0f} pts"
