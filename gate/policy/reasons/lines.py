"""Reasons of the seeds' lines: a rate or B − A against its line, and a line the baseline's noise explains."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gate.policy.reasons import Reason


@dataclass(frozen=True)
class Settled(Reason):
    """An inconclusive line restated as a note: the baseline met it (``met``) or left it undecided too
    (``undecided``), and no group dropped from the baseline (each group's p-value)."""

    line: Reason
    standing: Literal["met", "undecided"]
    tests: tuple[tuple[str, float], ...]
