"""Turns: the calls of one assistant message were sent together, and a record says so; a record
without turns reads as it always did (each call its own turn) and keeps its digest."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from gate.trajectory import Trajectory

KEY = {"case_id": "feedback-001", "group": "B", "run": 0}


def _call(call_id: str, name: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": '{"date": "today"}'}}


def _transcript(*turns: list[str]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "classify"}]
    for number, names in enumerate(turns):
        ids = [f"t{number}c{i}" for i in range(len(names))]
        messages.append({"role": "assistant", "content": None,
                         "tool_calls": [_call(i, n) for i, n in zip(ids, names, strict=True)]})
        messages += [{"role": "tool", "tool_call_id": i, "content": "{}"} for i in ids]
    return [*messages, {"role": "assistant", "content": "[]"}]


def test_a_parallel_assistant_message_is_one_turn() -> None:
    record = Trajectory.model_validate({**KEY, "messages": _transcript(["list_feedback", "classify"], ["get_user"])})
    assert record.tool_names() == ["list_feedback", "classify", "get_user"]
    assert record.turns() == (0, 0, 1)
    assert [call.turn for call in record.tool_calls] == [0, 0, 1]


def test_a_transcript_of_single_calls_records_no_turns_and_keeps_its_digest() -> None:
    record = Trajectory.model_validate({**KEY, "messages": _transcript(["list_feedback"], ["classify"])})
    flat = Trajectory.model_validate({**KEY, "final_answer": "[]", "tool_calls": [
        {"name": "list_feedback", "args": {"date": "today"}, "result": "{}"},
        {"name": "classify", "args": {"date": "today"}, "result": "{}"}]})
    assert record.turns() == (0, 1)
    assert all(call.turn is None for call in record.tool_calls)
    assert "turn" not in record.tool_calls[0].model_dump(mode="json")
    assert record.digest == flat.digest


def test_a_flat_record_without_turns_is_one_call_a_turn() -> None:
    record = Trajectory.model_validate({**KEY, "final_answer": "", "tool_calls": [{"name": "a"}, {"name": "b"}]})
    assert record.turns() == (0, 1)


def test_a_flat_record_carries_turns_and_they_are_part_of_what_it_did() -> None:
    calls = [{"name": "list_feedback"}, {"name": "classify"}]
    together = Trajectory.model_validate({**KEY, "final_answer": "", "tool_calls": [{**c, "turn": 0} for c in calls]})
    apart = Trajectory.model_validate({**KEY, "final_answer": "", "tool_calls": calls})
    assert together.turns() == (0, 0)
    assert together.digest != apart.digest


@pytest.mark.parametrize(("calls", "message"), [
    ([{"name": "a", "turn": 1}, {"name": "b", "turn": 0}],
     "call #1 has turn 0, before the turn 1 of the call ahead of it: calls are listed in the order they were sent"),
    ([{"name": "a", "turn": 0}, {"name": "b"}],
     "call #1 has no turn while other calls have one: give every call a turn or none"),
    ([{"name": "a", "turn": -1}], "greater than or equal to 0"),
    ([{"name": "a", "turn": "0"}], "valid integer"),
])
def test_turns_that_contradict_the_order_are_refused_with_the_place(calls: list[dict[str, Any]], message: str) -> None:
    with pytest.raises(ValidationError, match="tool_calls") as caught:
        Trajectory.model_validate({**KEY, "final_answer": "", "tool_calls": calls})
    assert message in str(caught.value)


def test_an_agent_s_contradictory_turns_are_that_run_s_agent_error() -> None:
    from gate.runner.base import AgentError, to_trajectory

    with pytest.raises(AgentError) as caught:
        to_trajectory({"final_answer": "", "tool_calls": [{"name": "a", "turn": 1}, {"name": "b", "turn": 0}]},
                      ("feedback-001", "B", 0))
    assert str(caught.value) == ("the trajectory is malformed: tool_calls: call #1 has turn 0, before the turn 1 of "
                                 "the call ahead of it: calls are listed in the order they were sent")
