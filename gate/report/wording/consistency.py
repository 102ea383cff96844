"""The words of the consistency lines."""

from __future__ import annotations

from gate.formats.percent import percent
from gate.policy.reasons.consistency import ConsistencyBelow, CurveBroken, GainBelow
from gate.report.wording.base import words


def _line(failed: bool) -> str:
    return "fail" if failed else "pass"


@words.register
def _consistency(reason: ConsistencyBelow) -> str:
    return (f"{reason.case_id} ({reason.group}): consistency {percent(reason.consistency)} is below the case's "
            f"{_line(reason.failed)} line")


@words.register
def _gain(reason: GainBelow) -> str:
    return (f"{reason.case_id}: skill stability gain B − A = {percent(reason.gain)} is below the case's "
            f"{_line(reason.failed)} line")


@words.register
def _curve(reason: CurveBroken) -> str:
    why = "; ".join(reason.breaks) or f"B gain on the hardest task {percent(reason.hardest_gain)}"
    return f"{reason.case_id}: consistency degradation curve — {why}"
