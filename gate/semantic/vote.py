"""Majority vote over a verdict's samples: a strict majority of the samples asked decides."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gate.semantic.client import Sample
from gate.verdict import Status


@dataclass(frozen=True)
class Tally:
    status: Status
    passes: int
    fails: int
    errors: int
    detail: str

    @property
    def split(self) -> bool:
        """The samples disagreed: a human should look (even when a majority decided)."""
        return self.passes > 0 and self.fails > 0


def tally(samples: Sequence[Sample]) -> Tally:
    """PASS or FAIL when more than half of all samples (errors included) say so; otherwise ERROR —
    a verdict resting on one vote of three is not a verdict."""
    passes = sum(1 for s in samples if s.vote is not None and s.vote.passed)
    fails = sum(1 for s in samples if s.vote is not None and not s.vote.passed)
    errors = len(samples) - passes - fails
    counts = f"{passes} pass · {fails} fail" + (f" · {errors} error" if errors else "")
    if 2 * passes > len(samples) or 2 * fails > len(samples):
        status = Status.PASS if passes > fails else Status.FAIL
        reason = next(s.vote.reason for s in samples if s.vote is not None and s.vote.passed is (status is Status.PASS))
        return Tally(status, passes, fails, errors, f"{counts}: {reason}")
    first_error = next((s.error for s in samples if s.error), None)
    why = f"no majority of {len(samples)} samples ({counts})"
    return Tally(Status.ERROR, passes, fails, errors, f"{why}; first error: {first_error}" if first_error else why)
