"""Why a finding was made, as data: the numbers and names a decision rests on, never its wording.

Each policy module returns findings whose ``reason`` is one of these frozen kinds; the words a reader
sees are rendered from it by :mod:`gate.report.wording`, so the policy reads numbers and decides, and
the reports say it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reason:
    """The base of every kind of reason; a kind without words in :mod:`gate.report.wording` is a bug."""
