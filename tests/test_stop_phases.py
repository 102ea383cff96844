"""SIGINT and SIGTERM at every phase of `gate check` and `gate baseline update`, sent at a known point:
the agent or the gate (tests/stop_probe.py) marks the point with a file, and the test signals only
once it exists — no delay guessed to fall into a phase. Whatever the phase, the gate exits 130 with
what finished kept, results.json says `interrupted` and never `passed`; a baseline is never written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gate.cli.app import main
from tests.casefiles import case_yaml

# real `gate` processes stopped by real signals, each at a known point: the slow tier
pytestmark = [pytest.mark.skipif(os.name != "posix", reason="POSIX signals"), pytest.mark.slow]

PROBE = Path(__file__).with_name("stop_probe.py")
IDS = ["B3-QC-01", "B3-QC-02", "B3-QC-03"]
MARK_WAIT_S = 120.0
"""How long a test waits for its point to be reached: far beyond any machine's start-up, never
spent unless the gate is broken."""

AGENT = textwrap.dedent('''\
    """Three items; the run named in HOLD ("case:group:run") marks that it was called and hangs,
    the runs named in BAD answer one item. Every call leaves a file in calls/."""
    import json, os, sys, time

    request = json.load(sys.stdin)
    key = f"{request['case_id']}:{request['group']}:{request['run']}"
    marks = os.environ["GATE_PROBE_DIR"]
    open(os.path.join(marks, "calls", key.replace(":", "-")), "w").close()
    if key == os.environ.get("HOLD"):
        open(os.path.join(marks, "held"), "w").close()
        time.sleep(120)
    answer = "1. a" if key in os.environ.get("BAD", "").split(",") else "1. a\\n2. b\\n3. c"
    print(json.dumps({"case_id": request["case_id"], "group": request["group"], "run": request["run"],
                      "final_answer": answer, "tool_calls": []}))
''')


@dataclass
class Project:
    root: Path
    marks: Path

    def config(self, **extra: Any) -> None:
        config = {"cases": {"path": "cases", "tags": ["golden"]},
                  "agent": {"adapter": "command", "command": ["python", "agent.py"], "cache": False, "retries": 0,
                            "concurrency": 1},
                  "baseline": "baselines/main.json", "out_dir": "out", **extra}
        (self.root / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")

    @property
    def calls(self) -> list[str]:
        return sorted(p.name for p in (self.marks / "calls").iterdir())

    def results(self) -> dict[str, Any]:
        document: dict[str, Any] = json.loads((self.root / "out" / "results.json").read_text(encoding="utf-8"))
        return document

    def runs(self) -> list[tuple[str, str, int]]:
        return [(r["case_id"], r["group"], r["run"]) for r in self.results()["results"]]


@pytest.fixture
def project(tmp_path: Path) -> Project:
    cases = tmp_path / "cases"
    cases.mkdir()
    groups = "A: {skill_enabled: false}\nB: {skill_enabled: true}"
    for case_id in IDS:
        (cases / f"{case_id}.yaml").write_text(
            case_yaml(["{id: three, check: items:count, params: {exact: 3}}"], ["1. a\n2. b\n3. c"],
                      [("1. a", ["three"])], case_id=case_id, groups=groups), encoding="utf-8")
    (tmp_path / "agent.py").write_text(AGENT, encoding="utf-8")
    marks = tmp_path / "marks"
    (marks / "calls").mkdir(parents=True)
    made = Project(tmp_path, marks)
    made.config()
    return made


@dataclass
class Ended:
    code: int
    stdout: str
    stderr: str


@contextmanager
def gate(project: Project, *args: str, at: str = "", ignore_sigint: bool = False,
         **env: str) -> Iterator[subprocess.Popen[bytes]]:
    """The gate started in ``project`` (paused at ``at``, if given; with SIGINT ignored, as a shell
    starts a script's background job); its output goes to files, so no pipe can fill up or be left
    open, and it is ended on every path out of the test."""
    environ = {**os.environ, "GATE_PROBE_DIR": str(project.marks), "GATE_PROBE_AT": at, **env}
    for name in ("GITHUB_ACTIONS", "GITHUB_EVENT_PATH", "GITHUB_STEP_SUMMARY", "HOLD", "BAD"):
        if name not in env:
            environ.pop(name, None)
    with open(project.root / "stdout.txt", "wb") as out, open(project.root / "stderr.txt", "wb") as err:
        argv = [sys.executable, str(PROBE), *args]
        if ignore_sigint:
            argv = ["sh", "-c", 'trap "" INT; exec "$0" "$@"', *argv]
        proc = subprocess.Popen(argv, cwd=project.root, env=environ,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def stop_at(project: Project, proc: subprocess.Popen[bytes], mark: str, *signums: int) -> Ended:
    """Wait for ``mark``, send the signals, let a paused gate go on, and wait for it to end."""
    deadline = time.monotonic() + MARK_WAIT_S
    while not (project.marks / mark).exists():
        assert proc.poll() is None, f"the gate ended before '{mark}': {(project.root / 'stderr.txt').read_text()}"
        assert time.monotonic() < deadline, f"'{mark}' never came"
        time.sleep(0.01)
    for signum in signums:
        proc.send_signal(signum)
    (project.marks / "go").touch()
    proc.wait(timeout=MARK_WAIT_S)
    return Ended(proc.returncode, (project.root / "stdout.txt").read_text(encoding="utf-8"),
                 (project.root / "stderr.txt").read_text(encoding="utf-8"))


def assert_interrupted(ended: Ended, project: Project) -> dict[str, Any]:
    assert ended.code == 130, ended.stderr
    assert "Traceback" not in ended.stderr
    document = project.results()
    assert document["interrupted"] is True and document["passed"] is False
    assert any(f["rule"] == "interrupted" for f in document["findings"])
    assert "gate INTERRUPTED" in ended.stdout
    return document


SIGNALS = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])


@SIGNALS
def test_a_stop_while_the_process_starts_is_the_check_s_first_and_ends_with_interrupted_reports(
        project: Project, signum: int) -> None:
    with gate(project, "check", at="starting") as proc:
        ended = stop_at(project, proc, "starting", signum)
    assert_interrupted(ended, project)
    assert project.runs() == [] and project.calls == []


@SIGNALS
def test_a_stop_while_the_process_starts_ends_any_other_command_before_it_runs(
        project: Project, signum: int) -> None:
    with gate(project, "baseline", "update", "--runs", "1", at="starting") as proc:
        ended = stop_at(project, proc, "starting", signum)
    assert (ended.code, ended.stderr, ended.stdout) == (130, "gate: interrupted\n", "")
    assert project.calls == [] and not (project.root / "baselines" / "main.json").exists()
    (project.marks / "starting").unlink()
    (project.marks / "go").unlink()
    with gate(project, "validate", at="starting") as proc:
        ended = stop_at(project, proc, "starting", signum)
    assert (ended.code, ended.stderr, ended.stdout) == (130, "gate: interrupted\n", "")


@SIGNALS
def test_a_stop_while_the_cases_load_calls_no_agent_and_writes_interrupted_reports(
        project: Project, signum: int) -> None:
    with gate(project, "check", at="loading") as proc:
        ended = stop_at(project, proc, "loading", signum)
    assert_interrupted(ended, project)
    assert project.runs() == [] and project.calls == []


@SIGNALS
def test_a_stop_during_the_agent_calls_keeps_what_finished(project: Project, signum: int) -> None:
    with gate(project, "check", HOLD="B3-QC-02:A:0") as proc:
        ended = stop_at(project, proc, "held", signum)
    assert_interrupted(ended, project)
    assert project.runs() == [("B3-QC-01", "A", 0), ("B3-QC-01", "B", 0)]  # the held call is not a result
    for name in ("junit.xml", "comment.md", "trajectories.jsonl"):
        assert (project.root / "out" / name).is_file()


def test_a_stop_is_obeyed_by_a_gate_started_with_sigint_ignored(project: Project) -> None:
    # a script's background job (`gate check &`) starts with SIGINT ignored: before, it ran on and passed
    with gate(project, "check", ignore_sigint=True, HOLD="B3-QC-02:A:0") as proc:
        ended = stop_at(project, proc, "held", signal.SIGINT)
    assert_interrupted(ended, project)


def test_a_stop_during_the_confirm_reruns_keeps_the_first_runs(project: Project,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    project.config(decision={"confirm_runs": 3})
    monkeypatch.chdir(project.root)
    monkeypatch.setenv("GATE_PROBE_DIR", str(project.marks))
    recorded = CliRunner().invoke(main, ["baseline", "update", "--runs", "5"])
    assert recorded.exit_code == 0, recorded.output
    with gate(project, "check", BAD="B3-QC-01:A:0", HOLD="B3-QC-01:A:1") as proc:
        ended = stop_at(project, proc, "held", signal.SIGTERM)  # B3-QC-01 A fails, and its rerun hangs
    assert_interrupted(ended, project)
    assert project.runs() == [(case_id, group, 0) for case_id in IDS for group in "AB"]


@SIGNALS
def test_a_stop_while_judging_keeps_what_was_judged(project: Project, signum: int) -> None:
    with gate(project, "check", at="judging") as proc:
        ended = stop_at(project, proc, "judging", signum)
    document = assert_interrupted(ended, project)
    assert project.runs()[0] == ("B3-QC-01", "A", 0)
    assert 1 <= len(document["results"]) < 2 * len(IDS)


@pytest.mark.parametrize(("point", "signum"), [("writing", signal.SIGTERM), ("written", signal.SIGINT),
                                             ("writing", signal.SIGINT), ("written", signal.SIGTERM)])
def test_a_stop_while_or_just_after_the_reports_are_written_marks_them_interrupted(
        project: Project, point: str, signum: int) -> None:
    with gate(project, "check", at=point) as proc:
        ended = stop_at(project, proc, point, signum)
    assert_interrupted(ended, project)
    assert len(project.runs()) == 2 * len(IDS)  # every run had finished: all are kept
    assert "interrupted" in (project.root / "out" / "comment.md").read_text(encoding="utf-8")


def test_a_stop_after_the_verdict_is_too_late_to_change_it_and_a_second_stops_at_once(project: Project) -> None:
    with gate(project, "check", at="verdict") as proc:
        ended = stop_at(project, proc, "verdict", signal.SIGTERM)
    assert ended.code == 0 and "gate PASSED" in ended.stdout, ended.stderr
    assert project.results()["passed"] is True and project.results()["interrupted"] is False

    (project.marks / "verdict").unlink()
    (project.marks / "go").unlink()
    with gate(project, "check", at="verdict") as proc:
        ended = stop_at(project, proc, "verdict", signal.SIGTERM, signal.SIGINT)  # two of a kind may merge into one
    assert ended.code == 130 and ended.stderr.endswith("gate: interrupted\n"), ended.stderr


@SIGNALS
def test_an_interrupted_baseline_update_writes_no_baseline_and_exits_130(project: Project, signum: int) -> None:
    with gate(project, "baseline", "update", "--runs", "1", HOLD="B3-QC-02:B:0") as proc:
        ended = stop_at(project, proc, "held", signum)
    assert ended.code == 130, ended.stderr
    *progress, last = ended.stderr.splitlines()  # a slow machine may have printed a progress line first
    assert last == "gate: interrupted: no baseline written (a partial one would lie)", ended.stderr
    assert all(line.startswith("[") for line in progress), ended.stderr
    assert not (project.root / "baselines" / "main.json").exists()


def test_a_stop_before_the_baseline_is_replaced_keeps_the_old_one(project: Project,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.root)
    monkeypatch.setenv("GATE_PROBE_DIR", str(project.marks))
    assert CliRunner().invoke(main, ["baseline", "update", "--runs", "1"]).exit_code == 0
    old = (project.root / "baselines" / "main.json").read_bytes()
    with gate(project, "baseline", "update", "--runs", "2", at="baseline-diff") as proc:
        ended = stop_at(project, proc, "baseline-diff", signal.SIGINT)
    assert ended.code == 130 and "no baseline written" in ended.stderr, ended.stderr
    assert (project.root / "baselines" / "main.json").read_bytes() == old
