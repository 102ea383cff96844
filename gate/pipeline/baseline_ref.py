"""The baseline a pull request is compared with: the base branch's, not the one the PR may edit.

A PR that breaks a case and re-records the baseline in the same commit would otherwise pass. In a
pull-request run (the base commit from ``GITHUB_EVENT_PATH``) or with ``--baseline-ref REF``, the
reference is ``git show REF:<baseline>``; a PR whose own baseline lowers the bar for a case is a
``baseline-lowered`` finding, so lowering it is a reviewed, visible decision. When the base's
baseline cannot be read (a shallow checkout, no git, no baseline there yet), the working tree's is
used and a note says why.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from gate.baseline import store as baseline_mod
from gate.baseline.diff import diff
from gate.baseline.store import Baseline
from gate.errors import GateError
from gate.files.safefiles import TooLarge, read_event
from gate.pipeline import base_bar
from gate.policy.reasons.reference import (
    AcceptancesAdded,
    BaselineLoweredAt,
    BaselineUnparsable,
    ComparedAt,
    NoBaselineAt,
    RefUnreadable,
)
from gate.policy.thresholds import Finding, Level

_PR_EVENTS = ("pull_request", "pull_request_target")


def _pr_sha(env: Mapping[str, str], side: str) -> str | None:
    if env.get("GITHUB_EVENT_NAME") not in _PR_EVENTS or not env.get("GITHUB_EVENT_PATH"):
        return None
    try:
        event = read_event(env["GITHUB_EVENT_PATH"])
        sha = event["pull_request"][side]["sha"]
    except TooLarge:  # not read at all: GitHub never writes one that large
        raise
    except (GateError, ValueError, KeyError, TypeError):
        return None
    return sha if isinstance(sha, str) and sha else None


def pr_base_sha(env: Mapping[str, str]) -> str | None:
    """The base commit of the pull request this Actions run is for, if it is for one."""
    return _pr_sha(env, "base")


def pr_head_sha(env: Mapping[str, str]) -> str | None:
    """The head commit of the pull request this Actions run is for, if it is for one."""
    return _pr_sha(env, "head")


def reference(path: Path, ref: str | None, *, lowered_level: str = "error", acknowledged: bool = False,
              env: Mapping[str, str] | None = None) -> tuple[Baseline | None, list[Finding]]:
    """The baseline to compare with, and what to say about it. ``acknowledged``: a maintainer
    accepted this change's lowering of the bar, so the acceptances of never-rule violations it adds
    stand (the base's counts are still the reference)."""
    working = baseline_mod.load(path)
    ref = ref or pr_base_sha(os.environ if env is None else env)
    if ref is None:
        return working, []
    short = ref[:12]
    try:
        data = base_bar.file_at(path, ref)
    except base_bar.Unreadable as exc:
        return working, [Finding(level=Level.WARNING, rule="baseline-ref",
                                 reason=RefUnreadable(what="baseline", ref=short, error=str(exc)))]
    if data is None:
        return working, [Finding(level=Level.INFO, rule="baseline-ref",
                                 reason=NoBaselineAt(ref=short))]
    try:
        base = baseline_mod.parse(data, f"{short}:{path.name}")
    except GateError as exc:
        return working, [Finding(level=Level.WARNING, rule="baseline-ref",
                                 reason=BaselineUnparsable(ref=short, error=str(exc)))]
    notes = [Finding(level=Level.INFO, rule="baseline-ref", reason=ComparedAt(ref=short))]
    if working is not None:
        level = Level.WARNING if acknowledged or lowered_level != "error" else Level.ERROR
        lowered = diff(base, working).lowered
        if lowered:
            notes.append(Finding(
                level=level, rule="baseline-lowered",
                reason=BaselineLoweredAt(ref=short, cases=tuple(lowered))))
        known = {(a.case_id, a.constraint) for a in base.accepted}
        added = [a for a in working.accepted if (a.case_id, a.constraint) not in known]
        if added:
            notes.append(Finding(
                level=level, rule="baseline-lowered",
                reason=AcceptancesAdded(ref=short, added=tuple((a.case_id, a.constraint) for a in added),
                                        acknowledged=acknowledged)))
            if acknowledged:
                base = base.model_copy(update={"accepted": working.accepted})
    return base, notes
