"""What a calibration comes to: each label (a case example's, or a human verdict on a real run)
against the judge's verdict, agreement per rubric and overall with Wilson intervals — a verdict the
judge could not give counted apart from a disagreement — and the record ``judge.gate`` reads."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Literal

from gate.config.gate_yaml import JudgeConfig
from gate.redaction.sanitize import xml_safe
from gate.semantic.assemble import Settled, rate
from gate.semantic.document import CalibrationItem, CalibrationRubric, Rate
from gate.semantic.engine import Ask
from gate.semantic.trust import RubricCalibration, rubric_digest
from gate.verdict import Status


@dataclass(frozen=True)
class Label:
    """One verdict known beforehand, and the ask that puts it to the judge."""

    ask: Ask
    name: str
    """``pass[0]``, ``fail[2]`` (an example of the case file) or ``review sha256:…`` (a reviewed run)."""
    note: str | None
    expected: Status
    source: Literal["example", "human"] = "example"


def calibration_items(labels: list[Label], settled: list[Settled | None]) -> list[CalibrationItem]:
    """Each fully answered label with the judge's verdict; ``agrees`` is None where there was none."""
    items = []
    for label, found in zip(labels, settled, strict=True):
        if found is None:
            continue
        status = found.tally.status
        rubric = label.ask.rubric
        items.append(CalibrationItem(
            case_id=rubric.case.id, constraint=rubric.constraint_id, rubric=rubric.key, example=label.name,
            note=label.note, expected=label.expected.value, judge=status.value,
            agrees=None if status is Status.ERROR else status is label.expected, detail=xml_safe(found.tally.detail),
            source=label.source))
    return items


def agreement(items: list[CalibrationItem], confidence: float) -> Rate:
    """Agreed of decided, with its interval; the verdicts the judge could not give as ``errors``."""
    return rate((Status.ERROR if i.agrees is None else Status.PASS if i.agrees else Status.FAIL for i in items),
                confidence)


def per_rubric(labels: list[Label], items: list[CalibrationItem], undetermined: dict[tuple[str, str], int],
               judge: JudgeConfig, confidence: float) -> tuple[list[CalibrationRubric], list[RubricCalibration]]:
    """Each calibrated rubric's report line and its entry in the calibration record."""
    rubrics = {(label.ask.rubric.case.id, label.ask.rubric.key): label.ask.rubric for label in labels}
    grouped: dict[tuple[str, str], list[CalibrationItem]] = defaultdict(list)
    for item in items:
        grouped[(item.case_id, item.rubric)].append(item)
    lines, entries = [], []
    for (case_id, key), found in sorted(grouped.items()):
        rated = agreement(found, confidence)
        entry = RubricCalibration(case_id=case_id, rubric=key, digest=rubric_digest(rubrics[(case_id, key)]),
                                  agreed=rated.passed, decided=rated.judged, errors=rated.errors,
                                  human=sum(1 for i in found if i.source == "human"))
        trust_rate = entry.trust_rate
        trusted = trust_rate is not None and trust_rate >= judge.min_agreement
        entries.append(entry)
        lines.append(CalibrationRubric(
            case_id=case_id, rubric=key, agreed=rated.passed, examples=len(found),
            undetermined=undetermined.get((case_id, key), 0), flagged=not all(i.agrees for i in found),
            errors=rated.errors, human=entry.human, agreement=rated,
            trust="calibrated" if trusted else "below the floor"))
    return lines, entries
