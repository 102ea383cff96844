"""Calibration as `judge.gate` relies on it: errors counted apart from disagreements, a floor that
fails the run, human verdicts on real runs as labels, the record bound to the judge and each rubric's
text, and samples that are independent votes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from gate.trajectory import Trajectory
from tests.runner.loopback import Reply
from tests.semantic.cases import ANSWERS, write_cases
from tests.semantic.standin import Asked, Script, asked, chat, config_text, judge_mocked, verdict

WARM = "1. Bose QC45\n2. Apple AirPods Pro\n3. 华为 FreeBuds\n祝你选到喜欢的耳机！"
BLUNT = "1. Bose QC45\n2. Apple AirPods Pro\n3. 华为 FreeBuds\n自己看。"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_cases(tmp_path)
    return tmp_path


def _friendly(asked: Asked, index: int) -> Reply:
    """Right on every example of the case: only the cold answer is unfriendly (and BLUNT passes)."""
    return verdict(asked.answer != ANSWERS["cold"])


def calibrate(project: Path, script: Script = _friendly, *args: str, judge_extra: str = "") -> tuple[Result, list[Any]]:
    with judge_mocked(script) as server:
        (project / "gate.yaml").write_text(config_text(server.url, cases="cases", judge_extra=judge_extra),
                                           encoding="utf-8")
        result = CliRunner().invoke(main_command(), ["judge", "--calibrate", *args])
        return result, list(server.seen)


def main_command() -> Any:
    from gate.cli.app import main

    return main


def document(project: Path) -> dict[str, Any]:
    return dict(json.loads((project / "gate-results" / "judge-calibration.json").read_text(encoding="utf-8")))


def record(project: Path) -> dict[str, Any]:
    return dict(json.loads((project / ".gate" / "calibration.json").read_text(encoding="utf-8")))


def test_a_verdict_the_judge_could_not_give_is_counted_apart_from_a_disagreement(project: Path) -> None:
    def mute_on_cold(asked: Asked, index: int) -> Reply:
        return chat("hmm") if asked.answer == ANSWERS["cold"] else _friendly(asked, index)

    result, _ = calibrate(project, mute_on_cold, "--samples", "1", judge_extra="  format_retries: 0\n")
    assert result.exit_code == 0, result.output
    found = document(project)
    assert found["disagreements"] == []
    assert (found["agreement"]["passed"], found["agreement"]["judged"], found["agreement"]["errors"]) == (5, 5, 2)
    friendly = next(r for r in found["rubrics"] if r["rubric"] == "friendly")
    assert (friendly["agreed"], friendly["errors"], friendly["agreement"]["judged"]) == (3, 1, 3)
    assert friendly["trust"] == "below the floor"  # 3 of 4 asked: an unanswered label is not one it got right
    assert "· 2 labels without a verdict (errors)" in result.output
    assert "| B3-QC-09 | `friendly` | 3/4 | ⚠️ yes | 100.0% (3/3, 1 errors)" in \
        (project / "gate-results" / "judge-calibration.md").read_text(encoding="utf-8")


def test_the_agreement_floor_fails_the_run(project: Path) -> None:
    always = calibrate(project, lambda a, i: verdict(True), "--samples", "1")[0]  # 5 of 7
    assert always.exit_code == 1 and "agreement 71.4% is under the floor 80.0%" in always.output, always.output
    lowered = calibrate(project, lambda a, i: verdict(True), "--samples", "1", judge_extra="  min_agreement: 0.7\n")[0]
    assert lowered.exit_code == 0, lowered.output
    given = calibrate(project, lambda a, i: verdict(True), "--samples", "1", "--min-agreement", "0.75",
                      judge_extra="  min_agreement: 0.7\n")[0]
    assert given.exit_code == 1 and "under the floor 75.0%" in given.output


def test_a_calibration_that_decided_nothing_exits_4_and_records_nothing(project: Path) -> None:
    result, seen = calibrate(project, lambda a, i: chat("no idea"), "--samples", "1",
                             judge_extra="  format_retries: 0\n")
    assert len(seen) == 7 and result.exit_code == 4, result.output
    assert "the judge decided none of 7 labels" in result.output
    assert not (project / ".gate" / "calibration.json").exists()


def test_the_record_binds_the_judge_and_each_rubric(project: Path) -> None:
    result, _ = calibrate(project)
    assert result.exit_code == 0, result.output
    found = record(project)
    assert found["schema"] == "gate.judge-calibration-record/v1"
    assert found["judge"]["model"] == "stand-in" and found["judge"]["samples"] == 3
    assert found["cases_digest"] == document(project)["cases_digest"]
    entries = {r["rubric"]: r for r in found["rubrics"]}
    assert set(entries) == {"friendly", "three_and_friendly/all_of[1]"}
    assert entries["friendly"] == {**entries["friendly"], "agreed": 4, "decided": 4, "errors": 0}
    assert entries["friendly"]["digest"].startswith("sha256:")
    assert entries["friendly"]["digest"] != entries["three_and_friendly/all_of[1]"]["digest"]
    assert "calibration record → " in result.output


def _reviews(project: Path, verdicts: list[tuple[str, str, str]]) -> None:
    lines = ["schema: gate.reviews/v1", "reviews:"]
    for answer, constraint, human in verdicts:
        digest = Trajectory(case_id="B3-QC-09", group="A", run=0, final_answer=answer).digest
        lines += [f"  - trajectory: {digest}", "    case_id: B3-QC-09", f"    constraint: {constraint}",
                  f"    human: {human}", "    reviewer: 李雷", "    date: 2026-12-02"]
    (project / "reviews").mkdir(exist_ok=True)
    (project / "reviews" / "reviews.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _runs(path: Path, answers: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(Trajectory(case_id="B3-QC-09", group="A", run=run, final_answer=answer).model_dump_json()
                            + "\n" for run, answer in enumerate(answers)), encoding="utf-8")
    return path


def test_human_verdicts_on_real_runs_calibrate_each_rubric_beside_the_examples(project: Path) -> None:
    _reviews(project, [(WARM, "friendly", "pass"), (BLUNT, "friendly", "fail"), (BLUNT, "three_and_friendly", "fail")])
    runs = _runs(project / "runs.jsonl", [WARM, BLUNT, BLUNT, ANSWERS["good"]])  # BLUNT twice: one label
    result, _ = calibrate(project, _friendly, "--trajectories", str(runs))
    assert result.exit_code == 0, result.output  # 8 of 10 overall: at the floor
    found = document(project)
    rubrics = {r["rubric"]: r for r in found["rubrics"]}
    assert (rubrics["friendly"]["agreed"], rubrics["friendly"]["examples"], rubrics["friendly"]["human"]) == (5, 6, 2)
    assert rubrics["friendly"]["agreement"]["low"] < rubrics["friendly"]["agreement"]["rate"] < 1  # Wilson
    assert rubrics["three_and_friendly/all_of[1]"]["agreed"] == 3 and rubrics["three_and_friendly/all_of[1]"]["human"] == 1
    human = [d for d in found["disagreements"] if d["source"] == "human"]
    assert {(d["rubric"], d["expected"], d["judge"]) for d in human} == {("friendly", "fail", "pass"),
                                                                          ("three_and_friendly/all_of[1]", "fail", "pass")}
    assert "labels (3 human verdicts on real runs)" in result.output
    markdown = (project / "gate-results" / "judge-calibration.md").read_text(encoding="utf-8")
    assert "**Agreement with the labels (3 human verdicts on real runs): 80.0% (8/10)" in markdown
    assert {r["rubric"]: r["human"] for r in record(project)["rubrics"]} == {"friendly": 2,
                                                                             "three_and_friendly/all_of[1]": 1}


def test_the_latest_checks_runs_are_read_when_none_are_given(project: Path) -> None:
    _reviews(project, [(BLUNT, "friendly", "fail")])
    _runs(project / "gate-results" / "trajectories.jsonl", [BLUNT])
    result, _ = calibrate(project)
    assert result.exit_code == 0, result.output
    assert next(r for r in document(project)["rubrics"] if r["rubric"] == "friendly")["human"] == 1


def test_several_samples_are_asked_at_a_temperature_with_their_own_seeds(project: Path) -> None:
    _, seen = calibrate(project, _friendly, "--case", "B3-QC-09")
    bodies = [asked(s).body for s in seen]
    assert {b["temperature"] for b in bodies} == {0.3} and {b["seed"] for b in bodies} == {0, 1, 2}
    assert document(project)["judge"]["temperature"] == 0.3
    _, one = calibrate(project, _friendly, "--samples", "1")
    assert {asked(s).body["temperature"] for s in one} == {0}
    _, warm = calibrate(project, _friendly, judge_extra="  temperature: 0.7\n")
    assert {asked(s).body["temperature"] for s in warm} == {0.7}


def test_calibrating_some_cases_keeps_the_others_and_another_judge_starts_afresh(project: Path) -> None:
    from gate.config.gate_yaml import JudgeConfig
    from gate.semantic.trust import CalibrationRecord, RubricCalibration, merged

    judge = JudgeConfig(url="http://judge/v1", model="m")
    def entry(case_id: str) -> RubricCalibration:
        return RubricCalibration(case_id=case_id, rubric="r", digest="sha256:x", agreed=1, decided=1, errors=0)

    old = merged(None, judge, "sha256:c", [entry("A-1"), entry("B-1")])
    assert [r.case_id for r in merged(old, judge, "sha256:d", [entry("B-1")]).rubrics] == ["A-1", "B-1"]
    other = JudgeConfig(url="http://judge/v1", model="m2")
    assert [r.case_id for r in merged(old, other, "sha256:d", [entry("B-1")]).rubrics] == ["B-1"]
    assert isinstance(CalibrationRecord.model_validate_json(old.model_dump_json(by_alias=True)), CalibrationRecord)
