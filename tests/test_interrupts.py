"""SIGTERM/SIGINT while answers are being judged (not only during agent calls): the reports of what
was judged are written, marked interrupted, and the gate exits 130 within seconds; a signal ignored
at start stays ignored."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_budget import CASE_FILE, HOSTILE_AGENT

from gate.interrupts import stop_requests

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

RECORDS = 12


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE_FILE, encoding="utf-8")
    (tmp_path / "agent.py").write_text(HOSTILE_AGENT, encoding="utf-8")
    return tmp_path


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (Linux), None where /proc cannot tell."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def _stop_after(proc: subprocess.Popen[str], cpu_s: float, signum: int) -> tuple[int, str, float]:
    """Signal once the gate has spent ``cpu_s`` of CPU — well into judging however loaded the machine,
    where a fixed wait has to allow for the slowest one (a fixed wait of 2 × ``cpu_s`` without /proc)."""
    deadline = time.monotonic() + 30
    while (used := _cpu_seconds(proc.pid)) is not None and used < cpu_s and time.monotonic() < deadline:
        time.sleep(0.05)
    if used is None:
        time.sleep(2 * cpu_s)
    assert proc.poll() is None, "the gate ended before the signal: judging was meant to take longer"
    proc.send_signal(signum)
    sent = time.monotonic()
    _, stderr = proc.communicate(timeout=30)
    return proc.returncode, stderr, time.monotonic() - sent


def _gate(project: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.Popen([sys.executable, "-m", "gate", *args], cwd=project, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_gate_eval_stopped_while_judging_writes_what_it_judged(project: Path, signum: int) -> None:
    # distinct answers: a repeat of one already judged would take no time to judge
    records = [{"case_id": "B3-QC-01", "group": "A", "run": run, "final_answer": "[" * 300_000 + f" {run}"}
               for run in range(RECORDS)]
    (project / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    proc = _gate(project, "eval", "--trajectories", "runs.jsonl", "--json", "out/results.json", "--budget", "0.3")
    code, stderr, took = _stop_after(proc, 1.2, signum)  # start-up, then a record or more of the 3.6 s of judging
    assert code == 130, stderr
    assert took < 3  # one record's budget, then the reports
    assert "Traceback" not in stderr
    judged = int(stderr.split("interrupted after judging ")[1].split(" records of ")[0])
    assert "runs.jsonl (the rest was not read)" in stderr
    document = json.loads((project / "out" / "results.json").read_text(encoding="utf-8"))
    assert document["interrupted"] is True and document["passed"] is False
    assert 0 < len(document["results"]) == judged < RECORDS


def test_gate_check_stopped_while_judging_writes_interrupted_reports(project: Path) -> None:
    config = {"agent": {"adapter": "command", "command": [sys.executable, "agent.py"], "cache": False,
                        "retries": 0, "concurrency": 1},
              "groups": ["A"], "repeats": RECORDS, "baseline": "none.json", "out_dir": "out",
              "judging": {"budget_s": 0.3}}
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    proc = _gate(project, "check")
    code, stderr, took = _stop_after(proc, 1.2, signal.SIGTERM)
    assert code == 130, stderr
    assert took < 4
    assert "Traceback" not in stderr
    document = json.loads((project / "out" / "results.json").read_text(encoding="utf-8"))
    assert document["interrupted"] is True and document["passed"] is False
    assert 0 < len(document["results"]) < RECORDS
    assert any(f["rule"] == "interrupted" for f in document["findings"])
    for name in ("junit.xml", "comment.md", "trajectories.jsonl"):
        assert (project / "out" / name).is_file()


def test_a_first_signal_is_remembered_a_second_stops_at_once_and_the_handler_is_restored() -> None:
    before = signal.getsignal(signal.SIGINT)
    with stop_requests() as stops:
        signal.raise_signal(signal.SIGTERM)
        assert stops.requested
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.usefixtures("sigint_ignored")
def test_a_signal_ignored_at_start_stays_ignored() -> None:
    # started with nohup or in the background: the shell's choice to ignore Ctrl-C holds
    with stop_requests() as stops:
        signal.raise_signal(signal.SIGINT)
        assert not stops.requested and signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_outside_the_main_thread_no_handler_is_installed() -> None:
    seen: list[object] = []

    def body() -> None:
        with stop_requests() as stops:
            seen.extend([stops.requested, signal.getsignal(signal.SIGINT)])

    before = signal.getsignal(signal.SIGINT)
    worker = threading.Thread(target=body)
    worker.start()
    worker.join()
    assert seen == [False, before]
