"""The short terminal summary of a gate run."""

from __future__ import annotations

from pathlib import Path

from gate.policy import Level
from gate.report.model import GateReport


def summary(report: GateReport, paths: dict[str, Path]) -> str:
    """Dimension table, findings worth reading, the verdict and where the reports are."""
    from tabulate import tabulate

    from gate.decision import cell

    confidence = 1 - report.decision.alpha
    rows = []
    for dimension, groups in sorted(report.metrics.dimensions.items()):
        delta = report.metrics.delta(dimension)
        rows.append([dimension, cell(groups.get("A"), confidence), cell(groups.get("B"), confidence),
                     "—" if delta is None else f"{delta * 100:+.1f}"])
    lines = [tabulate(rows, headers=["dimension", "A", "B", "Δ B−A"], tablefmt="simple", disable_numparse=True), ""]
    for finding in report.findings:
        if finding.level is not Level.INFO or finding.rule == "no-baseline":
            lines.append(f"[{finding.level.value}] {finding.message}")
    flakes = [f"{d.case_id} ({d.group}) {d.now.shown()}" for d in report.regressions if d.outcome.value == "cleared"]
    if flakes:
        lines.append(f"[info] flaky, not regressed: {', '.join(flakes)}")
    verdict = "PASSED" if report.passed else "FAILED"
    reruns = f" ({report.reruns} confirm reruns)" if report.reruns else ""
    decided = f"decisions: {report.decision.mode}" + (f", alpha {report.decision.alpha:g}"
                                                       if report.decision.mode == "confidence" else "")
    lines += ["", f"gate {verdict}: {len(report.verdicts)} runs judged{reruns} · {decided} · reports in "
              + ", ".join(str(p) for p in paths.values())]
    return "\n".join(lines)
