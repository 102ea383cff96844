"""Each rubric the judge decided in `gate check` (``judge.gate: true``), with its calibration's
standing: only a calibrated rubric's verdicts count; the others are advisory."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Trust = Literal["calibrated", "stale", "below the floor", "uncalibrated"]


@dataclass(frozen=True)
class RubricTrust:
    case_id: str
    rubric: str
    trust: Trust
    passed: int = 0
    failed: int = 0
    errors: int = 0

    @property
    def counted(self) -> bool:
        return self.trust == "calibrated"


def trust_section(trust: tuple[RubricTrust, ...] | None) -> list[str]:
    """The comment's account of the judge under ``judge.gate``: which rubrics' verdicts counted."""
    from gate.report.markdown_safe import inline

    if not trust:
        return []
    counted = sum(t.counted for t in trust)
    if not counted:
        lines = ["> [!WARNING]", f"> The LLM judge has no current calibration for any of the {len(trust)} rubrics it "
                 "judged: it cannot change the exit code, and its verdicts below are advisory. `gate judge "
                 "--calibrate`, then commit the calibration record (`judge.calibration`).", ""]
    else:
        lines = ["> [!NOTE]", f"> The LLM judge's verdicts count on the {counted} of {len(trust)} judged rubrics "
                 "whose calibration holds; on the others they are advisory.", ""]
    lines += ["<details><summary><b>Judged rubrics and their calibration</b></summary>", "",
              "| Case | Rubric | Calibration | Counted | Judge verdicts |", "|---|---|---|---|---|"]
    for t in trust:
        errors = f" · {t.errors} error" if t.errors else ""
        lines.append(f"| {inline(t.case_id, 60)} | {inline(t.rubric, 80)} | {t.trust} | "
                     f"{'yes' if t.counted else 'advisory'} | {t.passed} pass · {t.failed} fail{errors} |")
    return [*lines, "", "</details>", ""]
