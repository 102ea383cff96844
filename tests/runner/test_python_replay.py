from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from gate.errors import GateError
from gate.files.jsonstore import JsonStore
from gate.runner import RunnerSettings, run_jobs
from gate.trajectory import Trajectory

from .conftest import HERE, Sleeps, agent, jobs_of

SYNC_AGENT = """
import threading
def run(request):
    request["messages"].clear()  # mutating the argument must not matter
    return {"final_answer": "sync " + request["case_id"], "metadata": {"thread": threading.current_thread().name}}
"""

ASYNC_AGENT = """
import asyncio
async def run(request):
    await asyncio.sleep(0)
    return {"final_answer": "async " + request["case_id"], "tool_calls": [{"name": "t", "args": {"a": 1}}]}
"""


def test_sync_function_runs_in_a_worker_thread(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(SYNC_AGENT)
    outcome = run_jobs(jobs_of("c1", "c2"), agent(adapter="python", function=f"{name}:run"), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    assert [t.final_answer for t in outcome.trajectories] == ["sync c1", "sync c2"]
    assert all(t.metadata["thread"].startswith("gate-agent") for t in outcome.trajectories)


def test_async_function_is_awaited(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(ASYNC_AGENT)
    (record,) = run_jobs(jobs_of("c1"), agent(adapter="python", function=f"{name}:run"), root=tmp_path,
                         settings=RunnerSettings(progress=False)).trajectories
    assert record.final_answer == "async c1"
    assert record.tool_calls[0].name == "t" and record.tool_calls[0].args == {"a": 1}


def test_an_exception_is_an_agent_error(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module("def run(request):\n    raise ValueError('model refused')\n")
    (record,) = run_jobs(jobs_of("c1"), agent(adapter="python", function=f"{name}:run", retries=3), root=tmp_path,
                         settings=RunnerSettings(progress=False)).trajectories
    assert record.error == f"{name}:run raised ValueError: model refused"


def test_a_connection_error_is_retried(tmp_path: Path, agent_module: Callable[[str], str], sleeps: Sleeps) -> None:
    name = agent_module(
        "calls = []\n"
        "def run(request):\n"
        "    calls.append(1)\n"
        "    if len(calls) < 3:\n"
        "        raise ConnectionError('reset by peer')\n"
        "    return {'final_answer': 'third time lucky'}\n")
    outcome = run_jobs(jobs_of("c1"), agent(adapter="python", function=f"{name}:run", retries=3), root=tmp_path,
                       settings=RunnerSettings(progress=False, sleep=sleeps))
    assert outcome.trajectories[0].final_answer == "third time lucky"
    assert outcome.retries == 2 and len(sleeps.delays) == 2


def test_async_timeout(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module("import asyncio\nasync def run(request):\n    await asyncio.sleep(30)\n")
    (record,) = run_jobs(jobs_of("c1"), agent(adapter="python", function=f"{name}:run", timeout_s=0.2, retries=0),
                         root=tmp_path, settings=RunnerSettings(progress=False)).trajectories
    assert record.error == "timed out after 0.2 s"


HANGING_AGENT = """
import threading
release = threading.Event()
def run(request):
    if request["case_id"].startswith("hang"):
        release.wait(30)  # a call that never answers in time
    return {"final_answer": "quick " + request["case_id"]}
"""


@pytest.mark.slow  # waits out a 2 s timeout
def test_a_hung_sync_call_does_not_hold_up_the_next(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(HANGING_AGENT)
    # the quick call must answer within the timeout: 2 s is far from a thread's start on any machine
    config = agent(adapter="python", function=f"{name}:run", timeout_s=2, retries=0, concurrency=1)
    try:
        # one slot: "quick-1" starts only after "hang-1" has timed out, its thread still stuck
        hung, quick = run_jobs(jobs_of("hang-1", "quick-1"), config, root=tmp_path,
                               settings=RunnerSettings(progress=False)).trajectories
    finally:
        sys.modules[name].release.set()
    assert hung.error == "timed out after 2 s"
    assert quick.error is None and quick.final_answer == "quick quick-1"


@pytest.mark.slow  # a fresh interpreter that must exit despite a hung thread
def test_a_hung_sync_call_does_not_delay_exit(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module("import time\ndef run(request):\n    time.sleep(30)\n")
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(HERE.parent.parent)!r})\n"
        "from pathlib import Path\n"
        "from gate.runner import RunnerSettings, run_jobs\n"
        "from tests.runner.conftest import agent, jobs_of\n"
        f"config = agent(adapter='python', function='{name}:run', timeout_s=0.3, retries=0)\n"
        f"outcome = run_jobs(jobs_of('c1'), config, root=Path({str(tmp_path)!r}),\n"
        "               settings=RunnerSettings(progress=False))\n"
        "print(outcome.trajectories[0].error)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)  # not 30 s
    assert (done.returncode, done.stdout) == (0, "timed out after 0.3 s\n"), done.stderr


def test_a_non_dict_result_is_an_agent_error(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module("def run(request):\n    return 'just text'\n")
    (record,) = run_jobs(jobs_of("c1"), agent(adapter="python", function=f"{name}:run"), root=tmp_path,
                         settings=RunnerSettings(progress=False)).trajectories
    assert record.error == f"{name}:run returned str, expected a trajectory dict"


@pytest.mark.parametrize(("spec", "message"), [
    ("nocolon", "agent.function must look like 'module:function', got 'nocolon'"),
    ("no_such_module_xyz:run", "agent.function: cannot import 'no_such_module_xyz': No module named"),
    ("json:no_such_function", "agent.function: 'json' has no attribute 'no_such_function'"),
])
def test_a_bad_function_is_a_gate_error(tmp_path: Path, spec: str, message: str) -> None:
    with pytest.raises(GateError) as info:
        run_jobs(jobs_of("c1"), agent(adapter="python", function=spec), root=tmp_path,
                 settings=RunnerSettings(progress=False))
    assert str(info.value).startswith(message)


def _record(case_id: str, group: str, run: int, answer: str) -> str:
    return json.dumps({"case_id": case_id, "group": group, "run": run, "final_answer": answer,
                       "metadata": {"latency_ms": 5}})


def test_replay_answers_from_the_recorded_file(tmp_path: Path) -> None:
    prepared: list[None] = []
    (tmp_path / "rec.jsonl").write_text(_record("c1", "A", 0, "recorded A") + "\n"
                                        + _record("c1", "B", 0, "recorded B") + "\n", encoding="utf-8")
    outcome = run_jobs(jobs_of("c1", "c2", groups=("A", "B")),
                       agent(adapter="replay", trajectories="rec.jsonl", cache=".cache"), root=tmp_path,
                       settings=RunnerSettings(progress=False, prepare=lambda: prepared.append(None)))
    assert prepared == []  # replay answers at once: no idle time to prepare in
    by_key = {(t.case_id, t.group): t for t in outcome.trajectories}
    assert by_key["c1", "A"].final_answer == "recorded A" and by_key["c1", "B"].final_answer == "recorded B"
    assert by_key["c2", "A"].error == f"no recorded trajectory for c2 group A run 0 in {tmp_path / 'rec.jsonl'}"
    assert not (tmp_path / ".cache").exists()  # replay is never cached


def test_replay_file_missing_is_a_gate_error(tmp_path: Path) -> None:
    with pytest.raises(GateError, match="replay file not found"):
        run_jobs(jobs_of("c1"), agent(adapter="replay", trajectories="nope.jsonl"), root=tmp_path)


def test_replay_gives_back_every_field_of_the_record(tmp_path: Path) -> None:
    record = {"case_id": "c1", "group": "B", "run": 0, "final_answer": "不要索尼 \u2028 ✓ \"quoted\"\n- 1.2 万元",
              "tool_calls": [{"name": "search", "arguments": {"q": "耳机", "limit": 3, "price": 1.5}, "result": "ok"}],
              "metadata": {"latency_ms": 1234.5, "model": "m-1", "tokens": {"in": 10, "out": 20}}}
    (tmp_path / "rec.jsonl").write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    outcome = run_jobs(jobs_of("c1", groups=("B",)), agent(adapter="replay", trajectories="rec.jsonl"), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    [replayed] = outcome.trajectories
    expected = Trajectory.model_validate(record)
    assert replayed.final_answer == expected.final_answer and replayed.tool_calls == expected.tool_calls
    assert {k: replayed.metadata[k] for k in ("model", "tokens")} == {"model": "m-1", "tokens": {"in": 10, "out": 20}}


def _big_replay(path: Path, count: int) -> list[str]:
    answers = [f"{n}. " + "不要推荐索尼，预算 1.2 万以内。" * 2000 for n in range(count)]  # ~34 KB of text each
    path.write_text("".join(_record(f"c{n:02d}", "A", 0, answer) + "\n" for n, answer in enumerate(answers)),
                    encoding="utf-8")
    return answers


def test_replay_keeps_its_records_on_disk_not_in_memory(tmp_path: Path) -> None:
    import tracemalloc

    from gate.config.agent_inputs import ReplayInputs
    from gate.runner.adapters.replay import ReplayAdapter

    answers = _big_replay(tmp_path / "rec.jsonl", 40)  # 40 answers: ~2.7 MB as strings
    tracemalloc.start()
    try:
        adapter = ReplayAdapter(ReplayInputs(tmp_path / "rec.jsonl"))
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    try:
        assert held < 200_000  # their places, not their texts
        replayed = asyncio.run(adapter.call({"case_id": "c07", "group": "A", "run": 0}))
        assert replayed["final_answer"] == answers[7]
    finally:
        asyncio.run(adapter.aclose())


def test_replay_on_a_full_disk_keeps_the_records_in_memory_and_answers_alike(
        tmp_path: Path, fill_disk: Callable[[], None], capsys: pytest.CaptureFixture[str]) -> None:
    answers = _big_replay(tmp_path / "rec.jsonl", 3)
    fill_disk()
    outcome = run_jobs(jobs_of("c00", "c01", "c02"), agent(adapter="replay", trajectories="rec.jsonl"), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    assert [t.final_answer for t in outcome.trajectories] == answers
    err = capsys.readouterr().err
    assert err.count("cannot keep the replay file's records") == 1 and "No space left on device" in err


def test_answers_are_cached_by_the_writer_thread_and_are_on_disk_when_the_run_returns(
        tmp_path: Path, agent_module: Callable[[str], str], monkeypatch: pytest.MonkeyPatch) -> None:
    writers: list[str] = []
    real = JsonStore._write
    monkeypatch.setattr(JsonStore, "_write", lambda self, target, text: writers.append(threading.current_thread().name)
                        or real(self, target, text))
    name = agent_module(SYNC_AGENT)
    run_jobs(jobs_of("c1", "c2"), agent(adapter="python", function=f"{name}:run", cache=".cache"), root=tmp_path,
             settings=RunnerSettings(progress=False))
    assert len(list((tmp_path / ".cache").rglob("*.json"))) == 2
    assert writers and all(writer.startswith("gate-cache-writer") for writer in writers)
