"""The openai adapter's tool loop answers from the simulated tools of tests/data/toolsim: by
arguments, with the state a call sets, injected errors and latency (the example case file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from gate.cases.loader import load_cases
from gate.runner import RunnerSettings, run_jobs
from gate.runs.jobs import plan
from gate.runs.tool_recording import write_recordings
from gate.trajectory import Trajectory

from .conftest import Sleeps, agent
from .loopback import Reply, Seen, mocked

CASES = Path(__file__).resolve().parents[1] / "data" / "toolsim"
TURNS = [  # what the scripted model asks for, turn by turn
    [("update_ticket", {"id": 7, "status": "closed"})],
    [("get_ticket", {"id": 7})],
    [("get_ticket", {"id": 8}), ("update_ticket", {"id": 7, "status": "pending"}), ("get_ticket", {"id": 7})],
]


def scripted_model(seen: Seen, index: int) -> Reply:
    done = sum(1 for m in seen.body["messages"] if m["role"] == "assistant")
    if done < len(TURNS):
        calls = [{"id": f"c{done}_{n}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                 for n, (name, args) in enumerate(TURNS[done])]
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": calls}
    else:
        message = {"role": "assistant", "content": "Ticket 7 is closed."}
    return Reply(body={"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})


def _run(tmp_path: Path, sleeps: Sleeps, cases: Path = CASES, **settings: Any) -> Trajectory:
    jobs = plan(list(load_cases(cases).cases.values()), ("A",))
    with mocked(scripted_model) as server:
        config = agent(adapter="openai", url=server.url, model="m", retries=0, **settings)
        (record,) = run_jobs(jobs, config, root=tmp_path,
                             settings=RunnerSettings(progress=False, sleep=sleeps,
                                                     transport=server.transport)).trajectories
    return record


def test_calls_are_answered_by_their_arguments_and_the_state_earlier_calls_set(tmp_path: Path, sleeps: Sleeps) -> None:
    record = _run(tmp_path, sleeps)
    assert record.error is None
    answered = [(c.name, c.result, c.is_error) for c in record.tool_calls]
    assert answered == [
        ("update_ticket", '{"id": 7, "status": "closed"}', False),
        ("get_ticket", '{"id": 7, "status": "closed"}', False),  # what update_ticket set, not the start value
        ("get_ticket", "error: no such ticket", True),  # no keyed intercept for ticket 8: the unkeyed one
        ("update_ticket", "error: status must be open or closed", True),  # 'pending' is not matched by re:open|closed
        ("get_ticket", '{"id": 7, "status": "closed"}', False),  # the refused update left the state alone
    ]
    assert sleeps.delays == [1.5, 1.5]  # the injected latency of each read of ticket 7


def test_latency_beyond_the_agent_timeout_times_the_call_out(tmp_path: Path, sleeps: Sleeps) -> None:
    record = _run(tmp_path, sleeps, timeout_s=1)
    reads = [(c.result, c.is_error) for c in record.tool_calls if c.args == {"id": 7} and c.name == "get_ticket"]
    assert reads == [("error: tool 'get_ticket' timed out after 1 s", True)] * 2
    assert sleeps.delays == [1.0, 1.0]


def test_in_replay_a_call_no_recording_matches_ends_the_run_naming_it(tmp_path: Path, sleeps: Sleeps) -> None:
    live = Trajectory(case_id="SUP-SIM-01", group="A", run=0, final_answer="done", tool_calls=[
        {"name": "update_ticket", "args": {"id": 7, "status": "closed"}, "result": "updated"},
        {"name": "get_ticket", "args": {"id": 7}, "result": "closed"}])
    (recording,) = write_recordings(tmp_path / "recorded", [live])
    case = yaml.safe_load((CASES / "SUP-SIM-01.yaml").read_text(encoding="utf-8"))
    case["input"] = {"messages": case["input"]["messages"], **yaml.safe_load(recording.read_text(encoding="utf-8"))}
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "SUP-SIM-01.yaml").write_text(yaml.safe_dump(case), encoding="utf-8")

    record = _run(tmp_path, sleeps, cases=tmp_path / "cases")
    assert [(c.name, c.result) for c in record.tool_calls] == [("update_ticket", "updated"), ("get_ticket", "closed")]
    assert record.error == 'turn 3: tool call get_ticket {"id": 8} matches no recorded call (tool_replay)'
