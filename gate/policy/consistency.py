"""Consistency thresholds of the X seed as findings, next to the B3 thresholds."""

from __future__ import annotations

from typing import Any

from gate.percent import percent
from gate.policy.thresholds import Finding, Level

_LEVEL = {"fail": Level.ERROR, "warn": Level.WARNING}


def _pct(value: object) -> str:
    return percent(value)


def consistency_findings(report: dict[str, Any]) -> list[Finding]:
    """Findings for consistency below a case's lines, a weak skill gain, and a broken curve."""
    found: list[Finding] = []
    for case_id, case in sorted(report.get("cases", {}).items()):
        for group, data in sorted(case.get("groups", {}).items()):
            level = _LEVEL.get(str(data.get("status")))
            if level is not None:
                found.append(Finding(level=level, rule="consistency", case_id=case_id, group=group,
                                     value=data.get("overall"),
                                     message=f"{case_id} ({group}): consistency {_pct(data.get('overall'))} "
                                     f"is below the case's {'fail' if level is Level.ERROR else 'pass'} line"))
        level = _LEVEL.get(str(case.get("gain_status")))
        if level is not None:
            found.append(Finding(level=level, rule="stability-gain", case_id=case_id, value=case.get("gain"),
                                 message=f"{case_id}: skill stability gain B − A = {_pct(case.get('gain'))} "
                                 f"is below the case's {'fail' if level is Level.ERROR else 'pass'} line"))
    for case_id, curve in sorted(report.get("curves", {}).items()):
        level = _LEVEL.get(str(curve.get("status")))
        if level is not None:
            why = "; ".join(curve.get("breaks", [])) or f"B gain on the hardest task {_pct(curve.get('hardest_gain'))}"
            found.append(Finding(level=level, rule="degradation-curve", case_id=case_id,
                                 message=f"{case_id}: consistency degradation curve — {why}"))
    return found
