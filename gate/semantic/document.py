"""judge.json (``gate.judge/v1``) and judge-calibration.json (``gate.judge-calibration/v1``): typed
models written once, with the JSON Schema `gate schema judge` prints."""

from __future__ import annotations

from typing import Final, Literal

from pydantic import ConfigDict, Field

from gate.model import Model

JUDGE_SCHEMA: Final = "gate.judge/v1"
CALIBRATION_SCHEMA: Final = "gate.judge-calibration/v1"

Verdict = Literal["pass", "fail", "error", "skipped", "uncertain"]


class _Model(Model):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class SampleRecord(_Model):
    """One judge sample: its vote and reason, or the error that prevented one."""

    passed: bool | None = None
    reason: str | None = None
    error: str | None = None


class Votes(_Model):
    pass_: int = Field(alias="pass")
    fail: int
    error: int


class RubricRecord(_Model):
    """The judge's verdict on one rubric: the majority of its samples."""

    key: str
    status: Verdict
    votes: Votes
    split: bool
    """The samples disagreed (a human should look, even when a majority decided)."""
    detail: str
    samples: tuple[SampleRecord, ...]


class HumanRecord(_Model):
    verdict: Literal["pass", "fail"]
    reviewer: str
    date: str
    note: str = ""


class ConstraintRecord(_Model):
    """One constraint holding a rubric, on one (case, group, run)."""

    case_id: str
    group: str
    run: int
    dimension: str
    constraint: str
    trajectory: str
    """The trajectory's digest (what `gate review` records a human verdict against)."""
    rule: Verdict
    """The rule checkers' verdict on the constraint (``skipped`` for a rubric alone)."""
    judge: Verdict
    """The constraint's verdict with its rubrics settled by the judge."""
    rubrics: tuple[RubricRecord, ...]
    human: HumanRecord | None = None
    final: Verdict
    source: Literal["judge", "human"]


class Rate(_Model):
    """Passed of decided, the rate, and its interval (Wilson, at the report's confidence)."""

    passed: int
    judged: int
    """Decided: passed or failed (a verdict the judge could not give is counted in ``errors``)."""
    rate: float | None
    low: float | None = None
    high: float | None = None
    errors: int = 0


class DimensionRecord(_Model):
    dimension: str
    group: str
    rules: Rate
    """Runs passing every rule constraint (the PR gate's case pass rate, on these runs)."""
    rubrics: Rate
    """Constraints with a rubric that the judge (or a human) passed."""
    runs: Rate
    """Runs passing every constraint, rules and rubrics: what the case asks, fully followed."""


class Usage(_Model):
    requests: int
    """Samples asked of the endpoint in this run (cached ones are not asked)."""
    cached: int
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cost: float | None = None
    currency: str | None = None


class JudgeInfo(_Model):
    url: str
    model: str
    samples: int
    temperature: float
    prompt: str


class JudgeDocument(_Model):
    """judge.json: every rubric verdict of the judged runs, rates beside the rules', usage and cost."""

    schema_: Literal["gate.judge/v1"] = Field(JUDGE_SCHEMA, alias="schema")
    cases_digest: str
    judge: JudgeInfo
    constraints: tuple[ConstraintRecord, ...]
    dimensions: tuple[DimensionRecord, ...]
    overall: Rate
    """Constraints with a rubric passed, over every judged run (what ``--fail-under`` reads)."""
    unjudged_runs: int
    """Runs not judged: the agent call failed."""
    queued: int
    """Entries written to review-queue.jsonl."""
    usage: Usage
    interrupted: bool = False


class CalibrationItem(_Model):
    case_id: str
    constraint: str
    rubric: str
    example: str
    """``pass[0]``, ``fail[2]``: the example in the case file."""
    note: str | None = None
    expected: Literal["pass", "fail"]
    judge: Verdict
    agrees: bool | None
    """None when the judge gave no verdict (an error, counted apart from disagreements)."""
    detail: str
    source: Literal["example", "human"] = "example"
    """The label's origin: the case file's example, or a human verdict on a real run (the reviews file)."""


class CalibrationRubric(_Model):
    case_id: str
    rubric: str
    agreed: int
    examples: int
    undetermined: int = 0
    """Examples that do not decide this rubric (a combinator passes or fails whatever it says)."""
    flagged: bool
    """The judge got at least one of the rubric's own examples wrong (or could not answer)."""
    errors: int = 0
    """Labels the judge gave no verdict on (not counted in ``agreement``)."""
    human: int = 0
    """Labels that are human verdicts on real runs."""
    agreement: Rate | None = None
    """Agreed of decided, with its interval."""
    trust: Literal["calibrated", "below the floor"] | None = None
    """What ``judge.gate`` makes of it: agreed of every label asked against ``judge.min_agreement``."""


class CalibrationDocument(_Model):
    """judge-calibration.json: the judge's agreement with the case examples' labels."""

    schema_: Literal["gate.judge-calibration/v1"] = Field(CALIBRATION_SCHEMA, alias="schema")
    cases_digest: str
    judge: JudgeInfo
    agreement: Rate
    rubrics: tuple[CalibrationRubric, ...]
    disagreements: tuple[CalibrationItem, ...]
    items: tuple[CalibrationItem, ...]
    usage: Usage
    interrupted: bool = False
    min_agreement: float | None = None
    record: str | None = None
    """The calibration record written (``judge.calibration``), or None when none was."""


class QueueEntry(_Model):
    """One line of review-queue.jsonl: a verdict a human should arbitrate, and why."""

    reasons: tuple[Literal["disagreement", "split-vote", "new-case"], ...]
    trajectory: str
    case_id: str
    group: str
    run: int
    constraint: str
    rule: Verdict
    judge: Verdict
    votes: Votes
    judge_reasons: tuple[str, ...]
    excerpt: str
