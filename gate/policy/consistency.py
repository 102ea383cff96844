"""Consistency thresholds of the X seed as findings, next to the B3 thresholds."""

from __future__ import annotations

from gate.policy.reasons.consistency import ConsistencyBelow, CurveBroken, GainBelow
from gate.policy.thresholds import Finding, Level
from gate.scoring.consistency import ConsistencyReport
from gate.scoring.repeats import rounded

_LEVEL = {"fail": Level.ERROR, "warn": Level.WARNING}


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
                                     reason=ConsistencyBelow(case_id=case.case_id, group=group, consistency=overall,
                                                             failed=level is Level.ERROR)))
        level = _LEVEL.get(case.gain_status or "")
        if level is not None:
            gain = rounded(case.gain)
            found.append(Finding(level=level, rule="stability-gain", case_id=case.case_id, value=gain,
                                 reason=GainBelow(case_id=case.case_id, gain=gain, failed=level is Level.ERROR)))
    for curve in sorted(report.curves, key=lambda c: c.case_id):
        level = _LEVEL.get(curve.status or "")
        if level is not None:
            found.append(Finding(level=level, rule="degradation-curve", case_id=curve.case_id,
                                 reason=CurveBroken(case_id=curve.case_id, breaks=tuple(curve.breaks),
                                                    hardest_gain=rounded(curve.hardest_gain))))
    return found
