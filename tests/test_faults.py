"""One representative of every class of hostile input and fault, end to end through `gate check`
with loopback agents only: no hang, no traceback, no partial report, no leaked secret.

The classes (and their wider tests): judging bounds (tests/test_budget.py, tests/text/
test_linear_time.py), hostile agent output (tests/runner/test_hostile_output.py), processes
(tests/runner/test_command_adapter.py), time bounds (tests/runner/test_retry_headers.py,
tests/github/test_hostile_api.py), signals (tests/test_interrupts.py), disk (tests/test_confirm.py),
secrets and escapes, tampered cache and baseline, config files (tests/inputs/), comments
(tests/github/test_comment_body.py), input edges (tests/inputs/test_bom.py).
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from casefiles import case_yaml
from click.testing import CliRunner

from gate.cli.app import main

CASE = case_yaml(["{id: one, check: items:count, params: {exact: 1}}",
                  "{id: no_sony, check: terms:forbidden, params: {groups: [sony]}}"],
                 ["1. a"], [("", ["one"])], prompt="推荐 1 款，别提索尼")

# An agent that runs the code named by its first argument with `request` bound, then prints ANSWER.
AGENT = textwrap.dedent('''\
    import json, sys
    request = json.load(sys.stdin)
    record = {"case_id": request["case_id"], "group": request["group"], "run": request["run"],
              "final_answer": "1. a", "tool_calls": []}
    exec(open(sys.argv[1], encoding="utf-8").read())
''')


class Project:
    def __init__(self, root: Path) -> None:
        self.root = root

    def agent(self, body: str, **settings: Any) -> None:
        (self.root / "behaviour.py").write_text(textwrap.dedent(body), encoding="utf-8")
        self.config(agent={"adapter": "command", "command": [sys.executable, "agent.py", "behaviour.py"],
                           "cache": False, "retries": 0, **settings})

    def config(self, **settings: Any) -> None:
        # point decisions: one run decides, so a failing run fails the gate here
        config = {"groups": ["A"], "baseline": "none.json", "out_dir": "out", "decision": {"mode": "point"},
                  **settings}
        (self.root / "gate.yaml").write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")

    def check(self, *args: str) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["check", *args], catch_exceptions=False)
        assert "Traceback" not in result.output
        return result.exit_code, result.output

    def reports(self) -> dict[str, str]:
        names = ("results.json", "junit.xml", "comment.md", "trajectories.jsonl")
        return {name: (self.root / "out" / name).read_text(encoding="utf-8") for name in names}

    def run(self) -> dict[str, Any]:
        (run,) = json.loads(self.reports()["results.json"])["results"]
        return dict(run)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")
    (tmp_path / "agent.py").write_text(AGENT, encoding="utf-8")
    return Project(tmp_path)


def test_1_a_hostile_answer_is_judged_within_the_budget(project: Project) -> None:
    project.agent('record["final_answer"] = "[" * 2_000_000\nprint(json.dumps(record))')
    project.config(**json.loads((project.root / "gate.yaml").read_text()), judging={"budget_s": 0.5})
    started = time.process_time()  # the gate's CPU time, which load does not stretch: ~14 s judged whole
    code, _ = project.check()
    assert time.process_time() - started < 6
    assert code == 1
    assert "judging budget (0.5 s) exceeded" in project.run()["constraints"][0]["detail"]


def test_2_valid_looking_but_hostile_output_is_an_agent_error(project: Project) -> None:
    project.agent('print(json.dumps(record)[:-1] + \', "metadata": {"n": \' + "9" * 5000 + "}}")')
    code, _ = project.check()
    assert code == 4  # the one run errored: the agent is unavailable, not a crash (exit 3)
    assert "an integer of more than 100 digits" in project.run()["error"]


@pytest.mark.usefixtures("short_leftover_grace")
def test_3_a_leftover_process_holding_stdout_does_not_cost_the_answer(project: Project) -> None:
    project.agent('''\
        import subprocess
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        print(json.dumps(record), flush=True)
    ''', timeout_s=120)
    started = time.monotonic()
    code, _ = project.check()
    assert time.monotonic() - started < 60  # not the 120 s timeout nor the child's 120 s; seconds on any machine
    assert code == 0 and project.run()["status"] == "pass"


def test_4_a_retry_after_the_run_cannot_afford_gives_up_at_once(project: Project) -> None:
    from runner.loopback import Reply, serve

    with serve(lambda seen, index: Reply(429, {"error": "slow down"}, {"Retry-After": "3600"})) as server:
        project.config(agent={"adapter": "http", "url": server.url, "cache": False, "retries": 3})
        started = time.monotonic()
        code, _ = project.check()
    assert time.monotonic() - started < 60  # not the 3600 s asked, nor the 120 s a run would wait
    assert code == 4
    assert "asks to retry after 3600 s, more than the 120 s a run waits; gave up" in project.run()["error"]


def test_6_an_unwritable_report_directory_is_refused_before_any_agent_call(project: Project) -> None:
    project.agent('open("called", "w").close()\nprint(json.dumps(record))')
    (project.root / "out").write_text("a file, not a directory", encoding="utf-8")
    code, output = project.check()
    assert code == 2 and "out" in output
    assert not (project.root / "called").exists()


def test_6_a_full_disk_is_one_message_and_no_partial_set(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    import gate.files.atomic

    project.agent("print(json.dumps(record))")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(gate.files.atomic.os, "fsync", full)
    code, output = project.check()
    assert code == 2 and "No space left on device (ENOSPC)" in output
    assert not (project.root / "out").exists() or not any((project.root / "out").iterdir())



def test_6_a_step_summary_that_cannot_be_written_is_a_warning_and_the_verdict_stands(
        project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    project.agent("print(json.dumps(record))")
    summary = project.root / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert project.check()[0] == 0
    written = summary.read_text(encoding="utf-8")
    assert "agent-gate passed" in written and written.strip() in project.reports()["comment.md"]
    assert "<!--" not in written  # the sticky comment's marker stays out of the job page
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(project.root / "gone" / "summary.md"))
    code, output = project.check()
    assert code == 0 and json.loads(project.reports()["results.json"])["passed"] is True
    assert (f"gate: warning: the step summary was not written to GITHUB_STEP_SUMMARY="
            f"{project.root / 'gone' / 'summary.md'}: No such file or directory") in output

def test_7_a_secret_echoed_by_the_agent_is_redacted_everywhere(project: Project) -> None:
    from runner.loopback import Reply, serve

    secret = "sk-live-0123456789abcdefghij"

    def echo(seen: Any, index: int) -> Reply:
        return Reply(500, {"error": f"bad key {seen.headers.get('Authorization')} \x1b]8;;http://x\x07link"})

    with serve(echo) as server:
        project.config(agent={"adapter": "http", "url": server.url, "cache": False, "retries": 0,
                              "headers": {"Authorization": f"Bearer {secret}"}})
        code, output = project.check()
    assert code == 4
    for text in [output, *project.reports().values()]:
        assert secret[:12] not in text
        assert "\x1b" not in text


def test_8_a_cache_entry_naming_another_case_is_a_miss(project: Project) -> None:
    project.agent('record["final_answer"] = "1. fresh"\nprint(json.dumps(record))')
    settings = json.loads((project.root / "gate.yaml").read_text())
    settings["agent"]["cache"] = ".cache"
    project.config(**settings)
    assert project.check()[0] == 0
    entries = [p for p in (project.root / ".cache").rglob("*.json") if "verdicts" not in p.parts]
    (entry,) = entries  # the one answer (its verdict is kept under verdicts/)
    tampered = json.loads(entry.read_text(encoding="utf-8")) | {"case_id": "B3-QC-99", "final_answer": "1. Sony"}
    entry.write_text(json.dumps(tampered), encoding="utf-8")
    assert project.check()[0] == 0
    assert "Sony" not in project.reports()["trajectories.jsonl"]


def test_8_a_corrupt_baseline_is_exit_2_not_a_regression(project: Project) -> None:
    project.agent("print(json.dumps(record))")
    (project.root / "none.json").write_text('{"schema": "gate.baseline/v2", "cases": NaN}', encoding="utf-8")
    code, output = project.check()
    assert code == 2 and "none.json" in output


def test_9_a_duplicate_key_in_gate_yaml_names_both_lines(project: Project) -> None:
    (project.root / "gate.yaml").write_text("groups: [A]\nout_dir: out\nout_dir: elsewhere\n", encoding="utf-8")
    code, output = project.check()
    assert code == 2
    assert "gate.yaml:3: duplicate key 'out_dir' (first at line 2)" in output



def test_9_a_ca_bundle_the_environment_names_but_lacks_is_exit_2_naming_it_and_no_report(
        project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSL_CERT_FILE", str(project.root / "missing.pem"))
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    project.config(agent={"adapter": "http", "url": "https://agent.invalid/run", "cache": False, "retries": 0})
    code, output = project.check()
    assert code == 2
    assert f"the CA certificates could not be loaded (SSL_CERT_FILE={project.root / 'missing.pem'})" in output
    assert not (project.root / "out" / "results.json").exists()

def test_10_mentions_and_html_from_an_answer_never_reach_the_comment(project: Project) -> None:
    project.agent('record["final_answer"] = "1. Sony @acme/owners <img src=x onerror=alert(1)>"\n'
                  'print(json.dumps(record))')
    assert project.check()[0] == 1  # no_sony fails: the answer is quoted in the comment
    comment = project.reports()["comment.md"]
    assert "@acme/owners" not in comment and "<img" not in comment


def test_11_a_byte_order_mark_in_a_case_file_is_accepted(project: Project) -> None:
    path = project.root / "cases" / "B3-QC-01.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    project.agent("print(json.dumps(record))")
    assert project.check()[0] == 0



@pytest.mark.slow  # a real `gate` process writing to a narrow-encoding stdout
def test_11_a_terminal_in_a_narrow_encoding_gets_escapes_not_a_traceback(project: Project) -> None:
    project.agent('record["final_answer"] = "1. 索尼 α7 IV"\nprint(json.dumps(record))')
    env = {**os.environ, "PYTHONIOENCODING": "latin-1", "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    done = subprocess.run([sys.executable, "-m", "gate", "check"], cwd=project.root, env=env,
                          capture_output=True, timeout=120)
    output = (done.stdout + done.stderr).decode("latin-1")
    assert done.returncode == 1 and "Traceback" not in output, output
    assert "gate FAILED" in output and "\\u0394 B\\u2212A" in output  # the table's "Δ B−A" column, escaped


def test_every_class_has_a_representative() -> None:
    classes = {name.split("_")[1] for name in globals() if name.startswith("test_") and name.split("_")[1].isdigit()}
    # 5 (signals) runs in a subprocess: tests/test_interrupts.py; 12 is this module and the property tests.
    assert classes | {"5", "12"} == {str(n) for n in range(1, 13)}
    assert os.path.exists(Path(__file__).with_name("test_interrupts.py"))
