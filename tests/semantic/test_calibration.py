"""`gate judge --calibrate`: the judge over the case examples, agreement per rubric and overall, each
disagreement listed, a rubric the judge gets wrong flagged — and no example judged with its own label."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gate.cli.app import main
from gate.semantic.rubrics import example_trajectory, expected_status, rubrics_of
from gate.verdict import Status
from tests.casefiles import repo_cases
from tests.runner.loopback import Reply
from tests.semantic.standin import Asked, config_text, judge_mocked, verdict

WRONG = "B3-AC-03"
"""The case whose rubric the stand-in judge gets wrong: it passes every tone."""


def _labels() -> list[tuple[tuple[str, str], Status]]:
    """(rubric text as the prompt shows it, answer) and what the case files say the verdict is, for every decided pair."""
    labels = []
    for case in repo_cases().cases.values():
        for example in (case.examples.pass_ + case.examples.fail) if case.examples else ():
            for rubric in rubrics_of(case, example.group):
                status = expected_status(rubric, example)
                if status is not None:
                    labels.append(((rubric.text.strip(), example_trajectory(case, example).final_answer), status))
    return labels


def test_calibration_reports_agreement_and_flags_the_rubric_the_judge_gets_wrong(tmp_path: Path) -> None:
    found = _labels()
    labels = dict(found)
    assert all(labels[pair] is status for pair, status in found)  # a pair met twice carries one label
    wrong_rubric = next(c.judge.strip() for c in repo_cases().cases[WRONG].constraints if c.judge)
    leaked = []

    def oracle(asked: Asked, index: int) -> Reply:
        if asked.answer in asked.examples:
            leaked.append(asked.answer)
        rubric = asked.rubric
        if rubric == wrong_rubric:
            return verdict(True, "sounds fine")
        return verdict(labels[(rubric, asked.answer)] is Status.PASS, "as labelled")

    with judge_mocked(oracle) as server:
        (tmp_path / "gate.yaml").write_text(config_text(server.url), encoding="utf-8")
        result = CliRunner().invoke(main, ["judge", "--calibrate", "--samples", "1", "--config",
                                           str(tmp_path / "gate.yaml"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert leaked == []  # every example was judged without itself among the labelled ones
    document = json.loads((tmp_path / "out" / "judge-calibration.json").read_text(encoding="utf-8"))
    flagged = [(r["case_id"], r["rubric"]) for r in document["rubrics"] if r["flagged"]]
    assert flagged == [(WRONG, "professional_not_stiff")]
    assert {(d["case_id"], d["expected"], d["judge"]) for d in document["disagreements"]} == {(WRONG, "fail", "pass")}
    assert len(document["disagreements"]) == 2  # AC-03's two failing examples
    assert len(document["items"]) == len(found) == document["agreement"]["judged"]
    assert document["agreement"]["passed"] == len(found) - 2
    assert len(document["rubrics"]) == 48 and len(server.seen) == len(found)
    markdown = (tmp_path / "out" / "judge-calibration.md").read_text(encoding="utf-8")
    assert "| B3-AC-03 | `professional_not_stiff` | 1/3 | ⚠️ yes |" in markdown
    assert "expected fail, judge pass" in markdown
    assert f"flagged: {WRONG} professional_not_stiff: 1/3 examples agree" in result.output
    total = len(found)
    line = (f"calibration: the judge agrees with {total - 2} of {total} example labels "
            f"({(total - 2) / total:.1%}) · 1 of 48 rubrics flagged")
    assert line in result.output
    assert line in (Path(__file__).resolve().parents[2] / "docs" / "semantic.md").read_text(encoding="utf-8")  # as shown there


def test_fail_under_reads_the_agreement(tmp_path: Path) -> None:
    with judge_mocked(lambda asked, index: verdict(True)) as server:
        (tmp_path / "gate.yaml").write_text(config_text(server.url), encoding="utf-8")
        result = CliRunner().invoke(main, ["judge", "--calibrate", "--samples", "1", "--case", "B3-FC-04",
                                           "--fail-under", "0.9", "--min-agreement", "0", "--config",
                                           str(tmp_path / "gate.yaml"),
                                           "--out", str(tmp_path / "out")])
    assert result.exit_code == 1 and "agreement 75.0% is under --fail-under 90.0%" in result.output, result.output


def test_calibration_collects_no_runs() -> None:
    result = CliRunner().invoke(main, ["judge", "--calibrate", "--all-cases"])
    assert result.exit_code == 2 and "--calibrate judges the case examples" in result.output


def test_an_example_that_does_not_decide_a_rubric_is_counted_as_undetermined(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.semantic.cases import ANSWERS, write_cases

    monkeypatch.chdir(tmp_path)
    write_cases(tmp_path)
    with judge_mocked(lambda asked, index: verdict(asked.answer != ANSWERS["cold"])) as server:
        (tmp_path / "gate.yaml").write_text(config_text(server.url, cases="cases"), encoding="utf-8")
        result = CliRunner().invoke(main, ["judge", "--calibrate"])
    assert result.exit_code == 0, result.output
    document = json.loads((tmp_path / "gate-results" / "judge-calibration.json").read_text(encoding="utf-8"))
    rubrics = {r["rubric"]: r for r in document["rubrics"]}
    assert rubrics["friendly"] == {**rubrics["friendly"], "agreed": 4, "examples": 4, "undetermined": 0, "flagged": False}
    # four items fail `max: 3` whatever the rubric says: that example cannot calibrate it
    assert rubrics["three_and_friendly/all_of[1]"] == {**rubrics["three_and_friendly/all_of[1]"], "agreed": 3,
                                                       "examples": 3, "undetermined": 1}
    assert "(1 undetermined)" in (tmp_path / "gate-results" / "judge-calibration.md").read_text(encoding="utf-8")


def test_calibrating_against_an_endpoint_that_is_down_exits_4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.semantic.cases import write_cases

    monkeypatch.chdir(tmp_path)
    write_cases(tmp_path)
    with judge_mocked(lambda asked, index: Reply(status=500, body={})) as server:
        (tmp_path / "gate.yaml").write_text(config_text(server.url, cases="cases", judge_extra="  retries: 0\n"),
                                            encoding="utf-8")
        result = CliRunner().invoke(main, ["judge", "--calibrate", "--samples", "1"])
    assert result.exit_code == 4 and "the judge endpoint was unavailable" in result.output
    document = json.loads((tmp_path / "gate-results" / "judge-calibration.json").read_text(encoding="utf-8"))
    assert document["agreement"]["passed"] == 0 and all(r["flagged"] for r in document["rubrics"])
