"""A group's pass rate with its evidence, as every report and finding prints it: 83.3% (5/6) [44–97%].

Formatting only: the numbers come from :class:`gate.scoring.metrics.GroupMetrics` (any object with its
shape), and the decisions that quote them from :mod:`gate.policy`.
"""

from __future__ import annotations

import math
from typing import Protocol

from gate.formats.percent import percent


class ShownRate(Protocol):
    """What a rate's line reads: passes and runs, each case's counts, the rate and its interval."""

    @property
    def passed(self) -> int: ...

    @property
    def judged(self) -> int: ...

    @property
    def case_counts(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def cases_judged(self) -> int: ...

    @property
    def case_pass_rate(self) -> float | None: ...

    def interval(self, confidence: float) -> tuple[float, float] | None: ...


def span(interval: tuple[float, float] | None) -> str:
    """A compact interval: [44–97%]."""
    return "" if interval is None else f" [{interval[0] * 100:.0f}–{interval[1] * 100:.0f}%]"


def points_span(interval: tuple[float, float]) -> str:
    """A difference's interval in points: [-87, +25]."""
    return f" [{interval[0] * 100:+.0f}, {interval[1] * 100:+.0f}]"


def rate_evidence(m: ShownRate, confidence: float) -> str:
    """83.3% (5/6 cases) [44–97%] — or with runs when cases ran more than once."""
    cases = m.cases_judged
    runs = "" if m.judged == cases else f", {m.passed}/{m.judged} runs"
    return f"{percent(m.case_pass_rate)} ({_cases_passed(m)}/{cases} cases{runs}){span(m.interval(confidence))}"


def cell(m: ShownRate | None, confidence: float) -> str:
    """A compact rate with its evidence for tables: 83.3% (5/6) [44–97%]."""
    if m is None or not m.cases_judged:
        return "—"
    runs = {j for _, j in m.case_counts}
    counts = f"{m.passed}/{m.judged}" if len(runs) == 1 else f"{_cases_passed(m)}/{m.cases_judged} cases"
    return f"{percent(m.case_pass_rate)} ({counts}){span(m.interval(confidence))}"


def _cases_passed(m: ShownRate) -> str:
    total = sum(p / j for p, j in m.case_counts)
    return f"{total:.0f}" if math.isclose(total, round(total)) else f"{total:.1f}"
