"""A rate with its evidence reads the same in every report: formatted in gate.formats, not in the policy."""

from __future__ import annotations

import ast
from pathlib import Path

from gate.formats.rates import cell, points_span, rate_evidence, span
from gate.scoring.metrics import GroupMetrics


def _group(*counts: tuple[int, int]) -> GroupMetrics:
    passed = sum(p for p, _ in counts)
    return GroupMetrics(case_counts=counts, passed=passed, failed=sum(j for _, j in counts) - passed)

PACKAGE = Path(__file__).resolve().parents[1] / "gate"


def test_a_cell_shows_runs_when_every_case_ran_alike_and_cases_otherwise() -> None:
    once = _group(*[(1, 1)] * 5, (0, 1))
    assert cell(once, 0.95) == "83.3% (5/6) [44–97%]"
    mixed = _group((4, 5), (1, 1))
    assert cell(mixed, 0.95).startswith("90.0% (1.8/2 cases)")
    assert cell(None, 0.95) == "—" and cell(GroupMetrics(), 0.95) == "—"


def test_a_rates_evidence_names_cases_and_runs() -> None:
    assert rate_evidence(_group((1, 1), (0, 1)), 0.95).startswith("50.0% (1/2 cases) [")
    assert ", 7/10 runs)" in rate_evidence(_group((4, 5), (3, 5)), 0.95)
    assert span(None) == "" and span((0.44, 0.97)) == " [44–97%]" and points_span((-0.87, 0.25)) == " [-87, +25]"


def test_the_reports_take_their_rate_cells_from_the_formatter_not_the_policy() -> None:
    for path in [*(PACKAGE / "report").glob("*.py"), *(PACKAGE / "semantic").glob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "gate.policy.evidence":
                raise AssertionError(f"{path.name} formats rates through the policy: {[a.name for a in node.names]}")
