"""Consistency thresholds of the X seed as findings, next to the B3 thresholds."""

from __future__ import annotations

from gate.formats.percent import percent
from gate.policy.reasons import Said
from gate.policy.thresholds import Finding, Level
from gate.scoring.consistency import ConsistencyReport
from gate.scoring.repeats import rounded

_LEVEL = {"fail": Level.ERROR, "warn": Level.WARNING}


def _line(level: Level) -> str:
    return "fail" if level is Level.ERROR else "pass"


def consistency_findings(report: ConsistencyReport) -> list[Finding]:
    """Findings for consistency below a case's lines, a weak skill gain, and a broken curve (values
    as results.json records them, rounded)."""
    found: list[Finding] = []
    for case in sorted(report.cases, key=lambda c: c.case_id):
        for group, data in sorted(case.groups.items()):
            level = _LEVEL.get(data.status or "")
            if level is not None:
                overall = rounded(data.overall)
                found.append(Finding(level=level, rule="consistency", case_id=case.case_id, group=group, value=overall,
                                     reason=Said(f"{case.case_id} ({group}): consistency {percent(overall)} "
                                     f"is below the case's {_line(level)} line")))
        level = _LEVEL.get(case.gain_status or "")
        if level is not None:
            gain = rounded(case.gain)
            found.append(Finding(level=level, rule="stability-gain", case_id=case.case_id, value=gain,
                                 reason=Said(f"{case.case_id}: skill stability gain B − A = {percent(gain)} "
                                 f"is below the case's {_line(level)} line")))
    for curve in sorted(report.curves, key=lambda c: c.case_id):
        level = _LEVEL.get(curve.status or "")
        if level is not None:
            why = "; ".join(curve.breaks) or f"B gain on the hardest task {percent(rounded(curve.hardest_gain))}"
            found.append(Finding(level=level, rule="degradation-curve", case_id=curve.case_id,
                                 reason=Said(f"{curve.case_id}: consistency degradation curve — {why}")))
    return found
