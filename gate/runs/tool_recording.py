"""`gate run --record-tools DIR`: the calls each case's agent made, with the results it got, written
as replay intercepts (``DIR/<case id>.tools.yaml``) to copy under the case's ``input:``.

What it records is what the trajectories report: with the command or HTTP adapter, the results the
agent's own tools returned; with the openai adapter, the gate's simulated results. A call whose
trajectory gives no result is left out, and so is every call of a run that ended in an agent error
(its last result may be missing). Arguments are matched exactly, and the n-th identical call
gets the n-th distinct result recorded for it; a live result that happens to contain
``{args.<name>}`` or ``{state.<key>}`` is filled in at replay like any intercept's. Nothing is written into the case file itself: comments and layout
there are the team's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from gate.files.atomic import write_set
from gate.runs.records import Kept
from gate.tool_intercept import PATTERN_PREFIX, ToolIntercept

SUFFIX = ".tools.yaml"


def recorded_intercepts(trajectories: Iterable[Kept]) -> dict[str, list[ToolIntercept]]:
    """Per case id, each distinct call (tool, arguments, result) in the order first made, keyed by
    its exact arguments; runs in key order, so the same runs always record the same file."""
    recorded: dict[str, list[ToolIntercept]] = {}
    for kept in sorted(trajectories, key=lambda t: (t.case_id, t.group, t.run)):
        if kept.error is not None:
            continue
        calls = recorded.setdefault(kept.case_id, [])
        for call in kept.whole().tool_calls:
            if call.result is None:
                continue
            intercept = ToolIntercept(tool=call.name, args=_literal(call.args), match="exact", result=call.result,
                                      is_error=call.is_error)
            if intercept not in calls:
                calls.append(intercept)
    return {case_id: calls for case_id, calls in recorded.items() if calls}


def _literal(args: dict[str, Any]) -> dict[str, Any]:
    """The arguments as replay matches them: a text that starts like a pattern ("re: your order")
    becomes the pattern of that very text."""
    return {name: PATTERN_PREFIX + re.escape(value) if isinstance(value, str) and value.startswith(PATTERN_PREFIX)
            else value for name, value in args.items()}


def _fragment(case_id: str, intercepts: list[ToolIntercept]) -> str:
    document: dict[str, Any] = {"tool_replay": True, "tool_intercepts": [
        {"tool": i.tool, "args": i.args, "match": i.match, "result": i.result, "is_error": i.is_error}
        for i in intercepts]}
    head = (f"# The tool calls recorded for case {case_id} by `gate run --record-tools`: copy these keys\n"
            "# under the case's input: (replace its tool_intercepts). In replay a call that matches no\n"
            "# recording ends the run as an agent error naming the call.\n")
    return head + yaml.safe_dump(document, allow_unicode=True, sort_keys=False, width=1000)


def write_recordings(directory: Path, trajectories: Iterable[Kept]) -> list[Path]:
    """Write one file per case that made a call with a result; returns the paths written."""
    files = {directory / f"{case_id}{SUFFIX}": _fragment(case_id, intercepts)
             for case_id, intercepts in recorded_intercepts(trajectories).items()}
    if files:
        directory.mkdir(parents=True, exist_ok=True)
        write_set(files)
    return sorted(files)
