"""Human verdicts as data (``reviews/reviews.yaml``, ``gate.reviews/v1``): the arbiter's table —
trajectory digest, case, constraint, rule and judge results, the human verdict, note, reviewer, date.

The file is appended to, never rewritten, so comments survive and concurrent reviews merge in git;
a later verdict on the same (trajectory, case, constraint) supersedes an earlier one.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml
from pydantic import ConfigDict, Field, ValidationError, field_validator

from gate.case import Case
from gate.errors import GateError
from gate.files import yamlio
from gate.files.atomic import write_text
from gate.files.strictvalues import StrictValues
from gate.runs.records import Kept
from gate.verdict import ConstraintVerdict, RunVerdict, Status, combine

SCHEMA = "gate.reviews/v1"
HEADER = f"""\
# Human verdicts (`gate review`): each overrides the rule or judge verdict on its trajectory
# (matched by digest) in `gate eval`, `gate check` and `gate judge`. Appended to; the last entry
# for a (trajectory, case, constraint) wins.
schema: {SCHEMA}
reviews:
"""

Verdict = Literal["pass", "fail", "error", "skipped", "uncertain"]


class Review(StrictValues):
    """One human verdict."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trajectory: str
    case_id: str = Field(min_length=1)
    constraint: str = Field(min_length=1)
    rule: Verdict | None = None
    """What the rule checkers said (``skipped`` for a rubric alone)."""
    judge: Verdict | None = None
    """What the LLM judge said (by majority), if it was asked."""
    human: Literal["pass", "fail"]
    note: str = ""
    reviewer: str = Field(min_length=1)
    date: datetime.date

    @field_validator("trajectory")
    @classmethod
    def _digest(cls, value: str) -> str:
        digits = value.removeprefix("sha256:")
        if not value.startswith("sha256:") or len(digits) != 64 or digits.strip("0123456789abcdef"):
            raise ValueError("must be a trajectory digest: sha256: and 64 lowercase hex digits (judge.json and "
                             "the review queue give it)")
        return value


class ReviewsFile(StrictValues):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_: Literal["gate.reviews/v1"] = Field(alias="schema")
    reviews: tuple[Review, ...] | None = ()


@dataclass(frozen=True)
class Reviews:
    """The verdicts of one reviews file, looked up by (trajectory digest, case, constraint)."""

    path: Path
    entries: tuple[Review, ...] = ()
    lines: tuple[int, ...] = ()
    _latest: dict[tuple[str, str, str], Review] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for review in self.entries:  # later entries supersede earlier ones
            self._latest[(review.trajectory, review.case_id, review.constraint)] = review

    def __bool__(self) -> bool:
        return bool(self.entries)

    def lookup(self, digest: str, case_id: str, constraint: str) -> Review | None:
        return self._latest.get((digest, case_id, constraint))

    def stale(self, cases: Mapping[str, Case]) -> list[str]:
        """Warnings for reviews whose case or constraint no longer exists (file:line: what)."""
        warnings = []
        for review, line in zip(self.entries, self.lines, strict=True):
            case = cases.get(review.case_id)
            if case is None:
                warnings.append(f"{self.path}:{line}: review of case {review.case_id}, which no longer exists")
            elif case.constraint(review.constraint) is None:
                warnings.append(f"{self.path}:{line}: review of {review.case_id} constraint {review.constraint}, "
                                "which no longer exists")
        return warnings


def load_reviews(path: Path) -> Reviews:
    """The reviews file at ``path``; an absent file holds no reviews, a malformed one is a GateError."""
    if not path.exists():
        return Reviews(path)
    text = yamlio.read_text(path)
    data = yamlio.load(path, text)
    if not isinstance(data, dict):
        raise GateError(f"a reviews file must be a mapping (schema: {SCHEMA}, reviews: [...])", where=str(path))
    try:
        parsed = ReviewsFile.model_validate(data)
    except ValidationError as exc:
        raise yamlio.validation_error(path, text, exc, keys=yamlio.model_keys(Review)) from None
    entries = parsed.reviews or ()
    lines = tuple(yamlio.line_of(text, ["reviews", index]) or 1 for index in range(len(entries)))
    return Reviews(path, entries, lines)


def _entry_text(review: Review) -> str:
    data = review.model_dump(mode="json", exclude_none=True)
    dumped = yaml.safe_dump([data], allow_unicode=True, sort_keys=False, width=1000)
    return "".join(f"  {line}\n" for line in dumped.splitlines())


def append_review(path: Path, review: Review) -> None:
    """Add ``review`` at the end of the file (created with its header when absent), atomically.

    A file whose layout an appended entry would not extend (``reviews: []`` written inline, say) is
    rewritten whole instead — the verdicts are kept, its comments are not.
    """
    before = load_reviews(path)
    text = yamlio.read_text(path) if path.exists() else HEADER
    if not text.endswith("\n"):
        text += "\n"
    candidate = text + _entry_text(review)
    try:
        data = yaml.safe_load(candidate)
        extended = isinstance(data, dict) and len(data.get("reviews") or ()) == len(before.entries) + 1
    except yaml.YAMLError:
        extended = False
    if not extended:
        candidate = HEADER + "".join(_entry_text(r) for r in (*before.entries, review))
    write_text(path, candidate)


def _overridden(verdict: ConstraintVerdict, review: Review) -> ConstraintVerdict:
    note = f" — {review.note}" if review.note else ""
    detail = (f"human review ({review.reviewer}, {review.date.isoformat()}): {review.human}{note}; "
              f"was {verdict.status}: {verdict.detail}")
    return verdict.model_copy(update={"status": Status(review.human), "detail": detail, "source": "human"})


def apply_reviews(verdicts: Iterable[RunVerdict], trajectories: Iterable[Kept], reviews: Reviews) -> list[RunVerdict]:
    """``verdicts`` with every constraint a human reviewed on that exact trajectory set to the human
    verdict (marked ``source: human``), and each run's status recombined."""
    verdicts = list(verdicts)
    if not reviews:
        return verdicts
    digests: dict[tuple[str, str, int], str] = {(t.case_id, t.group, t.run): t.digest for t in trajectories}
    changed = []
    for verdict in verdicts:
        digest = digests.get((verdict.case_id, verdict.group, verdict.run))
        found = [(c, reviews.lookup(digest, verdict.case_id, c.id) if digest else None) for c in verdict.constraints]
        if not any(review for _, review in found):
            changed.append(verdict)
            continue
        constraints = tuple(_overridden(c, review) if review else c for c, review in found)
        changed.append(verdict.model_copy(update={"constraints": constraints,
                                                  "status": combine([c.status for c in constraints])}))
    return changed
