"""What the tool checks share: which calls a check counts, the turn each was sent in, and how a
detail names them."""

from __future__ import annotations

import fnmatch
from typing import ClassVar, NamedTuple

from gate.checkers.base import Params
from gate.subject import Subject
from gate.trajectory import ToolCall


class CallParams(Params):
    """Parameters every tool check takes."""

    shared_last: ClassVar[tuple[str, ...]] = ("succeeded_only",)

    succeeded_only: bool = False
    """Count only the calls that succeeded (``is_error`` false); by default a call that errored counts too."""


class Placed(NamedTuple):
    """A counted call with its place in the trajectory: ``position`` in the list, ``turn`` it was sent in."""

    position: int
    turn: int
    call: ToolCall


def counted(subject: Subject, params: CallParams) -> list[Placed]:
    """The calls the check counts, in call order, each with its index and turn."""
    trajectory = subject.trajectory
    placed = (Placed(index, turn, call)
              for index, (turn, call) in enumerate(zip(trajectory.turns(), trajectory.tool_calls, strict=True)))
    return [p for p in placed if not (params.succeeded_only and p.call.is_error)]


def matches(call: ToolCall, pattern: str) -> bool:
    """The call's name fits ``pattern`` (shell-style wildcards: maps_*)."""
    return fnmatch.fnmatchcase(call.name, pattern)


def of_tool(calls: list[Placed], pattern: str) -> list[Placed]:
    return [placed for placed in calls if matches(placed.call, pattern)]


def shown(calls: list[Placed]) -> str:
    """The calls as a detail shows them: turns joined by →, the calls sent together in one turn by +."""
    turns: dict[int, list[str]] = {}
    for placed in calls:
        turns.setdefault(placed.turn, []).append(placed.call.name)
    return " → ".join(" + ".join(names) for names in turns.values()) or "no tool calls"


def counting(params: CallParams) -> str:
    """How a detail says which calls were counted."""
    return " (counting successful calls only)" if params.succeeded_only else ""
