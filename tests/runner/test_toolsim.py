"""The simulated tools of one run: matching by arguments, the fallbacks, the state."""

from __future__ import annotations

from typing import Any

import pytest

from gate.runner.base import AgentError
from gate.runner.toolsim import Answer, ToolSimulator


def _sim(*intercepts: dict[str, Any], declared: tuple[str, ...] = (), state: dict[str, str] | None = None) -> ToolSimulator:
    return ToolSimulator(intercepts, declared, "default", state)


@pytest.mark.parametrize(("wanted", "match", "args", "hit"), [
    ({"city": "Sanya"}, "subset", {"city": "Sanya", "limit": 3}, True),
    ({"city": "Sanya"}, "exact", {"city": "Sanya", "limit": 3}, False),
    ({"city": "Sanya"}, "exact", {"city": "Sanya"}, True),
    ({"city": "Sanya"}, "subset", {"city": "Haikou"}, False),
    ({"city": "Sanya"}, "subset", {}, False),
    ({"city": "re:San.*"}, "subset", {"city": "Sanya"}, True),
    ({"city": "re:San"}, "subset", {"city": "Sanya"}, False),  # matched whole, not searched
    ({"limit": "re:[0-9]+"}, "subset", {"limit": 30}, True),  # a number's text
    ({"limit": 1}, "subset", {"limit": True}, False),  # true is not 1
    ({"limit": 1}, "subset", {"limit": 1.0}, True),
    ({"filter": {"open": True}}, "subset", {"filter": {"open": True}}, True),
], ids=lambda v: str(v))
def test_a_keyed_intercept_answers_the_calls_whose_arguments_match(
        wanted: dict[str, Any], match: str, args: dict[str, Any], hit: bool) -> None:
    sim = _sim({"tool": "search", "args": wanted, "match": match, "result": "keyed"}, {"tool": "search", "result": "unkeyed"})
    assert sim.answer("search", args).result == ("keyed" if hit else "unkeyed")


def test_the_first_match_in_the_order_written_wins() -> None:
    sim = _sim({"tool": "t", "args": {"a": "re:.*"}, "result": "first"}, {"tool": "t", "args": {"a": 1}, "result": "second"})
    assert sim.answer("t", {"a": 1}).result == "first"


def test_unmatched_calls_take_the_unkeyed_intercepts_in_call_order_then_the_default() -> None:
    sim = _sim({"tool": "t", "args": {"a": 1}, "result": "keyed"}, {"tool": "t", "result": "one"},
               {"tool": "t", "result": "two"}, {"tool": "k", "args": {"a": 1}, "result": "k1"}, declared=("real",))
    answers = [sim.answer("t", {"a": 2}).result, sim.answer("t", {"a": 1}).result, sim.answer("t", {}).result,
               sim.answer("t", {}).result]
    assert answers == ["one", "keyed", "two", "two"]  # a keyed answer does not use up an unkeyed one
    assert sim.answer("k", {"a": 2}) == Answer("default")  # only keyed intercepts, none matching
    assert sim.answer("real", {}) == Answer("default")
    assert sim.answer("nope", {}) == Answer("error: unknown tool 'nope'; available tools: k, real, t", True)


def test_a_result_reads_the_call_s_arguments_and_the_state_others_set() -> None:
    sim = _sim({"tool": "set", "args": {"key": "re:.*"}, "sets": {"last": "{args.key}={args.value}"}, "result": "ok {args.key}"},
               {"tool": "get", "result": '{"last": "{state.last}", "missing": "{args.nope}"}'}, state={"last": "none"})
    assert sim.answer("get", {}).result == '{"last": "none", "missing": ""}'
    assert sim.answer("set", {"key": "a", "value": {"x": 1}}).result == "ok a"
    assert sim.answer("get", {}).result == '{"last": "a={"x": 1}", "missing": ""}'  # other braces are text
    assert sim.state == {"last": 'a={"x": 1}'}


def test_an_error_and_a_delay_are_what_the_intercept_injects() -> None:
    sim = _sim({"tool": "t", "result": "boom", "is_error": True, "delay_s": 2.5})
    assert sim.answer("t", {}) == Answer("boom", True, 2.5)


def test_in_replay_identical_calls_take_their_recordings_in_turn_and_an_unrecorded_call_is_an_agent_error() -> None:
    recorded = [{"tool": "get", "args": {"id": 7}, "match": "exact", "result": "open"},
                {"tool": "get", "args": {"id": 7}, "match": "exact", "result": "closed"},
                {"tool": "get", "result": "unkeyed, never used in replay"}]
    sim = ToolSimulator(recorded, ("real",), "default", replay=True)
    assert [sim.answer("get", {"id": 7}).result for _ in range(3)] == ["open", "closed", "closed"]
    with pytest.raises(AgentError) as info:
        sim.answer("get", {"id": 7, "verbose": True})
    assert str(info.value) == 'tool call get {"id": 7, "verbose": true} matches no recorded call (tool_replay)'
    with pytest.raises(AgentError):
        sim.answer("real", {})  # a declared tool does not get the default a recording never saw
