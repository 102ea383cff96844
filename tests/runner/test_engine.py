from __future__ import annotations

import io
import json
import signal
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from gate.process.interrupts import StopRequests
from gate.runner import RunnerSettings, run_jobs
from gate.runner.cache import cache_key
from gate.runner.progress import Progress, auto_enabled, auto_mode
from gate.runs.records import Spool, SpooledRun
from gate.trajectory import Trajectory
from gate.verdict import RunVerdict, Status

from .conftest import agent, jobs_of

COUNTING_AGENT = """
import json, pathlib
def run(request):
    log = pathlib.Path(__file__).with_suffix(".calls")
    with log.open("a") as handle:
        handle.write(request["case_id"] + "\\n")
    if request["case_id"].startswith("bad"):
        raise RuntimeError("no answer")
    return {"final_answer": "answer " + request["case_id"]}
"""


def _calls(tmp_path: Path, name: str) -> list[str]:
    log = tmp_path / f"{name}.calls"
    return log.read_text().split() if log.exists() else []


def test_cache_hit_makes_no_call_and_failures_are_not_cached(
    tmp_path: Path, agent_module: Callable[[str], str],
) -> None:
    name = agent_module(COUNTING_AGENT)
    config = agent(adapter="python", function=f"{name}:run", cache=".gate-cache", identity="v1")
    jobs = jobs_of("c1", "c2", "bad1", groups=("A", "B"))
    first = run_jobs(jobs, config, root=tmp_path, settings=RunnerSettings(progress=False))
    assert (first.calls, first.cache_hits, first.errors) == (6, 0, 2)
    assert len(list((tmp_path / ".gate-cache").rglob("*.json"))) == 4  # errors are not stored

    second = run_jobs(jobs, config, root=tmp_path, settings=RunnerSettings(progress=False))
    assert (second.calls, second.cache_hits) == (2, 4)  # only the failed jobs are called again
    assert _calls(tmp_path, name).count("c1") == 2  # once per group, the first time only
    hit = next(t for t in second.trajectories if t.case_id == "c1")
    assert hit == next(t for t in first.trajectories if t.case_id == "c1")  # exactly as first recorded

    changed = run_jobs(jobs_of("c1"), config.model_copy(update={"identity": "v2"}), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    assert (changed.calls, changed.cache_hits) == (1, 0)  # a new agent identity misses


def test_unchanged_rerun_makes_zero_calls(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(COUNTING_AGENT)
    config = agent(adapter="python", function=f"{name}:run", cache=str(tmp_path / "abs-cache"))
    jobs = jobs_of("c1", "c2", groups=("A", "B"))
    first = run_jobs(jobs, config, root=tmp_path, settings=RunnerSettings(progress=False))
    second = run_jobs(jobs, config, root=tmp_path, settings=RunnerSettings(progress=False))
    assert (second.calls, second.cache_hits) == (0, 4)
    # nothing marks a cached answer: a cached rerun writes byte-identical results
    assert [t.model_dump_json() for t in second.trajectories] == [t.model_dump_json() for t in first.trajectories]


def what_it_did(trajectory: Trajectory) -> tuple[object, ...]:
    return trajectory.case_id, trajectory.group, trajectory.run, trajectory.final_answer, trajectory.error


def test_keep_decides_what_the_outcome_holds_of_each_trajectory_once_judged(
    tmp_path: Path, agent_module: Callable[[str], str],
) -> None:
    name = agent_module(COUNTING_AGENT)
    config = agent(adapter="python", function=f"{name}:run", cache="cache")
    jobs = jobs_of("c1", "c2", "bad1", groups=("A", "B"))
    whole = run_jobs(jobs, config, root=tmp_path, settings=RunnerSettings(progress=False))
    judged: list[Trajectory] = []

    def judge(trajectory: Trajectory) -> RunVerdict:
        judged.append(trajectory)
        return RunVerdict(case_id=trajectory.case_id, group=trajectory.group, run=trajectory.run, status=Status.PASS)

    for rerun in range(2):  # answered, then from the cache (the failed calls are called again)
        with Spool() as spool:
            kept = run_jobs(jobs, config, root=tmp_path,
                            settings=RunnerSettings(progress=False, judge=judge, keep=spool.keep))
            assert all(isinstance(t, SpooledRun) for t in kept.trajectories), rerun
            assert [what_it_did(t.whole()) for t in kept.trajectories] == [what_it_did(t) for t in whole.trajectories]
            assert kept.errors == 2 and len(kept.verdicts) == 6
    assert all(isinstance(t, Trajectory) for t in judged)  # judged whole, before it was spooled


def test_a_corrupt_cache_entry_is_a_miss(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(COUNTING_AGENT)
    config = agent(adapter="python", function=f"{name}:run", cache="cache")
    run_jobs(jobs_of("c1"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    (entry,) = (tmp_path / "cache").rglob("*.json")
    entry.write_text("{truncated", encoding="utf-8")
    again = run_jobs(jobs_of("c1"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    assert (again.calls, again.cache_hits) == (1, 0) and again.trajectories[0].final_answer == "answer c1"
    assert json.loads(entry.read_text())["final_answer"] == "answer c1"  # rewritten


def test_a_cache_that_cannot_be_written_is_skipped_with_one_warning(
    tmp_path: Path, agent_module: Callable[[str], str], capsys: pytest.CaptureFixture[str],
) -> None:
    name = agent_module(COUNTING_AGENT)
    (tmp_path / "cache").write_text("not a directory", encoding="utf-8")
    config = agent(adapter="python", function=f"{name}:run", cache="cache")
    outcome = run_jobs(jobs_of("c1", "c2"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    assert [t.final_answer for t in outcome.trajectories] == ["answer c1", "answer c2"]
    assert (outcome.calls, outcome.cache_hits) == (2, 0)
    (warning,) = capsys.readouterr().err.splitlines()
    assert warning.startswith(f"gate: warning: cannot write to the cache at {tmp_path / 'cache'} ([Errno ")
    assert warning.endswith("); continuing without caching")


def test_an_entry_that_cannot_be_read_or_replaced_is_a_miss(
    tmp_path: Path, agent_module: Callable[[str], str], capsys: pytest.CaptureFixture[str],
) -> None:
    name = agent_module(COUNTING_AGENT)
    config = agent(adapter="python", function=f"{name}:run", cache="cache")
    run_jobs(jobs_of("c1"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    (entry,) = (tmp_path / "cache").rglob("*.json")
    entry.unlink()
    (entry / "in-the-way").mkdir(parents=True)  # a directory where the entry was: unreadable and unwritable
    again = run_jobs(jobs_of("c1"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    assert (again.calls, again.cache_hits) == (1, 0) and again.trajectories[0].final_answer == "answer c1"
    assert "cannot write to the cache" in capsys.readouterr().err


def test_cache_key_is_canonical_and_covers_every_part() -> None:
    request = {"case_id": "c1", "group": "A", "run": 0, "messages": [{"role": "user", "content": "hi"}]}
    reordered = dict(reversed(list(request.items())))
    base = cache_key("v1", "command", ["python", "a.py"], request)
    assert base == cache_key("v1", "command", ["python", "a.py"], reordered)
    assert len({base, cache_key("v2", "command", ["python", "a.py"], request),
                cache_key("v1", "http", ["python", "a.py"], request),
                cache_key("v1", "command", ["python", "b.py"], request),
                cache_key("v1", "command", ["python", "a.py"], {**request, "run": 1})}) == 5


INFLIGHT_AGENT = """
import asyncio
state = {"now": 0, "peak": 0}
async def run(request):
    state["now"] += 1
    state["peak"] = max(state["peak"], state["now"])
    for _ in range(3):
        await asyncio.sleep(0)
    state["now"] -= 1
    return {"final_answer": str(state["peak"])}
"""


def test_concurrency_bound_with_an_async_agent(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(INFLIGHT_AGENT)
    outcome = run_jobs(jobs_of(*[f"c{n:02d}" for n in range(10)], groups=("A", "B")),
                       agent(adapter="python", function=f"{name}:run", concurrency=4), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    peaks = [int(t.final_answer) for t in outcome.trajectories]
    assert max(peaks) == 4  # all slots used, never more


TASKS_AGENT = """
import asyncio
async def run(request):
    await asyncio.sleep(0)
    return {"final_answer": str(len(asyncio.all_tasks()))}
"""


def test_the_run_holds_tasks_by_its_concurrency_not_by_its_jobs(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    # a task per job held ~0.8 KB for every job not yet done (16,700 jobs: 13 MiB)
    name = agent_module(TASKS_AGENT)
    outcome = run_jobs(jobs_of(*[f"c{n:03d}" for n in range(120)], groups=("A", "B")),
                       agent(adapter="python", function=f"{name}:run", concurrency=3), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    assert len(outcome.trajectories) == 240 and all(t.error is None for t in outcome.trajectories)
    alive = [int(t.final_answer) for t in outcome.trajectories]
    assert max(alive) <= 2 * 3 + 3 + 1  # the workers, the calls out (each timed in its own task), the run


SENDING_AGENT = """
import pathlib
async def run(request):
    with pathlib.Path(__file__).with_suffix(".events").open("a") as handle:
        handle.write("sent " + request["case_id"] + "\\n")
    return {"final_answer": "1. " + request["case_id"]}
"""


def test_each_request_is_built_on_its_jobs_turn(tmp_path: Path, agent_module: Callable[[str], str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # built up front, 6,000 cases' requests were ~20 MiB held for the whole run
    import gate.runner.engine as engine

    name = agent_module(SENDING_AGENT)
    events = tmp_path / f"{name}.events"
    real = engine.build_request

    def build(job: object) -> dict[str, object]:
        request = real(job)  # type: ignore[arg-type]
        with events.open("a") as handle:
            handle.write(f"built {request['case_id']}\n")
        return request

    monkeypatch.setattr(engine, "build_request", build)
    ids = [f"c{n:02d}" for n in range(20)]
    run_jobs(jobs_of(*ids), agent(adapter="python", function=f"{name}:run", concurrency=1), root=tmp_path,
             settings=RunnerSettings(progress=False))
    lines = events.read_text().splitlines()
    waiting = [sum(e.startswith("built") for e in lines[:i]) - sum(e.startswith("sent") for e in lines[:i])
               for i in range(len(lines) + 1)]
    assert sorted(lines) == sorted([f"built {i}" for i in ids] + [f"sent {i}" for i in ids])
    assert max(waiting) <= 2  # built for the one slot and the task next in line, not for every job


ORDERED_AGENT = """
import asyncio, pathlib
async def run(request):
    log = pathlib.Path(__file__).with_suffix(".events")
    with log.open("a") as handle:
        handle.write("sent " + request["case_id"] + "\\n")
    await asyncio.sleep({"c1": 0.05, "c2": 0.3}.get(request["case_id"], 0.01))
    return {"final_answer": "1. " + request["case_id"]}
"""


def test_an_answer_is_judged_after_the_request_its_slot_lets_out(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    # judged at once, an answer held back the next request by its judging (a round of answers
    # arriving together held back a whole round of requests)
    from gate.verdict import RunVerdict, Status

    name = agent_module(ORDERED_AGENT)
    events = tmp_path / f"{name}.events"

    def judge(trajectory: Trajectory) -> RunVerdict:
        with events.open("a") as handle:
            handle.write(f"judged {trajectory.case_id}\n")
        return RunVerdict(case_id=trajectory.case_id, group=trajectory.group, run=trajectory.run, status=Status.PASS)

    outcome = run_jobs(jobs_of("c1", "c2", "c3"), agent(adapter="python", function=f"{name}:run", concurrency=2),
                       root=tmp_path, settings=RunnerSettings(progress=False, judge=judge))
    lines = events.read_text().splitlines()
    assert lines.index("sent c3") < lines.index("judged c1")  # c2 was still out: c3 went first
    assert sorted(outcome.verdicts) == [("c1", "A", 0), ("c2", "A", 0), ("c3", "A", 0)]


WAITING_AGENT = """
import asyncio
async def run(request):
    await asyncio.sleep(0.15)
    return {"final_answer": "1. " + request["case_id"]}
"""


def test_the_preparation_runs_once_beside_the_loop_while_the_first_calls_are_out(
        tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    # what judging and the reports import (0.1–0.2 s) is done while the agent calls are out, not
    # on the event loop while answers wait
    name = agent_module(WAITING_AGENT)
    config = agent(adapter="python", function=f"{name}:run", concurrency=2, cache=".cache")
    threads: list[threading.Thread] = []

    def prepare() -> None:
        threads.append(threading.current_thread())

    first = run_jobs(jobs_of("c1", "c2", "c3"), config, root=tmp_path,
                     settings=RunnerSettings(progress=False, prepare=prepare))
    assert first.calls == 3 and len(threads) == 1 and threads[0] is not threading.current_thread()
    again = run_jobs(jobs_of("c1", "c2", "c3"), config, root=tmp_path,
                     settings=RunnerSettings(progress=False, prepare=prepare))
    assert again.cache_hits == 3 and len(threads) == 1  # nothing called, nothing to wait for: nothing readied


def test_a_failing_preparation_leaves_the_run_alone(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(WAITING_AGENT)

    def prepare() -> None:
        raise ImportError("no module named 'broken'")

    outcome = run_jobs(jobs_of("c1", "c2"), agent(adapter="python", function=f"{name}:run"), root=tmp_path,
                       settings=RunnerSettings(progress=False, prepare=prepare))
    assert [t.final_answer for t in outcome.trajectories] == ["1. c1", "1. c2"]
    assert all(t.error is None for t in outcome.trajectories)


STOPPING_AGENT = """
import asyncio, os, signal
async def run(request):
    if request["case_id"] == "zz-stop":
        os.kill(os.getpid(), signal.SIGINT)  # as if Ctrl-C were pressed now
        await asyncio.sleep(30)
    return {"final_answer": "done " + request["case_id"]}
"""


def test_ctrl_c_keeps_finished_results(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(STOPPING_AGENT)
    jobs = jobs_of("a1", "a2", "zz-stop", "zz-stop2")
    # concurrency 1: the jobs run in key order, so a1 and a2 are done when zz-stop interrupts
    outcome = run_jobs(jobs, agent(adapter="python", function=f"{name}:run", concurrency=1), root=tmp_path,
                       settings=RunnerSettings(progress=False))
    assert outcome.interrupted
    assert [t.case_id for t in outcome.trajectories] == ["a1", "a2"]
    assert all(t.error is None for t in outcome.trajectories)


def test_a_stop_made_before_the_run_sends_no_call_and_one_during_it_counts_for_the_command(
        tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    counting = agent_module(COUNTING_AGENT)
    stops = StopRequests()
    stops.request()  # while the cases loaded
    outcome = run_jobs(jobs_of("c1", "c2"), agent(adapter="python", function=f"{counting}:run"), root=tmp_path,
                       settings=RunnerSettings(progress=False), stops=stops)
    assert outcome.interrupted and outcome.calls == 0 and outcome.trajectories == []
    assert _calls(tmp_path, counting) == []

    stops = StopRequests()
    outcome = run_jobs(jobs_of("a1", "zz-stop"),
                       agent(adapter="python", function=f"{agent_module(STOPPING_AGENT)}:run",
                                                       concurrency=1),
                       root=tmp_path, settings=RunnerSettings(progress=False), stops=stops)
    assert outcome.interrupted and stops.requested  # the command's next signal stops at once


IGNORED_STOP_AGENT = """
import asyncio, os, signal
async def run(request):
    if request["case_id"] == "b-stop":
        os.kill(os.getpid(), signal.SIGINT)
        await asyncio.sleep(0.2)  # time for a handler, were one installed, to cancel this call
    return {"final_answer": "done " + request["case_id"]}
"""


@pytest.mark.usefixtures("sigint_ignored")
def test_an_ignored_ctrl_c_is_left_ignored(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    # a caller that ignores SIGINT keeps its choice (the `gate` command itself takes the signal)
    name = agent_module(IGNORED_STOP_AGENT)
    outcome = run_jobs(jobs_of("a1", "b-stop", "c1"), agent(adapter="python", function=f"{name}:run", concurrency=1),
                       root=tmp_path, settings=RunnerSettings(progress=False))
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert not outcome.interrupted
    assert [t.final_answer for t in outcome.trajectories] == ["done a1", "done b-stop", "done c1"]


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_line_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    stream, clock = io.StringIO(), _Clock()
    progress = Progress(4, enabled="tty", stream=stream, clock=clock)
    clock.now += 2
    progress.record(error=False, passed=True)
    clock.now += 2
    progress.record(error=True, passed=False)
    progress.record(error=False, cached=True, passed=False)
    progress.finish()
    frames = stream.getvalue().split("\r\x1b[2K")
    assert frames[1] == "[1/4] 25% · 2 s · passed 1 · failed 0 · agent errors 0 · cached 0 · ETA 6 s"
    assert frames[-1] == "[3/4] 75% · 4 s · passed 1 · failed 2 · agent errors 1 · cached 1 · ETA 2 s\n"


def test_failed_is_red_on_a_colour_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    stream = io.StringIO()
    progress = Progress(2, enabled="tty", stream=stream)
    progress.record(error=False, passed=False)
    assert "\x1b[31mfailed 1\x1b[0m" in stream.getvalue()


def test_progress_in_a_ci_log_is_periodic_lines_inside_a_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    stream, clock = io.StringIO(), _Clock()
    progress = Progress(100, enabled="log", stream=stream, clock=clock, interval_s=10)
    for n in range(100):
        clock.now += 0.05 if n < 50 else 1.0  # slower in the second half: lines by time, too
        progress.record(error=False, passed=n % 10 != 0)
    progress.finish()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "::group::agent-gate: 100 agent calls" and lines[-1] == "::endgroup::"
    assert "\r" not in stream.getvalue() and "\x1b" not in stream.getvalue()
    assert lines[1].startswith("[10/100] 10% · 0 s · passed 9 · failed 1")
    assert lines[-2] == "[100/100] 100% · 52 s · passed 90 · failed 10 · agent errors 0 · cached 0"
    assert 10 <= len(lines) - 2 <= 16  # every 10 % and every 10 s, not every call


def test_progress_is_silent_when_disabled() -> None:
    stream = io.StringIO()
    progress = Progress(1, enabled=False, stream=stream)
    progress.record(error=False)
    progress.finish()
    assert stream.getvalue() == ""


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_auto_is_a_line_on_a_terminal_and_log_lines_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    assert auto_mode(_Tty()) == "tty"
    assert auto_mode(io.StringIO()) == "off"
    monkeypatch.setenv("CI", "true")
    assert auto_mode(_Tty()) == "log"
    assert auto_mode(io.StringIO()) == "log"
    assert auto_enabled(io.StringIO()) is True


def test_a_tampered_entry_naming_another_case_is_a_miss(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    name = agent_module(COUNTING_AGENT)
    config = agent(adapter="python", function=f"{name}:run", cache="cache")
    run_jobs(jobs_of("c1", "c2"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    entries = sorted((tmp_path / "cache").rglob("*.json"))
    records = {json.loads(e.read_text())["case_id"]: e for e in entries}
    forged = json.loads(records["c2"].read_text())
    records["c1"].write_text(json.dumps({**forged, "final_answer": "forged"}), encoding="utf-8")  # c2's answer as c1's
    again = run_jobs(jobs_of("c1", "c2"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    assert (again.calls, again.cache_hits) == (1, 1)
    assert [(t.case_id, t.final_answer) for t in again.trajectories] == [("c1", "answer c1"), ("c2", "answer c2")]


def test_a_fifo_in_the_cache_is_skipped_without_blocking(tmp_path: Path, agent_module: Callable[[str], str]) -> None:
    import os
    import time

    name = agent_module(COUNTING_AGENT)
    config = agent(adapter="python", function=f"{name}:run", cache="cache", timeout_s=5)
    run_jobs(jobs_of("c1"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    (entry,) = (tmp_path / "cache").rglob("*.json")
    entry.unlink()
    os.mkfifo(entry)  # nobody ever writes to it: a blocking read would hang the run
    started = time.monotonic()
    again = run_jobs(jobs_of("c1"), config, root=tmp_path, settings=RunnerSettings(progress=False))
    assert time.monotonic() - started < 5
    assert (again.calls, again.cache_hits) == (1, 0) and again.trajectories[0].final_answer == "answer c1"


def test_progress_counts_an_uncertain_run_neither_passed_nor_failed(tmp_path: Path, agent_module: Callable[[str], str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    recorded: list[bool | None] = []
    monkeypatch.setattr(Progress, "record", lambda self, *, error, cached=False, passed=None: recorded.append(passed))

    def judge(trajectory: Trajectory) -> RunVerdict:
        status = Status.UNCERTAIN if trajectory.case_id == "c1" else Status.FAIL
        return RunVerdict(case_id=trajectory.case_id, group=trajectory.group, run=trajectory.run, status=status)

    name = agent_module(ORDERED_AGENT)
    run_jobs(jobs_of("c1", "c2"), agent(adapter="python", function=f"{name}:run", concurrency=1), root=tmp_path,
             settings=RunnerSettings(progress=False, judge=judge))
    assert sorted(recorded, key=str) == [False, None]
