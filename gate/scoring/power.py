"""What a test could have detected: the drop in pass rate a decision had the runs to see.

A pass says only that no drop the runs could see was there, so every dimension's decision states
the drop it would have caught with the configured power. The stratified exact test has no closed
power formula; this is the one-sided two-proportion normal approximation over the pooled runs, with
the baseline's rate taken as (passes + 1) / (runs + 2) so a baseline that never failed still has
some noise — close to the exact test's simulated power at the gate's sizes (12 strata, 5 baseline
runs, 4 fresh runs, level 0.0225: about 20 points, simulated 75 % at 80 % asked).
"""

from __future__ import annotations

import math
from statistics import NormalDist

MAX_BASELINE_RUNS = 200


def detectable_drop(base_passed: int, base_runs: int, now_runs: int, level: float, power: float) -> float | None:
    """The smallest drop, in whole points, detected with ``power`` at one-sided ``level`` by
    ``now_runs`` runs against a baseline of ``base_passed`` of ``base_runs``; None when even a fall
    to 0 would not be (too few runs)."""
    if base_runs <= 0 or now_runs <= 0:
        return None
    normal = NormalDist()
    z = normal.inv_cdf(1 - level) + normal.inv_cdf(power)
    before = (base_passed + 1) / (base_runs + 2)
    for points in range(1, math.floor(before * 100) + 1):
        after = before - points / 100
        spread = math.sqrt(before * (1 - before) / base_runs + after * (1 - after) / now_runs)
        if points / 100 >= z * spread:
            return points / 100
    return None


def baseline_runs_for(rate: float, cases: int, now_runs: int, level: float, power: float,
                      drop: float) -> int | None:
    """Baseline runs per case that bring the detectable drop of a dimension of ``cases`` strata,
    checked with ``now_runs`` runs in all, to ``drop``; None past MAX_BASELINE_RUNS."""
    for runs in range(1, MAX_BASELINE_RUNS + 1):
        found = detectable_drop(round(rate * runs * cases), runs * cases, now_runs, level, power)
        if found is not None and found <= drop + 1e-9:
            return runs
    return None
