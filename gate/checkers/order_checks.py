"""Trajectory checks of order: which call came before which, and whether the calls follow a sequence.

Order is decided by turn: the calls of one assistant turn were sent together, before any of their
results came back, so none of them is before another. A record without turns has each call in a
turn of its own (gate.trajectory).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gate.checkers.base import checker
from gate.checkers.tool_calls import CallParams, Placed, counted, counting, matches, of_tool, shown
from gate.subject import Subject
from gate.verdict import Outcome


class OrderParams(CallParams):
    first: str
    then: str


def _at(placed: Placed) -> str:
    return f"#{placed.position}"


@checker("tools:order", OrderParams,
         "the first call of `first` comes in an earlier turn than the first call of `then`; both must occur")
def tools_order(subject: Subject, params: OrderParams) -> Outcome:
    calls = counted(subject, params)
    first, then = of_tool(calls, params.first), of_tool(calls, params.then)
    for tool, found in ((params.first, first), (params.then, then)):
        if not found:
            return Outcome.failed(f"{tool} never called{counting(params)}; calls: {shown(calls)}")
    a, b = first[0], then[0]
    if a.turn < b.turn:
        return Outcome.passed(f"{params.first} ({_at(a)}) before {params.then} ({_at(b)})")
    if a.turn == b.turn:
        return Outcome.failed(f"{params.then} ({_at(b)}) sent in the same turn as {params.first} ({_at(a)}), "
                              f"before its result came back: {shown(calls)}")
    return Outcome.failed(f"{params.then} ({_at(b)}) called before {params.first} ({_at(a)}): {shown(calls)}")


Mode = Literal["exact", "in_order", "any_order", "subset", "superset"]


class SequenceParams(CallParams):
    tools: list[str] = Field(min_length=1)
    """The sequence, in order; a tool listed twice must be called twice. Shell-style wildcards allowed."""
    mode: Mode
    """exact: these calls and no others, one turn after another · in_order: these in this order, each in a
    later turn, others between allowed · any_order: these calls and no others, in any order · subset: no
    call outside the list · superset: every listed call made, others allowed."""


def _in_order(calls: list[Placed], tools: list[str]) -> tuple[list[Placed], str | None]:
    """The earliest calls that follow ``tools`` turn after turn, or what is missing where."""
    found: list[Placed] = []
    for tool in tools:
        after = found[-1].turn if found else -1
        nxt = next((p for p in calls if p.turn > after and matches(p.call, tool)), None)
        if nxt is None:
            where = f" in a turn after {found[-1].call.name} ({_at(found[-1])})" if found else ""
            return found, f"no {tool}{where}"
        found.append(nxt)
    return found, None


def _pairing(tools: list[str], calls: list[Placed]) -> dict[int, int]:
    """As many (listed tool → call) pairs as can be made, each call paired once: listed index → call index."""
    fits = [[j for j, p in enumerate(calls) if matches(p.call, tool)] for tool in tools]
    owner: dict[int, int] = {}  # call → listed tool

    def place(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(tools)):
        place(i, set())
    return {i: j for j, i in owner.items()}


def _exact(calls: list[Placed], tools: list[str]) -> str | None:
    for step, (placed, tool) in enumerate(zip(calls, tools, strict=False)):
        if not matches(placed.call, tool):
            return f"call {step + 1} is {placed.call.name} ({_at(placed)}), the sequence has {tool}"
        if step and placed.turn == calls[step - 1].turn:
            return f"{placed.call.name} ({_at(placed)}) sent in the same turn as {calls[step - 1].call.name}"
    if len(calls) != len(tools):
        return f"{len(calls)} call(s), the sequence has {len(tools)}"
    return None


def _unordered(calls: list[Placed], tools: list[str], mode: Mode) -> str | None:
    strays = [p for p in calls if not any(matches(p.call, tool) for tool in tools)]
    if strays and mode != "superset":
        return "not in the sequence: " + ", ".join(f"{p.call.name} ({_at(p)})" for p in strays)
    pairs = _pairing(tools, calls)
    missing = [tool for i, tool in enumerate(tools) if i not in pairs]
    if missing and mode != "subset":
        return f"not called (as often as listed): {missing}"
    paired = set(pairs.values())
    extra = [p for j, p in enumerate(calls) if j not in paired]
    if extra and mode != "superset":
        return "called more often than listed: " + ", ".join(f"{p.call.name} ({_at(p)})" for p in extra)
    return None


@checker("tools:sequence", SequenceParams,
         "the calls follow the sequence: exact, in_order (each in a later turn), any_order, subset or superset")
def tools_sequence(subject: Subject, params: SequenceParams) -> Outcome:
    calls = counted(subject, params)
    if params.mode == "exact":
        problem = _exact(calls, params.tools)
    elif params.mode == "in_order":
        problem = _in_order(calls, params.tools)[1]
    else:
        problem = _unordered(calls, params.tools, params.mode)
    if problem is not None:
        return Outcome.failed(f"{params.mode}: {problem}{counting(params)}; calls: {shown(calls)}", (problem,))
    return Outcome.passed(f"{params.mode} {' → '.join(params.tools)}{counting(params)}; calls: {shown(calls)}")
