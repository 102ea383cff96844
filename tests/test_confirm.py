"""Confirm reruns end to end: a flake clears, a real regression is confirmed, only suspects cost calls."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from gate.cli.app import main
from tests.casefiles import case_yaml

AGENT = textwrap.dedent('''\
    import os

    CALLS = []

    def run(request):
        """Three items, except the runs named in BAD ("case:group:run" or "case:group:*")."""
        CALLS.append((request["case_id"], request["group"], request["run"]))
        bad = set(os.environ.get("BAD", "").split(","))
        key = f"{request['case_id']}:{request['group']}"
        answer = "1. a\\n2. b\\n3. c"
        if f"{key}:{request['run']}" in bad or f"{key}:*" in bad:
            answer = "1. a"
        return {"case_id": request["case_id"], "group": request["group"], "run": request["run"],
                "final_answer": answer, "tool_calls": []}
''')

GROUPS = "A: {skill_enabled: false}\nB: {skill_enabled: true, active_skills: [s]}"


def _case(case_id: str) -> str:
    return case_yaml(["{id: count, check: items:count, params: {exact: 3}}"], ["1. a\n2. b\n3. c"],
                     [("1. x", ["count"])], case_id=case_id, title=case_id, prompt="推荐 3 款耳机", groups=GROUPS)

IDS = ["B3-QC-01", "B3-QC-02", "B3-QC-03"]


def write_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, decision: dict[str, object]) -> Path:
    """The three QC cases and the flaky agent in ``tmp_path`` (the working directory), with ``decision``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "flaky_agent.py").write_text(AGENT, encoding="utf-8")
    cases = tmp_path / "cases" / "b3"
    cases.mkdir(parents=True)
    for cid in IDS:
        (cases / f"{cid}.yaml").write_text(_case(cid), encoding="utf-8")
    config = {"cases": {"path": "cases", "tags": ["golden"]},
              "agent": {"adapter": "python", "function": "flaky_agent:run", "cache": False}, "decision": decision}
    (tmp_path / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    return tmp_path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return write_project(tmp_path, monkeypatch, {"confirm_runs": 4})


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout + result.stderr


def calls() -> list[tuple[str, str, int]]:
    import flaky_agent  # type: ignore[import-not-found]

    made = list(flaky_agent.CALLS)
    flaky_agent.CALLS.clear()
    return made


def results(project: Path) -> dict:
    return json.loads((project / "gate-results" / "results.json").read_text(encoding="utf-8"))


def test_a_flake_is_cleared_by_its_reruns(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("baseline", "update", "--runs")[0] == 0  # --runs alone: decision.baseline_runs, 5
    calls()
    monkeypatch.setenv("BAD", "B3-QC-01:A:0")  # only the first run is unlucky
    code, out = invoke("check")
    assert code == 0, out
    assert "[info] flaky, not regressed: B3-QC-01 (A) 2 of 3 runs" in out
    assert "8 runs judged (2 confirm reruns)" in out
    # run 0 failed; reruns 1 and 2 passed and the test could no longer reach alpha: stop there
    assert sorted(c for c in calls() if c[0] == "B3-QC-01" and c[1] == "A") == [
        ("B3-QC-01", "A", 0), ("B3-QC-01", "A", 1), ("B3-QC-01", "A", 2)]
    document = results(project)
    assert document["decision"]["reruns"] == 2
    assert document["decision"]["regressions"] == [{
        "case_id": "B3-QC-01", "group": "A", "outcome": "cleared", "now": {"passed": 2, "judged": 3, "uncertain": 0},
        "baseline": {"passed": 5, "judged": 5, "uncertain": 0}, "p_value": 0.375, "level": 0.05, "runs_needed": None,
        "test": "one-sided Fisher exact test against the baseline, Tarone-corrected over the compared pairs",
        "detectable_drop": 0.68}]  # three runs against five could see a drop of 68 points, no less
    assert document["metrics"]["cases"]["B3-QC-01"]["groups"]["A"] == "pass"  # 2 of 3: a majority
    assert "flaky" in (project / "gate-results" / "comment.md").read_text(encoding="utf-8").lower()


def test_a_stop_while_a_round_of_reruns_is_judged_starts_no_other_round(project: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    from gate.pipeline import confirm

    assert invoke("baseline", "update", "--runs")[0] == 0
    calls()
    monkeypatch.setenv("BAD", "B3-QC-01:A:0")  # as above: two rounds of reruns clear it, unless stopped
    rounds: list[int] = []

    def judged_then_stopped(*args, **kwargs):  # type: ignore[no-untyped-def]
        rounds.append(1)
        if len(rounds) == 2:  # the first round of reruns, judged between the rounds' agent calls
            signal.raise_signal(signal.SIGINT)
        return judged(*args, **kwargs)

    judged = confirm.judged
    monkeypatch.setattr(confirm, "judged", judged_then_stopped)
    code, out = invoke("check")
    assert code == 130, out
    assert sorted(c for c in calls() if c[:2] == ("B3-QC-01", "A")) == [("B3-QC-01", "A", 0), ("B3-QC-01", "A", 1)]
    assert results(project)["interrupted"] is True and results(project)["passed"] is False


def test_a_real_regression_is_confirmed_by_reruns_that_fail_too(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("baseline", "update", "--runs", "5")[0] == 0
    calls()
    monkeypatch.setenv("BAD", "B3-QC-02:B:*")
    code, out = invoke("check")
    assert code == 1
    assert ("[error] B3-QC-02 (B): passes 0 of 2 runs now, 5 of 5 in the baseline (Fisher p = 0.0476 ≤ 0.05)"
            " — attributed to the skill") in out
    made = calls()
    assert len(made) == 6 + 1  # the planned runs, and one rerun of the one suspect
    comment = (project / "gate-results" / "comment.md").read_text(encoding="utf-8")
    assert "**B3-QC-02** [B] B3-QC-02 — **regressed** · 0 of 2 runs pass (baseline 5 of 5)" in comment


def test_no_reruns_in_point_mode_or_without_a_baseline(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAD", "B3-QC-01:A:*")
    invoke("check")
    assert len(calls()) == 6  # no baseline: nothing to confirm against
    invoke("baseline", "update", "--runs", "2")
    calls()
    config = json.loads((project / "gate.yaml").read_text(encoding="utf-8"))
    (project / "gate.yaml").write_text(json.dumps({**config, "decision": {"mode": "point"}}), encoding="utf-8")
    invoke("check")
    assert len(calls()) == 6  # the baseline already failed it: nothing newly failing, nothing to rerun
    assert results(project)["decision"] == {"alpha": 0.05, "confirm_runs": 4, "fail_on_inconclusive": False,
                                            "mode": "point", "reruns": 0, "regressions": [], "budget": 2.5,
                                            "power": None, "dimensions": []}


def test_baseline_update_runs_prints_the_calibration(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BAD", "B3-QC-03:A:1,B3-QC-02:B:*")
    code, out = invoke("baseline", "update", "--runs", "4")
    assert code == 0, out
    assert out.splitlines()[:3] == [
        "4 (case, group) pairs always pass, 1 always fail, 1 flaky over 4 runs per case",
        "to detect a drop of 30 pts with 80% power: 5 runs for a pair that always passes",
        "  flaky B3-QC-03 (A): 3 of 4 runs pass — 17 runs needed",
    ]
    stored = json.loads((project / "baselines" / "main.json").read_text(encoding="utf-8"))
    assert stored["schema"] == "gate.baseline/v2" and stored["runs_per_case"] == 4
    assert stored["cases"]["B3-QC-03"]["A"] == {"passed": 3, "runs": 4}
    assert stored["calibration"]["flaky"] == [{"case_id": "B3-QC-03", "group": "A", "passed": 3, "runs": 4,
                                               "runs_needed": 17}]


@pytest.mark.parametrize(("args", "message"), [
    (("--runs", "3", "--results", "x.json"), "gate: error: --runs records fresh runs; it cannot be combined with --results"),
])
def test_baseline_update_refuses_bad_runs(project: Path, args: tuple[str, ...], message: str) -> None:
    code, out = invoke("baseline", "update", *args)
    assert code == 2 and out.strip() == message


@pytest.mark.parametrize(("decision", "message"), [
    ({"alpha": 0.7}, "decision.alpha: Input should be less than 0.5"),
    ({"mode": "strict"}, "decision.mode: Input should be 'confidence' or 'point'"),
    ({"confirm_runs": -1}, "decision.confirm_runs: Input should be greater than or equal to 0"),
    ({"alpah": 0.1}, "decision.alpah: Extra inputs are not permitted"),
    ({"fail_on_inconclusive": "maybe"}, "decision.fail_on_inconclusive: Input should be a valid boolean"),
    ({"baseline_runs": 0}, "decision.baseline_runs: Input should be greater than or equal to 1"),
    ({"outage_share": 1.5}, "decision.outage_share: Input should be less than or equal to 1"),
    ({"outage_on_unreachable": "sometimes"}, "decision.outage_on_unreachable: Input should be a valid boolean"),
    ({"power": 1}, "decision.power: Input should be less than 1"),
    ({"effect": 0}, "decision.effect: Input should be greater than 0"),
])
def test_decision_settings_are_validated(project: Path, decision: dict, message: str) -> None:
    config = json.loads((project / "gate.yaml").read_text(encoding="utf-8"))
    (project / "gate.yaml").write_text(json.dumps({**config, "decision": decision}), encoding="utf-8")
    code, out = invoke("check")
    assert code == 2
    assert message in out


def test_an_unreachable_agent_is_an_outage_not_a_regression(project: Path) -> None:
    import socket

    assert invoke("baseline", "update", "--runs", "2")[0] == 0
    with socket.socket() as probe:  # a port nobody listens on: every call is refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = json.loads((project / "gate.yaml").read_text(encoding="utf-8"))
    config["agent"] = {"adapter": "http", "url": f"http://127.0.0.1:{port}/run", "retries": 0, "cache": False,
                       "concurrency": 1}
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    code, out = invoke("check")
    assert code == 4
    assert ("[red-line] the agent is unavailable (nothing listened on any attempt of 6 runs) — an outage, not a "
            "regression; the first error: connection failed to") in out
    assert "[error]" not in out  # no regression, no line: the agent never answered
    assert "gate AGENT UNAVAILABLE" in out
    document = results(project)
    assert document["agent_unavailable"] is True and document["decision"]["reruns"] == 0
    comment = (project / "gate-results" / "comment.md").read_text(encoding="utf-8")
    assert "could not reach the agent" in comment.splitlines()[2]
    # after three refused calls the other three are not sent — unless one such run is no outage
    assert [r["error"].startswith("not sent: the first 3 calls") for r in document["results"]] == [False] * 3 + [True] * 3
    config["decision"] = {**config["decision"], "outage_on_unreachable": False}
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    assert invoke("check")[0] == 4  # every run an agent error: an outage by the share rule
    assert not any(r["error"].startswith("not sent") for r in results(project)["results"])


def test_baseline_update_refuses_to_lower_the_bar_unseen(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("baseline", "update", "--runs", "3")[0] == 0
    before = (project / "baselines" / "main.json").read_bytes()
    monkeypatch.setenv("BAD", "B3-QC-02:B:*")
    assert invoke("check")[0] == 1
    code, out = invoke("baseline", "update", "--results")  # recording the failed check would hide the regression
    assert code == 1
    assert "baseline diff: lowered (1): B3-QC-02 (B) 3/3 → 0/3 runs" in out
    assert ("gate: refused: the new baseline lowers the bar for 1 case(s) that passed before "
            "(B3-QC-02 (B) 3/3 → 0/3 runs); fix them, or record it with --accept-regressions") in out
    assert (project / "baselines" / "main.json").read_bytes() == before
    code, out = invoke("baseline", "update", "--results", "--accept-regressions")
    assert code == 0 and "baseline written to" in out
    monkeypatch.delenv("BAD")
    code, out = invoke("baseline", "update", "--runs", "3")
    assert code == 0
    assert "baseline diff: raised (1): B3-QC-02 (B)" in out


def _git(project: Path, *args: str) -> None:
    import subprocess

    subprocess.run(["git", *args], cwd=project, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@example.com", "HOME": str(project), "PATH": "/usr/bin:/bin"})


def test_a_pr_that_lowers_its_own_baseline_is_compared_with_the_base_and_flagged(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("baseline", "update", "--runs", "3")[0] == 0
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    # the change breaks B3-QC-02 (B) and records the broken runs as the new baseline
    monkeypatch.setenv("BAD", "B3-QC-02:B:*")
    assert invoke("baseline", "update", "--runs", "3", "--accept-regressions")[0] == 0
    code, out = invoke("check")
    assert code == 0  # against the edited baseline the break looks normal
    code, out = invoke("check", "--baseline-ref", "HEAD")
    assert code == 1
    assert ("[error] this change lowers the baseline for 1 case(s) that passed at HEAD: "
            "B3-QC-02 (B) 3/3 → 0/3 runs — a lowered bar must be a reviewed decision") in out
    assert "[error] B3-QC-02 (B): passes 0 of 3 runs now, 3 of 3 in the baseline" in out  # the base's
    # in a pull request the base commit comes from the event
    event = project / "event.json"
    head = (project / ".git" / "HEAD").read_text(encoding="utf-8").split()[-1]
    sha = (project / ".git" / head).read_text(encoding="utf-8").strip()
    event.write_text(json.dumps({"pull_request": {"base": {"sha": sha}}}), encoding="utf-8")
    monkeypatch.setenv("GITHUB_EVENT_NAME", "pull_request")
    monkeypatch.setenv("GITHUB_EVENT_PATH", str(event))
    code, out = invoke("check")
    assert code == 1 and f"passed at {sha[:12]}" in out


def test_an_unreadable_base_falls_back_with_a_warning(project: Path) -> None:
    assert invoke("baseline", "update", "--runs", "2")[0] == 0
    code, out = invoke("check", "--baseline-ref", "0123456789abcdef")  # not a git repository here
    assert code == 0
    assert "[warning] could not read the baseline at 0123456789ab (" in out
    assert "compared with the working tree's" in out


def test_under_actions_the_log_shows_progress_while_the_run_goes(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    lines = result.stderr.splitlines()
    assert lines[0] == "::group::agent-gate: 6 agent calls" and "::endgroup::" in lines
    progress = [line for line in lines if line.startswith("[")]
    assert progress[-1] == "[6/6] 100% · 0 s · passed 6 · failed 0 · agent errors 0 · cached 0"
    assert len(progress) == 6  # every 10 % of six calls is every call


def test_a_report_directory_that_cannot_be_written_fails_before_any_agent_call(project: Path) -> None:
    (project / "blocker").write_text("a file, not a directory", encoding="utf-8")
    calls()
    code, out = invoke("check", "--out-dir", "blocker/reports")
    assert code == 2
    assert "gate: error: blocker/reports: the report directory cannot be written: Not a directory" in out
    assert calls() == []


def test_a_full_disk_leaves_the_old_reports_whole(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    import gate.files.atomic

    assert invoke("check")[0] == 0
    out = project / "gate-results"
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real_fsync, synced = os.fsync, []

    def fsync(fd: int) -> None:
        synced.append(fd)
        if len(synced) == 2:  # the second report of the set finds the disk full
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(gate.files.atomic.os, "fsync", fsync)
    monkeypatch.setenv("BAD", "B3-QC-01:A:*")  # new results that must not half-land
    code, text = invoke("check")
    assert code == 2
    assert "gate-results/junit.xml: cannot write: No space left on device (ENOSPC)" in text
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # the old set, whole; no temporary left
