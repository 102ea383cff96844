"""Concurrency beyond what the process may open: capped with a warning, never an internal error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from casefiles import case_yaml

from gate.runner import fdlimit

CASE = case_yaml(["{id: count, check: items:count, params: {exact: 1}}"], ["1. a"], [("", ["count"])],
                 prompt="推荐 1 款").replace("tags: [golden]", "tags: [golden]\nrepeats: 40")
SLOW_AGENT = "import sys, time; sys.stdin.read(); time.sleep(0.1); print('{\"final_answer\": \"1. a\"}')"
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # a real `gate check` under `ulimit -n 64`, 40 agent processes
def test_a_command_agent_over_the_descriptor_limit_runs_fewer_calls_at_a_time(tmp_path: Path) -> None:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")
    config = {"agent": {"adapter": "command", "command": [sys.executable, "-c", SLOW_AGENT], "concurrency": 256,
                        "cache": False, "retries": 0}, "baseline": "none.json", "out_dir": "out"}
    (tmp_path / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    # 40 agent processes at once hold 120 pipes: more than `ulimit -n 64` lets the gate open
    done = subprocess.run(["sh", "-c", f"ulimit -n 64 && exec {sys.executable} -m gate check"], cwd=tmp_path,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "gate: warning: agent.concurrency 256 needs about" in done.stderr
    assert "more than this process may open (64, ulimit -n): running" in done.stderr
    results = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    assert len(results["results"]) == 40 and all(r["error"] is None for r in results["results"])


def test_the_soft_limit_is_raised_first_and_nothing_is_capped_when_that_suffices(
        monkeypatch: pytest.MonkeyPatch) -> None:
    limits = [(64, 100_000)]
    monkeypatch.setattr(fdlimit.resource, "getrlimit", lambda kind: limits[-1])
    monkeypatch.setattr(fdlimit.resource, "setrlimit", lambda kind, value: limits.append(value))
    assert fdlimit.fitting_concurrency("command", 256) == (256, None)
    assert limits[-1][0] >= 256 * fdlimit.DESCRIPTORS_PER_CALL["command"] and limits[-1][1] == 100_000
    assert fdlimit.fitting_concurrency("python", 256) == (256, None)  # a thread holds no descriptor
