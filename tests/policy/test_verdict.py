"""The verdict word: a failure outranks an open decision, which outranks a pass — an inconclusive
run is never called passed, whatever its exit code."""

from __future__ import annotations

import pytest

from gate.policy.reasons.run import Interrupted
from gate.policy.thresholds import Finding, Level, verdict_of


def f(level: Level, outcome: str | None = None, rule: str = "min-a") -> Finding:
    return Finding(level=level, rule=rule, reason=Interrupted(), outcome=outcome)  # type: ignore[arg-type]


@pytest.mark.parametrize(("findings", "fail_on", "expected"), [
    pytest.param([], "error", "passed", id="nothing found"),
    pytest.param([f(Level.INFO), f(Level.WARNING)], "error", "passed", id="notes and plain warnings"),
    pytest.param([f(Level.WARNING, "inconclusive")], "error", "inconclusive", id="an open decision"),
    pytest.param([f(Level.ERROR, "inconclusive")], "error", "inconclusive",
                 id="fail_on_inconclusive: still the word inconclusive (the exit code fails)"),
    pytest.param([f(Level.WARNING, "inconclusive")], "warning", "inconclusive", id="fail_on warning"),
    pytest.param([f(Level.INFO, None)], "error", "passed", id="a line settled by the baseline's noise"),
    pytest.param([f(Level.WARNING, "inconclusive"), f(Level.ERROR, "fail")], "error", "failed", id="a failure outranks"),
    pytest.param([f(Level.ERROR, "fail")], "red-line", "passed", id="below fail_on"),
    pytest.param([f(Level.WARNING)], "warning", "failed", id="a warning at fail_on warning"),
])
def test_the_verdict_word(findings: list[Finding], fail_on: str, expected: str) -> None:
    assert verdict_of(findings, fail_on) == expected


def test_interrupted_and_unavailable_come_first() -> None:
    assert verdict_of([], "error", interrupted=True) == "interrupted"
    assert verdict_of([f(Level.ERROR, "fail")], "error", unavailable=True) == "unavailable"
