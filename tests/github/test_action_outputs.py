"""The composite action's results step: outputs from results.json, read into the one results model;
a missing or malformed file gives blank outputs and a warning saying why, never a failed step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gate.github import action
from gate.results import ResultsFile


def results(passed: bool = False) -> dict[str, object]:
    return {
        "schema": "gate.results/v1", "cases_digest": "sha256:x", "passed": passed, "findings": [],
        "metrics": {"overall": {"A": {"case_pass_rate": 0.8}, "B": {"case_pass_rate": 0.8571}}},
        "results": [
            {"case_id": "B3-QC-01", "group": "A", "run": 0, "status": "fail", "constraints": []},
            {"case_id": "B3-QC-01", "group": "B", "run": 0, "status": "error", "constraints": []},
            {"case_id": "B3-FC-01", "group": "A", "run": 0, "status": "pass", "constraints": []},
            {"case_id": "X-SD-01", "group": "B", "run": 1, "status": "error", "constraints": []},
        ],
    }


def test_outputs_from_results(tmp_path: Path) -> None:
    out = action.outputs(ResultsFile.model_validate({**results(), "verdict": "failed"}), tmp_path / "gate-results", 1)
    base = (tmp_path / "gate-results").resolve()
    assert out == {
        "passed": "false", "exit-code": "1", "verdict": "failed",
        "results-path": str(base / "results.json"), "junit-path": str(base / "junit.xml"),
        "summary-path": str(base / "comment.md"),
        "a-pass-rate": "0.8", "b-pass-rate": "0.8571", "failing-cases": "2",
        "new-failures": "0", "known-failures": "0", "fixed": "0",
    }


def test_state_counts_from_results(tmp_path: Path) -> None:
    document = {**results(), "metrics": {"cases": {
        "B3-PC-01": {"groups": {"A": "fail", "B": "fail"}, "states": {"A": "new-failure", "B": "new-failure"}},
        "B3-MC-04": {"groups": {"A": "pass", "B": "fail"}, "states": {"A": "passing", "B": "known-failure"}},
        "B3-QC-01": {"groups": {"A": "pass"}, "states": {"A": "fixed"}}}}}
    out = action.outputs(ResultsFile.model_validate(document), tmp_path, 1)
    assert (out["new-failures"], out["known-failures"], out["fixed"]) == ("2", "1", "1")


def test_outputs_without_results_are_blank_and_not_passed(tmp_path: Path) -> None:
    out = action.outputs(None, tmp_path, 3)
    assert (out["passed"], out["exit-code"], out["a-pass-rate"], out["failing-cases"]) == ("false", "3", "", "")


def test_rates_as_fractions(tmp_path: Path) -> None:
    def rate(value: float | None) -> str:
        document = {**results(), "metrics": {"overall": {"A": {"case_pass_rate": value}}}}
        return action.outputs(ResultsFile.model_validate(document), tmp_path, 0)["a-pass-rate"]

    assert (rate(1.0), rate(0), rate(None), rate(0.85714)) == ("1", "0", "", "0.8571")


@pytest.mark.parametrize(("content", "why"), [
    (None, "no {path}"),
    ("{", "{path} is not JSON: "),
    ('{"schema": "gate.results/v1", "results": [1]}', "{path} is not a results.json: cases_digest: Field required"),
    (json.dumps({**results(), "results": [{"status": "fail"}]}),
     "{path} is not a results.json: results[0].case_id: Field required"),
], ids=["missing", "not-json", "partial", "odd-run"])
def test_unreadable_results_give_blank_outputs_and_say_why(tmp_path: Path, content: str | None, why: str) -> None:
    if content is not None:
        (tmp_path / "results.json").write_text(content, encoding="utf-8")
    result = CliRunner().invoke(action.main, ["--out-dir", str(tmp_path), "--exit-code", "0"],
                                env={"GITHUB_OUTPUT": str(tmp_path / "o.txt")}, catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.startswith("::warning title=agent-gate::" + why.format(path=tmp_path / "results.json"))
    written = (tmp_path / "o.txt").read_text(encoding="utf-8")
    assert "passed=true\n" in written and "a-pass-rate=\n" in written and "failing-cases=\n" in written


def test_command_writes_github_output_and_prints_annotations(tmp_path: Path) -> None:
    out_dir = tmp_path / "gate-results"
    out_dir.mkdir()
    (out_dir / "results.json").write_text(json.dumps(results()), encoding="utf-8")
    github_output = tmp_path / "output.txt"
    result = CliRunner().invoke(action.main, ["--out-dir", str(out_dir), "--exit-code", "1",
                                              "--config", str(tmp_path / "absent.yaml")],
                                env={"GITHUB_OUTPUT": str(github_output)}, catch_exceptions=False)
    assert result.exit_code == 0
    assert "passed=false\nexit-code=1\n" in github_output.read_text(encoding="utf-8")
    assert result.stdout.splitlines() == [
        "::error title=B3-QC-01 failed in 2 runs (A run 0%2C B run 0)::status fail%0Astatus error",  # one per case
        "::error title=X-SD-01 group B run 1 agent error::status error",
    ]


def test_annotations_point_at_case_files_relative_to_the_workspace(tmp_path: Path) -> None:
    source = sorted((Path(__file__).resolve().parents[2] / "cases" / "b3").glob("*.yaml"))[0]
    text = source.read_text(encoding="utf-8")
    (tmp_path / "cases" / "b3").mkdir(parents=True)
    (tmp_path / "cases" / "b3" / source.name).write_text(text, encoding="utf-8")
    (tmp_path / "gate.yaml").write_text("cases: {path: cases}\n", encoding="utf-8")
    id_line = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith("id:"))
    assert action.case_paths(str(tmp_path / "gate.yaml"), tmp_path) == {
        source.stem: (f"cases/b3/{source.name}", id_line)}
    assert action.case_paths(str(tmp_path / "missing.yaml"), tmp_path) == {}


def test_command_without_results_warns(tmp_path: Path) -> None:
    result = CliRunner().invoke(action.main, ["--out-dir", str(tmp_path), "--exit-code", "2"],
                                env={"GITHUB_OUTPUT": str(tmp_path / "o.txt")}, catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"::warning title=agent-gate::no {tmp_path}/results.json (gate check exited 2)")
    assert "passed=false\nexit-code=2\n" in (tmp_path / "o.txt").read_text(encoding="utf-8")


def test_an_inconclusive_run_is_named_by_its_output_and_a_warning(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    document = {**results(), "passed": True, "verdict": "inconclusive", "findings": [
        {"level": "warning", "rule": "regression", "outcome": "inconclusive", "case_id": "B3-QC-01", "group": "B",
         "message": "B3-QC-01 (B): passes 2 of 5 runs now, 5 of 5 in the baseline — inconclusive"}]}
    (tmp_path / "results.json").write_text(__import__("json").dumps(document), encoding="utf-8")
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    printed = CliRunner().invoke(action.main, ["--out-dir", str(tmp_path), "--exit-code", "0"]).output
    assert "verdict=inconclusive" in printed and "passed=true" in printed
    assert ("::warning title=agent-gate inconclusive::not a pass: 1 decision(s) lack the evidence to say the agent is "
            "fine — B3-QC-01 (B): passes 2 of 5 runs now") in printed


def test_an_unwritable_github_output_is_a_warning_and_the_step_goes_on(tmp_path: Path) -> None:
    out_dir = tmp_path / "gate-results"
    out_dir.mkdir()
    (out_dir / "results.json").write_text(json.dumps(results()), encoding="utf-8")
    target = tmp_path / "no-such-dir" / "output.txt"
    result = CliRunner().invoke(action.main, ["--out-dir", str(out_dir), "--exit-code", "1",
                                              "--config", str(tmp_path / "absent.yaml")],
                                env={"GITHUB_OUTPUT": str(target)}, catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == (f"::warning title=agent-gate::the step outputs could not be written to GITHUB_OUTPUT "
                        f"({target}): No such file or directory")
    assert lines[1].startswith("::error title=B3-QC-01 failed in 2 runs")  # the annotations still follow
