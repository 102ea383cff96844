from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from gate.cli.app import main
from tests.processes import started

from .conftest import FAKE_AGENT, make_case, wait_until_ended


def _write_case(directory: Path, case_id: str, tags: list[str], context: dict[str, Any] | None = None) -> None:
    data = make_case(case_id, context=context).model_dump(mode="json", by_alias=True, exclude_none=True)
    data["tags"] = tags
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{case_id}.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def _project(tmp_path: Path, ids: list[str], *, concurrency: int = 4, extra_ids: tuple[str, ...] = ()) -> Path:
    for case_id in ids:
        _write_case(tmp_path / "cases", case_id, ["golden"])
    for case_id in extra_ids:
        _write_case(tmp_path / "cases", case_id, ["extended"])
    config = {"cases": {"path": "cases", "tags": ["golden"]},
              "agent": {"adapter": "command", "command": ["python", str(FAKE_AGENT)],
                        "concurrency": concurrency, "cache": ".gate-cache"},
              "out_dir": "results"}
    (tmp_path / "gate.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return tmp_path / "gate.yaml"


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_run_writes_the_selected_cases_and_a_summary(tmp_path: Path) -> None:
    config = _project(tmp_path, ["ok-1", "crash-1"], extra_ids=("ok-extended",))
    result = CliRunner().invoke(main, ["run", "--config", str(config)])
    assert result.exit_code == 0, result.output
    out = tmp_path / "results" / "trajectories.jsonl"
    assert result.stdout == f"4 trajectories (ok 2 · err 2 · cached 0) from 4 agent calls → {out}\n"
    records = _records(out)
    assert [(r["case_id"], r["group"], r["run"]) for r in records] == [
        ("crash-1", "A", 0), ("crash-1", "B", 0), ("ok-1", "A", 0), ("ok-1", "B", 0)]
    assert records[0]["error"].startswith("the agent exited with status 3")

    again = CliRunner().invoke(main, ["run", "--config", str(config), "--out", str(tmp_path / "again.jsonl")])
    assert again.exit_code == 0
    assert "(ok 2 · err 2 · cached 2) from 2 agent calls" in again.stdout  # only the failures are called again


def test_run_shards_and_takes_another_case_directory(tmp_path: Path) -> None:
    config = _project(tmp_path, ["ok-1", "ok-2", "ok-3", "ok-4"])
    seen: set[str] = set()
    for k in (1, 2):
        out = tmp_path / f"shard{k}.jsonl"
        result = CliRunner().invoke(main, ["run", "--config", str(config), "--shard", f"{k}/2", "--out", str(out)])
        assert result.exit_code == 0, result.output
        ids = {r["case_id"] for r in _records(out)}
        assert len(ids) == 2 and not ids & seen
        seen |= ids
    assert seen == {"ok-1", "ok-2", "ok-3", "ok-4"}

    _write_case(tmp_path / "other", "ok-9", ["golden"])
    out = tmp_path / "other.jsonl"
    result = CliRunner().invoke(main, ["run", "--config", str(config), "--cases", str(tmp_path / "other"),
                                       "--out", str(out)])
    assert result.exit_code == 0 and {r["case_id"] for r in _records(out)} == {"ok-9"}


@pytest.mark.parametrize(("args", "message"), [
    (["--shard", "3/2"], "gate: error: --shard 3/2: K must be between 1 and N (N ≥ 1)\n"),
    (["--config", "missing.yaml"], "gate: error: missing.yaml: config file not found\n"),
])
def test_run_bad_arguments_exit_2(tmp_path: Path, args: list[str], message: str,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _project(tmp_path, ["ok-1"])
    result = CliRunner().invoke(main, ["run", *args])
    assert result.exit_code == 2 and result.stderr == message


def test_run_with_no_selected_case_exits_2(tmp_path: Path) -> None:
    config = _project(tmp_path, [], extra_ids=("ok-1",))
    result = CliRunner().invoke(main, ["run", "--config", str(config)])
    assert result.exit_code == 2
    assert result.stderr == f"gate: error: {tmp_path / 'cases'}: no case selected (tags: golden; ids: 0 given; groups: A, B)\n"


@pytest.mark.slow  # a real `gate run` stopped by a real signal
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_signal_writes_what_finished_and_exits_130(tmp_path: Path, signum: signal.Signals) -> None:
    config = _project(tmp_path, ["ok-1", "ok-2"], concurrency=1)
    marker = tmp_path / "slow-started"
    _write_case(tmp_path / "cases", "slow-1", ["golden"], context={"marker": str(marker)})
    out = tmp_path / "partial.jsonl"
    env = {**os.environ, "CI": "true"}
    with started([sys.executable, "-m", "gate", "run", "--config", str(config), "--out", str(out)],
                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as gate:
        deadline = time.monotonic() + 120
        while not marker.exists() or not marker.read_text():  # wait until the slow agent runs (ok-* sort before it)
            assert gate.poll() is None, gate.communicate()
            assert time.monotonic() < deadline, "the slow agent was never called"
            time.sleep(0.02)
        gate.send_signal(signum)
        stdout, stderr = gate.communicate(timeout=120)
    assert gate.returncode == 130, stderr
    # the ok-* jobs finished; slow-1 A was stopped mid-call, slow-1 B never started
    assert stdout == f"interrupted: 4 trajectories (ok 4 · err 0 · cached 0) from 5 agent calls → {out}\n"
    assert [(r["case_id"], r["group"]) for r in _records(out)] == [
        ("ok-1", "A"), ("ok-1", "B"), ("ok-2", "A"), ("ok-2", "B")]
    assert wait_until_ended(int(marker.read_text())), "the agent outlived gate"
