"""What to run: one job per (case, group, repeat), and the agent request each one sends (contract)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from gate.case import Case


@dataclass(frozen=True, slots=True)
class Job:
    """One agent call: a case, a group (A skills off, B skills on) and a repeat index."""

    case: Case
    group: str
    run: int

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.case.id, self.group, self.run)


def plan(cases: Iterable[Case], groups: Sequence[str], repeats: int | None = None, times: int = 1) -> list[Job]:
    """Jobs for every runnable case × configured group it defines × repeat, in key order;
    ``times`` repeats the whole plan (a baseline recorded from several runs)."""
    jobs = [
        Job(case, group, run)
        for case in cases
        if case.runnable
        for group in groups
        if group in case.groups
        for run in range((repeats or case.repeats) * times)
    ]
    return sorted(jobs, key=lambda job: job.key)


def build_request(job: Job) -> dict[str, Any]:
    """The agent request of the contract for ``job`` (input variant chosen by the run index)."""
    case_input = job.case.input
    assert case_input is not None, "aggregate cases are never planned"
    chosen = case_input.for_run(job.run)
    settings = job.case.groups[job.group]  # type: ignore[index]
    request: dict[str, Any] = {
        "case_id": job.case.id,
        "group": job.group,
        "run": job.run,
        "messages": [m.model_dump() for m in chosen.messages],
        "context": dict(chosen.context),
        "skill_enabled": settings.skill_enabled,
        "active_skills": list(settings.active_skills),
        "tool_intercepts": [i.request_form() for i in chosen.tool_intercepts],
    }
    if chosen.tool_state:
        request["tool_state"] = dict(chosen.tool_state)
    if chosen.tool_replay:
        request["tool_replay"] = True
    if chosen.attachments:
        request["attachments"] = [a.model_dump() for a in chosen.attachments]
    return request
