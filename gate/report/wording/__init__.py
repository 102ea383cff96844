"""The words of every finding: each kind of :class:`gate.policy.reasons.Reason` rendered as the one
line the terminal, the JUnit report, the PR comment and results.json show.

The policy decides and hands over numbers; this package is the only place that turns them into text.
Each module registers the renderers of one policy area with :func:`words`; importing them here gives
every kind its words.
"""

from __future__ import annotations

from gate.policy.thresholds import Finding
from gate.report.wording import bar, consistency, drift, lines, never, reference, regressions, run  # noqa: F401 (imported: they register their words)
from gate.report.wording.base import words

__all__ = ["finding_json", "message_of", "words"]


def message_of(finding: Finding) -> str:
    """The line a reader sees for ``finding``."""
    return words(finding.reason)


def finding_json(finding: Finding) -> dict[str, object]:
    """``findings[]`` of results.json: the finding's fields and its message."""
    data = finding.model_dump(mode="json", exclude={"reason"})
    data["message"] = message_of(finding)
    return data
