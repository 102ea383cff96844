"""The openai adapter against a llama-cpp-python server, replayed from recorded responses
(exchanges/llama_cpp_python): what it sends back is accepted, a cut-off answer is the run's error,
a later turn's failure keeps the calls already made, and an error body is kept whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.runner import RunnerSettings, run_jobs
from gate.runner.adapters.openai import ChatAdapter

from .conftest import Sleeps, agent, jobs_of
from .loopback import Reply, Seen, mocked

EXCHANGES = Path(__file__).parent / "exchanges" / "llama_cpp_python"
FEEDBACK = [{"tool": "list_feedback", "result": '{"feedback": [{"id": "FB-1001", "text": "快递晚到了三天"}]}'},
            {"tool": "classify", "result": '{"results": [{"id": "FB-1001", "category": "logistics"}]}'}]


def recorded(name: str) -> Reply:
    exchange = json.loads((EXCHANGES / f"{name}.json").read_text(encoding="utf-8"))
    return Reply(exchange["status"], exchange["body"])


def llama_server(*turns: str) -> Any:
    """Answers turn n with the recording ``turns[n]``, as the server would: an assistant message whose
    content is null is refused with its HTTP 500 whatever the turn."""
    def handler(seen: Seen, index: int) -> Reply:
        if any(m["role"] == "assistant" and m.get("content", "") is None for m in seen.body["messages"]):
            return recorded("null_content_500")
        assistant_turns = sum(1 for m in seen.body["messages"] if m["role"] == "assistant")
        return recorded(turns[assistant_turns])
    return handler


def _llama(url: str, **settings: Any) -> Any:
    return agent(adapter="openai", url=url + "/v1", model="qwen2.5-7b-instruct-q4_k_m.gguf", **settings)


def _run(handler: Any, tmp_path: Path, sleeps: Sleeps | None = None, **settings: Any) -> tuple[Any, list[Seen]]:
    with mocked(handler) as server:
        outcome = run_jobs(jobs_of("feedback", intercepts=FEEDBACK), _llama(server.url, **settings), root=tmp_path,
                           settings=RunnerSettings(progress=False, sleep=sleeps or Sleeps(),
                                                   transport=server.transport))
    (record,) = outcome.trajectories
    return record, server.seen


def test_the_tool_call_message_goes_back_as_the_server_accepts_it(tmp_path: Path) -> None:
    record, seen = _run(llama_server("tool_calls_parallel", "answer_stop"), tmp_path)
    assert record.error is None, record.error
    assert len(seen) == 2
    echoed = seen[1].body["messages"][-3]
    assert echoed["role"] == "assistant" and echoed["content"] == ""
    assert [c["id"] for c in echoed["tool_calls"]] == [m["tool_call_id"] for m in seen[1].body["messages"][-2:]]
    assert echoed["tool_calls"][0]["function"] == {"name": "list_feedback", "arguments": '{"date": "today"}'}
    assert record.final_answer.startswith('[{"id": "FB-1001"')
    assert record.metadata["finish_reason"] == "stop" and record.metadata["stop_reason"] == "answer"


def test_calls_sent_in_one_message_are_recorded_as_one_turn(tmp_path: Path) -> None:
    record, _ = _run(llama_server("tool_calls_parallel", "answer_stop"), tmp_path)
    assert record.tool_names() == ["list_feedback", "classify"]
    assert record.turns() == (0, 0)


def test_a_cut_off_answer_is_the_run_s_agent_error_never_judged(tmp_path: Path) -> None:
    record, seen = _run(llama_server("answer_length"), tmp_path, max_tokens=24)
    assert seen[0].body["max_tokens"] == 24
    assert record.error == ("the reply was cut off at max_tokens (24): finish_reason 'length', so the answer is "
                            "incomplete and is not judged; raise agent.max_tokens or ask for a shorter answer")
    assert record.metadata["finish_reason"] == "length" and record.metadata["stop_reason"] == "cut_off"
    assert record.final_answer.endswith('"reason": "快递晚')  # kept to be read, not judged

    from gate.judging.evaluate import evaluate
    from gate.verdict import Status
    from tests.runner.conftest import make_case

    assert evaluate(make_case("feedback"), record).status is Status.ERROR


def test_calls_made_before_a_failing_turn_are_kept_with_the_whole_error(tmp_path: Path) -> None:
    record, seen = _run(llama_server("tool_call_single", "context_length_400"), tmp_path)
    assert len(seen) == 2  # a 400 says the same again: not retried
    assert record.tool_names() == ["list_feedback"]
    assert record.tool_calls[0].result == FEEDBACK[0]["result"]
    body = json.loads((EXCHANGES / "context_length_400.json").read_text(encoding="utf-8"))["body"]
    assert len(json.dumps(body)) > 200
    assert record.error is not None and record.error.startswith("turn 2: HTTP 400 from ")
    assert body["error"]["message"] in record.error
    assert record.error.endswith('"code": "context_length_exceeded"}}')  # the body's end, past 200 characters


def test_a_validation_error_is_not_retried_and_its_body_is_kept_whole(tmp_path: Path) -> None:
    sleeps = Sleeps()
    record, seen = _run(lambda seen, index: recorded("validation_422"), tmp_path, sleeps,
                        extra_body={"top_k": "forty", "repeat_penalty": "high"})
    assert len(seen) == 1 and sleeps.delays == []
    assert seen[0].body["top_k"] == "forty" and seen[0].body["repeat_penalty"] == "high"
    assert record.error is not None and record.error.startswith("HTTP 422 from ")
    assert "Input should be a valid number, unable to parse string as a number" in record.error  # past 200 characters
    assert record.tool_calls == ()


def test_a_server_error_is_retried_with_backoff_and_kept_whole(tmp_path: Path) -> None:
    sleeps = Sleeps()
    record, seen = _run(lambda seen, index: recorded("null_content_500"), tmp_path, sleeps, retries=2)
    assert len(seen) == 3 and len(sleeps.delays) == 2
    assert record.error is not None
    assert '"message": "can only concatenate str (not \\"NoneType\\") to str"' in record.error
    assert record.error.endswith("(after 3 attempts)")


def test_the_endpoint_settings_reach_every_request(tmp_path: Path) -> None:
    record, seen = _run(llama_server("tool_calls_parallel", "answer_stop"), tmp_path, max_tokens=512,
                        stop=["</answer>"], tool_choice="required", extra_body={"top_k": 40, "repeat_penalty": 1.1})
    assert record.error is None
    first, second = (s.body for s in seen)
    for body in (first, second):
        assert (body["max_tokens"], body["stop"], body["top_k"], body["repeat_penalty"]) == (512, ["</answer>"], 40, 1.1)
    assert first["tool_choice"] == "required"
    assert "tool_choice" not in second  # forced until a tool was called: then the model may answer


def test_a_named_tool_choice_is_sent_as_openai_spells_it(tmp_path: Path) -> None:
    choice = {"type": "function", "function": {"name": "list_feedback"}}
    _, seen = _run(llama_server("tool_call_single", "answer_stop"), tmp_path, tool_choice=choice)
    assert seen[0].body["tool_choice"] == choice and "tool_choice" not in seen[1].body


def test_settings_left_unset_send_nothing_and_keep_the_cache_key(tmp_path: Path) -> None:
    from gate.config.agent_inputs import ChatInputs
    from gate.net.retry import RetryPolicy

    _, seen = _run(llama_server("answer_stop"), tmp_path)
    assert set(seen[0].body) == {"model", "messages", "temperature", "tools"}

    def fingerprint(**settings: Any) -> Any:
        inputs = ChatInputs(url="http://h/v1/chat/completions", prompt="", skills={}, tools=())
        return ChatAdapter(_llama("http://h", **settings), inputs, RetryPolicy()).fingerprint({"messages": []})

    plain = fingerprint()
    assert "options" not in plain  # a cache written before these settings existed still answers
    assert fingerprint(max_tokens=64) != plain and fingerprint(extra_body={"top_k": 40}) != plain
    assert fingerprint(tool_choice="auto") != plain


@pytest.mark.parametrize(("extra_body", "message"), [
    ({"temperature": 0.7}, "extra_body may not set temperature: the gate sets it itself (use the setting of that name)"),
    ({"stream": True}, "extra_body may not set stream: the gate reads each reply whole"),
])
def test_extra_body_cannot_set_what_the_gate_sets(tmp_path: Path, extra_body: dict[str, Any], message: str) -> None:
    from click.testing import CliRunner

    from gate.cli.app import main

    config = {"agent": {"adapter": "openai", "url": "http://127.0.0.1:9/v1", "model": "m", "extra_body": extra_body}}
    (tmp_path / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "--config", str(tmp_path / "gate.yaml")])
    assert result.exit_code == 2, result.output
    assert f"agent.extra_body: {message}" in result.output
