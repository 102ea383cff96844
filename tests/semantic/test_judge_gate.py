"""The judge in the PR gate: never unless gate.yaml sets ``judge.gate: true``; then its rubric
verdicts count like rules, marked as the judge's in results.json and the comment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from gate.cli.app import main
from gate.trajectory import Trajectory
from tests.runner.loopback import Reply
from tests.semantic.cases import ANSWERS, write_cases
from tests.semantic.standin import Asked, asked, config_text, judge_mocked, verdict

POINT = "decision: {mode: point}\n"  # one run decides, so the judge's verdict alone moves the exit code


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_cases(tmp_path)
    records = [Trajectory(case_id="B3-QC-09", group="A", run=0, final_answer=ANSWERS["good"]),
               Trajectory(case_id="B3-QC-09", group="B", run=0, final_answer=ANSWERS["cold"])]
    (tmp_path / "runs.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    return tmp_path


def _script(asked: Asked, index: int) -> Reply:
    return verdict(asked.answer != ANSWERS["cold"], "命令口吻" if asked.answer == ANSWERS["cold"] else "友好")


def _write_config(project: Path, url: str, gate: bool, judge_extra: str = "") -> None:
    agent = f"  adapter: replay\n  trajectories: {project / 'runs.jsonl'}\n"
    (project / "gate.yaml").write_text(
        config_text(url, cases="cases", agent=agent, judge_extra=f"  gate: {str(gate).lower()}\n{judge_extra}",
                    extra=POINT), encoding="utf-8")


def _calibrate(project: Path, script: Any = _script, judge_extra: str = "") -> None:
    """Calibrate the judge on the case's examples: it writes the record `judge.gate` reads."""
    with judge_mocked(script) as server:
        _write_config(project, server.url, True, judge_extra)
        result = CliRunner().invoke(main, ["judge", "--calibrate", "--min-agreement", "0"])
    assert result.exit_code == 0, result.output


def _check(project: Path, gate: bool, shown: list[list[str]] | None = None, *, calibrated: bool = True,
           judge_extra: str = "") -> tuple[int, int, dict[str, Any], str]:
    """Exit code, requests to the judge, results.json and comment.md of a check (the judge calibrated
    first unless told not to); ``shown``: gets the labelled examples each request showed."""
    shown = [] if shown is None else shown
    if gate and calibrated:
        _calibrate(project, judge_extra=judge_extra)
    with judge_mocked(_script) as server:
        _write_config(project, server.url, gate, judge_extra)
        result = CliRunner().invoke(main, ["check"])
        shown.extend(asked(seen).examples for seen in server.seen)
    results = json.loads((project / "gate-results" / "results.json").read_text(encoding="utf-8"))
    return result.exit_code, len(shown), results, (project / "gate-results" / "comment.md").read_text(encoding="utf-8")


def test_by_default_the_judge_is_never_asked_and_rubrics_stay_unjudged(project: Path) -> None:
    code, asked, results, comment = _check(project, gate=False)
    assert (code, asked) == (0, 0) and "judge_trust" not in results
    statuses = {(r["group"], c["id"]): c["status"] for r in results["results"] for c in r["constraints"]}
    assert statuses[("B", "friendly")] == "skipped"
    assert "LLM judge" not in comment


def test_with_judge_gate_the_judges_verdicts_count_and_say_whose_they_are(project: Path) -> None:
    shown: list[list[str]] = []
    code, asked, results, comment = _check(project, gate=True, shown=shown)
    assert code == 1 and asked == 2 * 2 * 3  # two runs, two rubrics each, three samples
    assert any(shown)  # the case's labelled examples, which a check without the judge does not keep
    by = {(r["group"], c["id"]): c for r in results["results"] for c in r["constraints"]}
    assert (by[("B", "friendly")]["status"], by[("B", "friendly")]["source"]) == ("fail", "judge")
    assert by[("B", "friendly")]["detail"] == "0 pass · 3 fail: 命令口吻"
    assert (by[("A", "friendly")]["status"], by[("A", "friendly")]["source"]) == ("pass", "judge")
    assert "source" not in by[("B", "exactly_3")]
    assert "4 rubric verdict(s) come from the LLM judge (`judge.gate: true`)" in comment
    assert "count on the 2 of 2 judged rubrics whose calibration holds" in comment
    assert "| B3-QC-09 | friendly | calibrated | yes | 1 pass · 1 fail |" in comment
    assert "❌ **agent-gate failed**" in comment
    junit = (project / "gate-results" / "junit.xml").read_text(encoding="utf-8")
    assert "decided by the LLM judge: B run 0: friendly [fail] 0 pass · 3 fail: 命令口吻" in junit


def test_the_judge_reads_the_runs_of_a_check_from_its_results(project: Path) -> None:
    _check(project, gate=False)  # writes results.json and trajectories.jsonl
    with judge_mocked(lambda asked, index: verdict(True)) as server:
        result = CliRunner().invoke(main, ["judge", "--results", "gate-results/results.json", "--url",
                                           f"{server.url}/v1", "--model", "stand-in", "--samples", "1"])
    assert result.exit_code == 0, result.output
    document = json.loads((project / "gate-results" / "judge.json").read_text(encoding="utf-8"))
    assert sorted((r["group"], r["constraint"]) for r in document["constraints"]) == [
        ("A", "friendly"), ("A", "three_and_friendly"), ("B", "friendly"), ("B", "three_and_friendly")]


def test_after_a_stop_the_judge_is_asked_nothing(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    from gate.commands import check

    def confirmed_then_stopped(*args: Any, **kwargs: Any) -> Any:
        found = confirm_failures(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)  # once the rules have judged every run, before the judge
        return found

    confirm_failures = check.confirm_failures
    monkeypatch.setattr(check, "confirm_failures", confirmed_then_stopped)
    code, asked, results, _ = _check(project, gate=True)
    assert (code, asked) == (130, 0)
    assert results["interrupted"] is True and results["passed"] is False


def test_a_judge_with_no_calibration_cannot_change_the_exit_code_and_the_comment_says_so(project: Path) -> None:
    code, asked, results, comment = _check(project, gate=True, calibrated=False)
    assert (code, asked) == (0, 2 * 2 * 3)  # asked, reported, not counted
    by = {(r["group"], c["id"]): c for r in results["results"] for c in r["constraints"]}
    assert by[("B", "friendly")]["status"] == "skipped" and "source" not in by[("B", "friendly")]
    assert "no current calibration for any of the 2 rubrics it judged: it cannot change the exit code" in comment
    assert "| B3-QC-09 | friendly | uncalibrated | advisory | 1 pass · 1 fail |" in comment


def test_a_rubric_edit_makes_its_calibration_stale(project: Path) -> None:
    from tests.semantic.cases import RUBRIC

    _calibrate(project)
    case_file = project / "cases" / "b3" / "B3-QC-09.yaml"
    text = case_file.read_text(encoding="utf-8")
    case_file.write_text(text.replace(f"{{id: friendly, judge: '{RUBRIC}'}}", "{id: friendly, judge: '语气友好'}"),
                         encoding="utf-8")
    code, _, results, comment = _check(project, gate=True, calibrated=False)
    by = {(r["group"], c["id"]): c for r in results["results"] for c in r["constraints"]}
    assert by[("B", "friendly")]["status"] == "skipped"  # advisory: the edited rubric was never calibrated
    assert (by[("B", "three_and_friendly")]["status"], by[("B", "three_and_friendly")]["source"]) == ("fail", "judge")
    assert code == 1
    assert "| B3-QC-09 | friendly | stale | advisory | 1 pass · 1 fail |" in comment
    assert {(t["rubric"], t["trust"], t["counted"]) for t in results["judge_trust"]} == {
        ("friendly", "stale", False), ("three_and_friendly/all_of[1]", "calibrated", True)}
    assert "| B3-QC-09 | three\\_and\\_friendly/all\\_of\\[1\\] | calibrated | yes |" in comment


def test_another_judge_model_finds_every_calibration_stale(project: Path) -> None:
    _calibrate(project)
    with judge_mocked(_script) as server:
        _write_config(project, server.url, True)
        text = (project / "gate.yaml").read_text(encoding="utf-8")
        (project / "gate.yaml").write_text(text.replace("model: stand-in", "model: stand-in-2"), encoding="utf-8")
        result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0, result.output
    comment = (project / "gate-results" / "comment.md").read_text(encoding="utf-8")
    assert comment.count("| stale | advisory |") == 2


def test_a_rubric_below_the_floor_stays_advisory(project: Path) -> None:
    _calibrate(project, script=lambda asked, index: verdict(True))  # passes the cold example: 3 of 4, 2 of 3
    code, _, _, comment = _check(project, gate=True, calibrated=False)
    assert code == 0
    assert comment.count("| below the floor | advisory |") == 2


def test_a_malformed_calibration_record_is_refused_before_any_agent_call(project: Path) -> None:
    (project / ".gate").mkdir()
    (project / ".gate" / "calibration.json").write_text('{"schema": "gate.judge-calibration-record/v1"}',
                                                        encoding="utf-8")
    with judge_mocked(_script) as server:
        _write_config(project, server.url, True)
        result = CliRunner().invoke(main, ["check"])
        assert server.seen == []
    assert result.exit_code == 2, result.output
    assert ".gate/calibration.json" in result.output and "not a calibration record" in result.output
    assert "Traceback" not in result.output


def test_results_with_the_judges_trust_are_still_results(project: Path) -> None:
    from gate.results import ResultsFile

    _, _, results, _ = _check(project, gate=True)
    assert ResultsFile.model_validate(results).model_dump(by_alias=True)["schema"] == "gate.results/v1"
