from __future__ import annotations

import os
from pathlib import Path

import pytest

from gate.errors import GateError
from gate.runner import RunnerSettings, run_jobs

from .conftest import agent, command_agent, jobs_of, wait_until_ended


def test_request_on_stdin_and_trajectory_from_stdout(tmp_path: Path) -> None:
    intercepts = [{"tool": "search", "result": "{\"n\": 1}"}]
    outcome = run_jobs(jobs_of("ok-1", groups=("A", "B"), intercepts=intercepts, skills=("s",)), command_agent(),
                       root=tmp_path, settings=RunnerSettings(progress=False))
    assert [(t.case_id, t.group, t.run) for t in outcome.trajectories] == [("ok-1", "A", 0), ("ok-1", "B", 0)]
    a, b = outcome.trajectories
    assert a.error is None and a.final_answer == "answer of ok-1/A/0"
    assert a.tool_calls[0].name == "search" and a.tool_calls[0].result == "{\"n\": 1}"
    sent = b.metadata["request"]
    assert sent["skill_enabled"] is True and sent["active_skills"] == ["s"]
    assert sent["messages"] == [{"role": "user", "content": "question of ok-1"}]
    assert isinstance(a.metadata["latency_ms"], int)
    assert outcome.calls == 2 and outcome.cache_hits == 0 and not outcome.interrupted


def test_non_zero_exit_is_an_agent_error_with_the_stderr_tail(tmp_path: Path) -> None:
    outcome = run_jobs(jobs_of("crash-1"), command_agent(retries=2), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    (record,) = outcome.trajectories
    assert record.error == "the agent exited with status 3; stderr: Traceback: something broke in the agent"
    assert outcome.retries == 0  # not a transient failure


def test_garbage_json_names_what_was_written(tmp_path: Path) -> None:
    (record,) = run_jobs(jobs_of("garbage-1"), command_agent(), root=tmp_path,
                         settings=RunnerSettings(progress=False)).trajectories
    assert record.error is not None
    assert record.error.startswith("the agent's stdout is not valid JSON (Expecting value at line 1 column 1): "
                                   "thinking… {not json (stdout must hold exactly one JSON object")


def test_a_json_value_other_than_an_object_is_refused(tmp_path: Path) -> None:
    (record,) = run_jobs(jobs_of("list-1"), command_agent(), root=tmp_path,
                         settings=RunnerSettings(progress=False)).trajectories
    assert record.error is not None
    assert record.error.startswith("the agent's stdout must be a JSON object (a trajectory), got list")


def test_missing_fields_are_an_agent_error(tmp_path: Path) -> None:
    (record,) = run_jobs(jobs_of("missing-1"), command_agent(), root=tmp_path,
                         settings=RunnerSettings(progress=False)).trajectories
    assert record.error == "the trajectory has neither 'final_answer' nor 'messages' (keys: thoughts)"


def test_huge_output_is_capped_and_the_agent_stopped(tmp_path: Path) -> None:
    (record,) = run_jobs(jobs_of("huge-1"), command_agent(), root=tmp_path,
                         settings=RunnerSettings(progress=False)).trajectories
    assert record.error is not None
    assert record.error.startswith("stdout exceeded the 10 MB cap; the agent was stopped")


@pytest.mark.slow  # waits out a 3 s timeout
def test_timeout_kills_the_agent_and_quotes_its_stderr(tmp_path: Path) -> None:
    # the agent's start and its line to stderr must come before the timeout: 3 s is far from what
    # they cost on any machine (0.5 s was not, on a loaded one); the agent then sleeps 60 s
    outcome = run_jobs(jobs_of("slow-1"), command_agent(timeout_s=3, retries=0), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    (record,) = outcome.trajectories
    assert record.error == "timed out after 3 s; stderr: started, now waiting"


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_tools_left_running_in_the_background_are_stopped(tmp_path: Path) -> None:
    marker = tmp_path / "tool.pid"
    outcome = run_jobs(jobs_of("spawn-1", context={"marker": str(marker)}), command_agent(), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    assert outcome.trajectories[0].error is None  # the agent answered and exited normally
    assert wait_until_ended(int(marker.read_text())), "the agent's background tool outlived the call"


def test_mismatched_keys_are_forced_and_recorded(tmp_path: Path) -> None:
    (record,) = run_jobs(jobs_of("wrongkey-1"), command_agent(), root=tmp_path,
                         settings=RunnerSettings(progress=False)).trajectories
    assert (record.case_id, record.group, record.run) == ("wrongkey-1", "A", 0)
    assert record.metadata["key_mismatch"] == {"case_id": "someone-else", "run": 7}


def test_python_means_this_interpreter_and_cwd_is_the_root(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(
        "import json, os, sys\nreq = json.load(sys.stdin)\n"
        "print(json.dumps({'final_answer': os.getcwd()}))\n", encoding="utf-8")
    config = agent(adapter="command", command=["python", "agent.py"])
    (record,) = run_jobs(jobs_of("ok-1"), config, root=tmp_path, settings=RunnerSettings(progress=False)).trajectories
    assert record.final_answer == str(tmp_path)


def test_a_missing_program_is_a_gate_error_before_any_call(tmp_path: Path) -> None:
    with pytest.raises(GateError) as info:
        run_jobs(jobs_of("ok-1"), agent(adapter="command", command=["no-such-agent-x"]), root=tmp_path)
    assert str(info.value) == "agent.command: program 'no-such-agent-x' not found on PATH"
    with pytest.raises(GateError) as info:
        run_jobs(jobs_of("ok-1"), agent(adapter="command", command=["bin/agent"]), root=tmp_path)
    assert str(info.value) == f"agent.command: program 'bin/agent' not found (relative to {tmp_path})"


_LEAVES_A_CHILD = """\
import json, subprocess, sys
request = json.load(sys.stdin)
# a tool started in the background inherits stdout and outlives the agent
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
record = {"case_id": request["case_id"], "group": request["group"], "run": request["run"],
          "final_answer": "done", "tool_calls": []}
print(json.dumps(record) if sys.argv[1] == "json" else "thinking about it…")
sys.stdout.flush()
"""


@pytest.mark.usefixtures("short_leftover_grace")
@pytest.mark.parametrize(("output", "expected"), [("json", None), ("prose", "kept its stdout open")])
def test_a_leftover_process_holding_stdout_does_not_cost_the_answer(tmp_path: Path, output: str,
                                                                    expected: str | None) -> None:
    import sys
    import time

    script = tmp_path / "agent.py"
    script.write_text(_LEAVES_A_CHILD, encoding="utf-8")
    config = agent(adapter="command", command=[sys.executable, str(script), output], timeout_s=120, retries=0)
    started = time.monotonic()
    (record,) = run_jobs(jobs_of("c1"), config, root=tmp_path, settings=RunnerSettings(progress=False)).trajectories
    assert time.monotonic() - started < 60  # not the 120 s timeout nor the child's 120 s; seconds on any machine
    if expected is None:
        assert record.error is None and record.final_answer == "done"
    else:  # the answer was not JSON: the error says a leftover process held stdout, not "timed out"
        assert record.error is not None and expected in record.error and "timed out" not in record.error


_LEAVES_A_DAEMON = """\
import json, os, subprocess, sys
request = json.load(sys.stdin)
# a daemon that leaves the agent's process group (its own session) and keeps stdout open
daemon = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True)
open(sys.argv[1], "w").write(str(daemon.pid))
record = {"case_id": request["case_id"], "group": request["group"], "run": request["run"],
          "final_answer": "done", "tool_calls": []}
print(json.dumps(record), flush=True)
"""


@pytest.mark.usefixtures("short_leftover_grace")
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="pipe holders are found through /proc")
def test_a_daemon_that_escapes_the_process_group_is_stopped_and_leaves_no_unclosed_pipe(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc
    import sys
    import warnings

    from gate.runner.adapters import command

    monkeypatch.setattr(command, "_REAP_S", 3.0)
    script = tmp_path / "agent.py"
    script.write_text(_LEAVES_A_DAEMON, encoding="utf-8")
    marker = tmp_path / "daemon.pid"
    config = agent(adapter="command", command=[sys.executable, str(script), str(marker)], timeout_s=20, retries=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (record,) = run_jobs(jobs_of("c1"), config, root=tmp_path, settings=RunnerSettings(progress=False)).trajectories
        gc.collect()  # an unclosed transport would warn (or raise "Event loop is closed") here
    assert record.error is None and record.final_answer == "done"
    assert not [w for w in caught if issubclass(w.category, ResourceWarning)], [str(w.message) for w in caught]
    assert wait_until_ended(int(marker.read_text(encoding="utf-8")), within_s=5)  # not left running
