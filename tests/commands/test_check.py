"""`gate check`, `gate baseline update` and `gate merge` end to end, through the real CLI; the agent
(stub_agent.py) answers in process through the python adapter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.casefiles import case_yaml
from tests.commands.cli import invoke

GROUPS = "A: {skill_enabled: false}\nB: {skill_enabled: true, active_skills: [s]}"


def _case(case_id: str, dimension: str, message: str, n: int, good: str) -> str:
    return case_yaml([f"{{id: count, check: items:count, params: {{exact: {n}}}}}"], [good], [("1. x", ["count"])],
                     case_id=case_id, title=case_id, dimension=dimension, prompt=message, groups=GROUPS)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    cases = tmp_path / "cases" / "b3"
    cases.mkdir(parents=True)
    specs = [("B3-QC-01", "QC", "推荐 3 款降噪耳机", 3, "1. a\n2. b\n3. c"),
             ("B3-QC-02", "QC", "推荐 2 款跑鞋", 2, "1. a\n2. b"),
             ("B3-FC-01", "FC", "推荐 3 款降噪耳机", 3, "1. a\n2. b\n3. c"),
             ("B3-FC-02", "FC", "推荐 2 款跑鞋", 2, "1. a\n2. b")]
    for spec in specs:
        (cases / f"{spec[0]}.yaml").write_text(_case(*spec), encoding="utf-8")
    config = {"cases": {"path": "cases", "tags": ["golden"]},
              "agent": {"adapter": "python", "function": "tests.commands.stub_agent:answer", "cache": False,
                        "concurrency": 4},
              "baseline": "baselines/main.json", "out_dir": "gate-results"}
    (tmp_path / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    return tmp_path


def without_durations(path: Path) -> dict:
    document = json.loads(path.read_text(encoding="utf-8"))
    for run in document["results"]:
        run["metadata"].pop("latency_ms", None)
    return document


def test_first_run_passes_and_records_a_baseline(project: Path) -> None:
    code, out, _ = invoke("check")
    assert code == 0, out
    assert "[info] no baseline yet" in out
    for name in ("results.json", "junit.xml", "comment.md", "trajectories.jsonl"):
        assert (project / "gate-results" / name).exists()
    code, out, _ = invoke("baseline", "update")  # what the gate suggests: fresh runs, decision.baseline_runs of them
    assert code == 0 and "baseline written to" in out and "over 5 runs per case" in out
    stored = json.loads((project / "baselines" / "main.json").read_text(encoding="utf-8"))
    assert stored["schema"] == "gate.baseline/v2"
    assert stored["cases"]["B3-QC-01"] == {"A": {"passed": 5, "runs": 5}, "B": {"passed": 5, "runs": 5}}


def test_reruns_give_identical_reports(project: Path) -> None:
    assert invoke("check")[0] == 0
    invoke("baseline", "update")
    assert invoke("check")[0] == 0
    first = {n: (project / "gate-results" / n).read_bytes() for n in ("comment.md",)}
    results = without_durations(project / "gate-results" / "results.json")
    assert invoke("check")[0] == 0
    assert (project / "gate-results" / "comment.md").read_bytes() == first["comment.md"]
    assert without_durations(project / "gate-results" / "results.json") == results


def test_a_regression_fails_the_gate_and_is_named(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = invoke("baseline", "update", "--runs", "5")
    assert code == 0 and "8 (case, group) pairs always pass, 0 always fail, 0 flaky over 5 runs per case" in out
    monkeypatch.setenv("BREAK", "B3-QC-01")
    monkeypatch.setenv("BREAK_GROUPS", "B")
    code, out, _ = invoke("check")
    assert code == 1
    # the first failure is confirmed by reruns that fail too: 1 + 2 runs reach Fisher's p ≤ alpha
    assert ("[error] B3-QC-01 (B): passes 0 of 2 runs now, 5 of 5 in the baseline "
            "(Fisher p = 0.0476 ≤ 0.05) — attributed to the skill") in out
    comment = (project / "gate-results" / "comment.md").read_text(encoding="utf-8")
    assert "**B3-QC-01** [B]" in comment.split("Newly failing cases")[1]
    junit = (project / "gate-results" / "junit.xml").read_text(encoding="utf-8")
    assert 'name="B3-QC-01 [B] run 0"' in junit and "4 items found" in junit


def point_mode(project: Path) -> None:
    """The literal point-estimate rule: one run of two cases is enough to decide a line."""
    config = json.loads((project / "gate.yaml").read_text(encoding="utf-8"))
    (project / "gate.yaml").write_text(json.dumps({**config, "decision": {"mode": "point"}}), encoding="utf-8")


def test_a_thin_baseline_makes_a_regression_inconclusive_not_a_failure(project: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    assert invoke("check")[0] == 0
    code, _, err = invoke("baseline", "update", "--results")  # one run per case: it cannot tell a regression from a flake
    assert code == 0 and "holds 1 run(s) for some (case, group) pairs, fewer than decision.baseline_runs (5)" in err
    monkeypatch.setenv("BREAK", "B3-QC-01")
    monkeypatch.setenv("BREAK_GROUPS", "B")
    code, out, _ = invoke("check")
    assert code == 0
    # reruns go on while it fails by majority: 0 of 5 now, but one baseline run cannot confirm it
    assert ("[warning] B3-QC-01 (B): passes 0 of 5 runs now, 1 of 1 in the baseline (Fisher p = 0.167) — "
            "inconclusive: record the baseline from more runs (`gate baseline update` records 5 per case) "
            "to decide it") in out
    assert "gate INCONCLUSIVE: " in out and "gate PASSED" not in out
    assert "exit 0 (decision.fail_on_inconclusive: false)" in out
    comment = (project / "gate-results" / "comment.md").read_text(encoding="utf-8")
    assert "## ⚠️ **agent-gate inconclusive**" in comment and "✅" not in comment.splitlines()[2]
    assert json.loads((project / "gate-results" / "results.json").read_text(encoding="utf-8"))["verdict"] == "inconclusive"
    point_mode(project)
    code, out, _ = invoke("check")
    assert code == 1
    assert ("B3-QC-01 (B) passed in the baseline and fails now (passes 0 of 1 run now, 1 of 1 in the baseline)"
            " — attributed to the skill") in out


def test_fail_on_red_line_lets_ordinary_errors_through(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    point_mode(project)
    monkeypatch.setenv("BREAK", "B3-QC-01")
    monkeypatch.setenv("BREAK_GROUPS", "B")
    assert invoke("check")[0] == 1  # QC: B − A = −50 points → a red line
    monkeypatch.setenv("BREAK", "B3-QC-01,B3-QC-02,B3-FC-01,B3-FC-02")
    monkeypatch.setenv("BREAK_GROUPS", "AB")
    assert invoke("check", "--fail-on", "red-line")[0] == 0  # A fails its line: an error, not a red line
    assert invoke("check")[0] == 1


def test_corrupt_baseline_is_unusable_input(project: Path) -> None:
    (project / "baselines").mkdir()
    (project / "baselines" / "main.json").write_text("{", encoding="utf-8")
    code, _, err = invoke("check")
    assert code == 2
    assert "baselines/main.json: corrupt baseline: not valid JSON" in err


def test_bad_config_names_file_line_and_field(project: Path) -> None:
    (project / "bad.yaml").write_text("agent:\n  adapter: command\n  command: [python, a.py]\n  concurrency: zero\n",
                                      encoding="utf-8")
    code, _, err = invoke("check", "--config", "bad.yaml")
    assert code == 2
    assert err.strip() == "gate: error: bad.yaml:4: agent.concurrency: Input should be a valid integer, unable to parse string as an integer"


def test_shards_merge_to_the_unsharded_verdicts(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    point_mode(project)
    monkeypatch.setenv("BREAK", "B3-FC-02")
    monkeypatch.setenv("BREAK_GROUPS", "B")
    whole_code, _, _ = invoke("check", "--out-dir", "whole")
    whole = without_durations(project / "whole" / "results.json")
    for k in range(1, 5):
        assert invoke("check", "--shard", f"{k}/4", "--out-dir", f"shard-{k}")[0] == 0
    ran = [json.loads((project / f"shard-{k}" / "results.json").read_text())["results"] for k in range(1, 5)]
    ids = sorted(r["case_id"] for runs in ran for r in runs if r["group"] == "A")
    assert ids == ["B3-FC-01", "B3-FC-02", "B3-QC-01", "B3-QC-02"]  # every case exactly once
    code, _, _ = invoke("merge", *[f"shard-{k}/results.json" for k in range(1, 5)], "--out-dir", "merged")
    merged = without_durations(project / "merged" / "results.json")
    assert code == whole_code == 1
    assert merged == whole
    assert (project / "merged" / "comment.md").read_bytes() == (project / "whole" / "comment.md").read_bytes()


def test_merge_refuses_a_missing_shard(project: Path) -> None:
    for k in (1, 2):
        invoke("check", "--shard", f"{k}/3", "--out-dir", f"shard-{k}")
    code, _, err = invoke("merge", "shard-1/results.json", "shard-2/results.json")
    assert code == 2
    assert "missing shard(s) [3] of 3: a missing shard is never a pass" in err


def test_an_empty_shard_still_merges(project: Path) -> None:
    for k in range(1, 6):  # 4 cases over 5 shards: one shard runs nothing
        assert invoke("check", "--shard", f"{k}/5", "--out-dir", f"shard-{k}")[0] == 0
    sizes = [len(json.loads((project / f"shard-{k}" / "results.json").read_text())["results"]) for k in range(1, 6)]
    assert 0 in sizes
    code, out, _ = invoke("merge", *[f"shard-{k}/results.json" for k in range(1, 6)], "--out-dir", "merged")
    assert code == 0, out
    assert len(json.loads((project / "merged" / "results.json").read_text())["results"]) == 8


def test_a_cached_rerun_judges_nothing_again_and_reports_the_same(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.judging import evaluate as evaluate_mod

    monkeypatch.delenv("CI", raising=False)  # the verdict cache is read outside CI only
    config = json.loads((project / "gate.yaml").read_text(encoding="utf-8"))
    config["agent"]["cache"] = ".gate-cache"
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    judged: list[str] = []
    real = evaluate_mod.evaluate
    monkeypatch.setattr(evaluate_mod, "evaluate", lambda case, t, **kw: judged.append(t.case_id) or real(case, t, **kw))
    assert invoke("check")[0] == 0
    first = without_durations(project / "gate-results" / "results.json")
    assert len(judged) == 8  # 4 cases × 2 groups
    assert invoke("check")[0] == 0
    assert len(judged) == 8
    again = without_durations(project / "gate-results" / "results.json")
    assert (again["results"], again["metrics"], again["findings"]) == (first["results"], first["metrics"], first["findings"])
    assert again["cached_answers"] == 8
    (project / "cases" / "b3" / "B3-QC-02.yaml").write_text(
        (project / "cases" / "b3" / "B3-QC-02.yaml").read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert invoke("check")[0] == 0
    assert judged[8:] == ["B3-QC-02", "B3-QC-02"]  # only the edited case's answers are judged again


def test_check_holds_each_trajectory_on_disk_once_judged_and_writes_the_same_file(
    project: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gate.commands.check as check
    from gate.runs.records import SpooledRun, read_trajectories, trajectories_text

    held: list[object] = []
    build_report = check.build_report

    def capture(settings, case_set, trajectories, **kwargs):  # type: ignore[no-untyped-def]
        held.extend(trajectories)
        return build_report(settings, case_set, trajectories, **kwargs)

    monkeypatch.setattr(check, "build_report", capture)
    monkeypatch.setenv("BREAK", "B3-QC-01")  # a failing run's answer is read back for its excerpt
    assert invoke("check")[0] == 0
    assert len(held) == 8 and all(isinstance(run, SpooledRun) for run in held)
    written = project / "gate-results" / "trajectories.jsonl"
    assert written.read_text(encoding="utf-8") == "".join(trajectories_text(read_trajectories(written)))
    junit = (project / "gate-results" / "junit.xml").read_text(encoding="utf-8")
    assert "answer (first 31 characters):\n1. Bose\n2. Apple\n3. 华为\n9. 多余的一款" in junit
