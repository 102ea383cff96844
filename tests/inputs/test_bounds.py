"""Every count and every size read from outside has a documented bound: beyond it, exit 2 with a
message naming what and where, before anything is planned or read whole."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gate.commands.comment import pr_from_event
from gate.errors import GateError
from gate.files import safefiles
from gate.pipeline.baseline_ref import pr_base_sha
from gate.process.shard import parse_shard

from .conftest import CASE, RECORD, gate, validate


def test_a_case_repeated_ten_million_times_is_refused() -> None:
    result = validate(CASE.replace("tags: [golden]\n", "tags: [golden]\nrepeats: 10000000\n", 1))
    assert (result.exit_code, result.stderr) == (
        2, "gate: error: cases/QC-01.yaml:8: repeats: Input should be less than or equal to 100\n")


def test_a_repeats_override_of_ten_million_in_gate_yaml_is_refused() -> None:
    Path("gate.yaml").write_text("out_dir: out\nrepeats: 10000000\n", encoding="utf-8")
    result = gate("check")
    assert (result.exit_code, result.stderr) == (
        2, "gate: error: gate.yaml:2: repeats: Input should be less than or equal to 100\n")


def test_baseline_runs_beyond_the_bound_are_a_usage_error() -> None:
    result = gate("baseline", "update", "--runs", "10000000")
    assert result.exit_code == 2 and "10000000 is not in the range 0<=x<=100" in result.output


@pytest.mark.parametrize(("text", "message"), [
    ("1/1000000000000", "--shard 1/1000000000000: N must be at most 256"),
    ("1/" + "9" * 5000, "--shard must look like K/N (e.g. 2/4), got '1/99999999999999999999999999999999999999'"),
    ("257/257", "--shard 257/257: N must be at most 256"),
])
def test_a_shard_count_beyond_the_bound_is_refused(text: str, message: str) -> None:
    with pytest.raises(GateError) as raised:
        parse_shard(text)
    assert str(raised.value) == message
    assert parse_shard("256/256") == (256, 256)


def test_a_2_gb_event_file_is_refused_by_its_size_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    event = tmp_path / "event.json"
    with event.open("wb") as handle:
        handle.truncate(2 * 1024**3)  # sparse: no disk used, and reading it whole would take 2 GB of memory
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read whole"))
    with pytest.raises(GateError) as raised:
        pr_base_sha({"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event)})
    assert isinstance(raised.value, safefiles.TooLarge)
    assert str(raised.value) == (f"{event}: the event file (GITHUB_EVENT_PATH): 2,147,483,648 bytes, "
                                 "more than the 26,214,400 allowed")
    assert pr_from_event(str(event)) is None  # the comment step never fails: no number from it


def test_a_case_file_of_17_mib_is_refused_by_its_size() -> None:
    Path("cases").mkdir()
    with open("cases/QC-01.yaml", "wb") as handle:
        handle.write(CASE.encode("utf-8"))
        handle.truncate(17 * 1024 * 1024)
    result = gate("validate", "--cases", "cases")
    assert (result.exit_code, result.stderr) == (
        2, "gate: error: cases/QC-01.yaml: 17,825,792 bytes, more than the 16,777,216 allowed\n")


def test_an_event_file_that_is_a_device_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "read", lambda fd, n: pytest.fail("read"))
    assert pr_base_sha({"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "/dev/zero"}) is None
    assert pr_from_event("/dev/zero") is None


def test_a_file_that_grows_past_its_bound_is_read_only_to_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    grown = _sparse(tmp_path / "event.json", 64 * 1024 * 1024)
    real_fstat = os.fstat  # the size it had when opened, before it grew
    monkeypatch.setattr(os, "fstat", lambda fd: os.stat_result((*real_fstat(fd)[:6], 10, *real_fstat(fd)[7:])))
    read: list[int] = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: read.append(len(got := real_read(fd, n))) or got)
    with pytest.raises(safefiles.TooLarge) as raised:
        safefiles.read_bytes(grown, what="the event file (GITHUB_EVENT_PATH)", limit=1024)
    assert str(raised.value) == f"{grown}: the event file (GITHUB_EVENT_PATH): more than the 1,024 bytes allowed"
    assert sum(read) <= 1024 * 1024  # stopped once past the bound, not read to the end


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as handle:
        handle.truncate(size)  # no disk used: reading it whole would take the memory
    return path


def test_a_baseline_or_results_file_beyond_the_bound_is_refused_by_its_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.baseline import store as baseline
    from gate.commands.merge import read_results
    from gate.github.action import read_results as action_results

    huge = _sparse(tmp_path / "huge.json", 300 * 1024 * 1024)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read whole"))
    with pytest.raises(GateError) as raised:
        baseline.load(huge)
    too_large = "314,572,800 bytes, more than the 268,435,456 allowed"
    assert str(raised.value) == f"{huge}: the baseline: {too_large}"
    with pytest.raises(GateError) as raised:
        read_results(huge)
    assert str(raised.value) == f"{huge}: results file: {too_large}"
    assert action_results(huge) == f"{huge}: results file: {too_large}"


def test_a_trajectory_line_beyond_the_bound_is_refused_without_reading_on() -> None:
    validate(CASE)
    with open("runs.jsonl", "wb") as handle:
        handle.write(json.dumps(RECORD).encode() + b"\n")
        handle.truncate(2 * 1024**3)  # a second line of 2 GB, without end
    result = gate("eval", "--cases", "cases", "--trajectories", "runs.jsonl")
    assert (result.exit_code, result.stderr) == (
        2, "gate: error: runs.jsonl:2: trajectory record: more than the 33,554,432 bytes allowed\n")


@pytest.mark.parametrize(("agent", "message"), [
    ("{adapter: openai, url: 'http://127.0.0.1:9/v1', model: m, max_turns: 10000000}",
     "gate.yaml:2: agent.max_turns: Input should be less than or equal to 100"),
    ("{command: [python, a.py], timeout_s: 1e300}", "gate.yaml:2: agent.timeout_s: Input should be less than or equal to 86400"),
])
def test_agent_turns_and_timeouts_beyond_their_bounds_are_refused(agent: str, message: str) -> None:
    Path("gate.yaml").write_text(f"out_dir: out\nagent: {agent}\n", encoding="utf-8")
    result = gate("check")
    assert (result.exit_code, result.stderr) == (2, f"gate: error: {message}\n")
