"""The calibration record: what `gate judge --calibrate` found per rubric, bound to the judge that
found it (model and the settings that shape its replies) and to each rubric's text. ``judge.gate``
lets the judge decide only the rubrics whose record still holds and clears the floor."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import ConfigDict, Field, ValidationError

from gate.config.gate_yaml import JudgeConfig
from gate.errors import GateError
from gate.files.yamlio import first_problem
from gate.model import Model
from gate.report.judge_trust import Trust
from gate.semantic.prompt import PROMPT_VERSION
from gate.semantic.rubrics import Rubric

RECORD_SCHEMA: Final = "gate.judge-calibration-record/v1"


class _Model(Model):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class RubricCalibration(_Model):
    """One rubric's calibration: the labels it was checked on and how many the judge matched."""

    case_id: str
    rubric: str
    digest: str
    """sha256 of the rubric's case, key and text: an edit makes this calibration stale."""
    agreed: int
    decided: int
    errors: int
    """Labels the judge gave no verdict on (counted apart from disagreements)."""
    human: int = 0
    """Of the labels, human verdicts on real runs (the rest are the case's examples)."""

    @property
    def trust_rate(self) -> float | None:
        """Agreed of every label asked: a label the judge could not answer is not one it got right."""
        asked = self.decided + self.errors
        return self.agreed / asked if asked else None


class CalibrationRecord(_Model):
    schema_: Literal["gate.judge-calibration-record/v1"] = Field(RECORD_SCHEMA, alias="schema")
    judge: dict[str, Any]
    """The judge's identity: model, prompt version and the settings that shape a reply."""
    cases_digest: str
    rubrics: tuple[RubricCalibration, ...]


def identity(judge: JudgeConfig) -> dict[str, Any]:
    """What makes two judges the same judge (the URL is where it is asked, not what answers)."""
    found = {"model": judge.model, "prompt": PROMPT_VERSION, "samples": judge.samples,
             "temperature": judge.sampling_temperature(), "seed": judge.seed, "options": judge.request_options(),
             "limits": [judge.max_answer_chars, judge.max_tool_chars, judge.max_example_chars]}
    return dict(json.loads(json.dumps(found)))  # as read back from the record: lists, not tuples


def rubric_digest(rubric: Rubric) -> str:
    text = json.dumps([rubric.case.id, rubric.key, rubric.text], ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_record(path: Path) -> CalibrationRecord | None:
    """The record at ``path``, or None when there is none; a malformed one is refused (exit 2)."""
    if not path.is_file():
        return None
    try:
        return CalibrationRecord.model_validate_json(path.read_bytes())
    except OSError as exc:
        raise GateError(f"cannot read the calibration record: {exc.strerror or exc}", where=str(path)) from None
    except ValidationError as exc:
        raise GateError(f"not a calibration record ({RECORD_SCHEMA}): {first_problem(exc)}", where=str(path)) from None


def merged(old: CalibrationRecord | None, judge: JudgeConfig, cases_digest: str,
           found: list[RubricCalibration]) -> CalibrationRecord:
    """The record after calibrating ``found``: the old one's other rubrics kept when the judge is the same."""
    kept = [] if old is None or old.judge != identity(judge) else list(old.rubrics)
    fresh = {(r.case_id, r.rubric) for r in found}
    rubrics = sorted([r for r in kept if (r.case_id, r.rubric) not in fresh] + found, key=lambda r: (r.case_id, r.rubric))
    return CalibrationRecord(judge=identity(judge), cases_digest=cases_digest, rubrics=tuple(rubrics))


def trust_of(record: CalibrationRecord | None, judge: JudgeConfig, rubric: Rubric) -> Trust:
    """Whether the judge's verdict on ``rubric`` may count: its current calibration clears the floor."""
    if record is None:
        return "uncalibrated"
    entry = next((r for r in record.rubrics if (r.case_id, r.rubric) == (rubric.case.id, rubric.key)), None)
    if entry is None:
        return "uncalibrated"
    if record.judge != identity(judge) or entry.digest != rubric_digest(rubric):
        return "stale"
    rate = entry.trust_rate
    return "calibrated" if rate is not None and rate >= judge.min_agreement else "below the floor"
