"""The short terminal summary of a gate run."""

from __future__ import annotations

from pathlib import Path

from gate.policy import Level
from gate.report.model import GateReport


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


def summary(report: GateReport, paths: dict[str, Path]) -> str:
    """Dimension table, findings worth reading, the verdict and where the reports are."""
    from tabulate import tabulate

    rows = []
    for dimension, groups in sorted(report.metrics.dimensions.items()):
        a, b = groups.get("A"), groups.get("B")
        delta = report.metrics.delta(dimension)
        rows.append([dimension, _pct(a.case_pass_rate if a else None), _pct(b.case_pass_rate if b else None),
                     "—" if delta is None else f"{delta * 100:+.1f}"])
    lines = [tabulate(rows, headers=["dimension", "A", "B", "Δ B−A"], tablefmt="simple", disable_numparse=True), ""]
    for finding in report.findings:
        if finding.level is not Level.INFO or finding.rule == "no-baseline":
            lines.append(f"[{finding.level.value}] {finding.message}")
    verdict = "PASSED" if report.passed else "FAILED"
    lines += ["", f"gate {verdict}: {len(report.verdicts)} runs judged · reports in "
              + ", ".join(str(p) for p in paths.values())]
    return "\n".join(lines)
