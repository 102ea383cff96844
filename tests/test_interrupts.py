"""Stop requests: SIGTERM/SIGINT while `gate eval` judges (sent at a known point, tests/stop_probe.py),
and the pieces every phase relies on — the first signal remembered, a second at once, handlers
restored or kept, a stop made before a run cancelling it at once. Every phase of `gate check` and
`gate baseline update`: tests/test_stop_phases.py."""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import pytest

from gate.process import interrupts
from gate.process.interrupts import stop_requests, take_stop_signals
from tests.casefiles import case_yaml
from tests.test_stop_phases import Project, gate, stop_at

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

RECORDS = 12


@pytest.mark.slow  # a real `gate eval` stopped by a real signal
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_gate_eval_stopped_while_judging_writes_what_it_judged(tmp_path: Path, signum: int) -> None:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(
        case_yaml(["{id: three, check: items:count, params: {exact: 3}}"], ["1. a\n2. b\n3. c"],
                  [("1. a", ["three"])], extra="repeats: 3"), encoding="utf-8")
    records = [{"case_id": "B3-QC-01", "group": "A", "run": run, "final_answer": f"1. a\n2. b\n3. {run}"}
               for run in range(RECORDS)]
    (tmp_path / "runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    (tmp_path / "marks").mkdir()
    project = Project(tmp_path, tmp_path / "marks")
    with gate(project, "eval", "--trajectories", "runs.jsonl", "--json", "out/results.json", at="judging") as proc:
        ended = stop_at(project, proc, "judging", signum)  # inside the first record's check
    assert ended.code == 130, ended.stderr
    assert "Traceback" not in ended.stderr
    assert ended.stderr.endswith("gate: interrupted after judging 1 records of runs.jsonl (the rest was not read)\n")
    document = project.results()
    assert document["interrupted"] is True and document["passed"] is False
    assert [r["run"] for r in document["results"]] == [0]


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


@pytest.mark.usefixtures("signals_restored")
def test_settled_stops_are_too_late_and_the_process_keeps_their_handler() -> None:
    take_stop_signals()
    with stop_requests() as unsettled:  # not settled (an input error): the process's handler is back
        pass
    assert signal.getsignal(signal.SIGTERM) is interrupts._stop_at_once and not unsettled.settled
    with stop_requests() as stops:
        assert not stops.settle()
    # a stop after the outcome is settled is only remembered; a second still stops at once
    assert signal.getsignal(signal.SIGTERM) == stops._handle
    signal.raise_signal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGTERM)


@pytest.mark.usefixtures("sigint_ignored", "signals_restored")
def test_a_gate_process_takes_the_stop_signals_even_when_they_were_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    ended: list[bool] = []
    monkeypatch.setattr(interrupts, "end_at_once", lambda: ended.append(True))
    take_stop_signals()
    signal.raise_signal(signal.SIGINT)  # while the process starts: remembered
    assert ended == []
    interrupts.command_starts(watches=False)  # a command that does not watch is not run
    assert ended == [True]


@pytest.mark.usefixtures("signals_restored")
def test_a_stop_while_the_process_starts_is_the_first_of_a_watching_command(monkeypatch: pytest.MonkeyPatch) -> None:
    ended: list[bool] = []
    monkeypatch.setattr(interrupts, "end_at_once", lambda: ended.append(True))
    take_stop_signals()
    signal.raise_signal(signal.SIGTERM)
    interrupts.command_starts(watches=True)
    with stop_requests() as stops:
        assert stops.requested and ended == []
    signal.raise_signal(signal.SIGTERM)  # the watched body is over: a stop now ends the process at once
    assert ended == [True]



@pytest.mark.parametrize(("argv0", "expected"), [("/venv/bin/gate", True), ("-c", False), ("/venv/bin/pytest", False)])
def test_only_the_gate_program_takes_the_signals_as_the_package_is_imported(
        monkeypatch: pytest.MonkeyPatch, argv0: str, expected: bool) -> None:
    monkeypatch.setattr("sys.argv", [argv0])
    assert interrupts.running_as_gate() is expected  # a program importing the package keeps its handlers
