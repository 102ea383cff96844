"""What `gate check` refuses before calling the agent, and what a partial run can never do."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from casefiles import case_yaml
from click.testing import CliRunner

from gate.cli.app import main
from gate.runs.records import parse_line, write_trajectories

CASE = case_yaml(["{id: count, check: items:count, params: {exact: 3}}"], ["1. a\n2. b\n3. c"], [("1. a", ["count"])])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")
    marker = tmp_path / "called"
    agent = f"import json,sys,pathlib; pathlib.Path({str(marker)!r}).touch(); r=json.load(sys.stdin); " \
            "print(json.dumps({'case_id': r['case_id'], 'group': r['group'], 'run': r['run'], 'final_answer': '1. a\\n2. b\\n3. c'}))"
    config = {"agent": {"adapter": "command", "command": [sys.executable, "-c", agent], "cache": False}}
    (tmp_path / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    return tmp_path


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout + result.stderr


def test_a_tag_typo_selects_nothing_and_is_refused(project: Path) -> None:
    config = json.loads((project / "gate.yaml").read_text())
    (project / "gate.yaml").write_text(json.dumps({**config, "cases": {"tags": ["goldne"]}}), encoding="utf-8")
    code, out = invoke("check")
    assert code == 2 and "cases: no case selected (tags: goldne; ids: 0 given; groups: A, B)" in out
    assert not (project / "called").exists()


def test_unknown_case_ids_are_refused(project: Path) -> None:
    config = json.loads((project / "gate.yaml").read_text())
    (project / "gate.yaml").write_text(json.dumps({**config, "cases": {"ids": ["B3-QC-1"]}}), encoding="utf-8")
    code, out = invoke("check")
    assert code == 2 and "cases.ids: unknown case(s) ['B3-QC-1'] — did you mean 'B3-QC-01'?" in out


def test_a_named_baseline_that_does_not_exist_is_refused_before_any_call(project: Path) -> None:
    code, out = invoke("check", "--baseline", "baselines/mian.json")
    assert code == 2 and "baselines/mian.json: baseline file not found" in out
    assert not (project / "called").exists()


def test_a_corrupt_baseline_costs_no_agent_call(project: Path) -> None:
    (project / "baselines").mkdir()
    (project / "baselines" / "main.json").write_text("[]", encoding="utf-8")
    assert invoke("check")[0] == 2
    assert not (project / "called").exists()


def test_baseline_update_refuses_partial_results(project: Path) -> None:
    assert invoke("check")[0] == 0
    results = project / "gate-results" / "results.json"
    document = json.loads(results.read_text())
    results.write_text(json.dumps({**document, "interrupted": True}), encoding="utf-8")
    code, out = invoke("baseline", "update", "--results")
    assert code == 2 and "results are partial" in out
    results.write_text(json.dumps({**document, "metrics": []}), encoding="utf-8")
    code, out = invoke("baseline", "update", "--results")
    assert code == 2 and "not a results.json: metrics: Input should be a valid dictionary" in out


def test_reports_are_ordinary_files(project: Path) -> None:
    assert invoke("check")[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    mode = (project / "gate-results" / "results.json").stat().st_mode & 0o777
    assert mode == 0o666 & ~umask  # what open() would give, not mkstemp's 0600


def test_a_lone_surrogate_from_the_agent_does_not_cost_the_report(tmp_path: Path) -> None:
    # json.loads accepts "\ud83d" (half an emoji); writing it as UTF-8 would raise.
    line = '{"case_id": "x", "group": "A", "run": 0, "final_answer": "ok \\ud83d end", "tool_calls": [{"name": "t", "result": "\\udc00"}]}'
    record = parse_line(line, "t.jsonl:1")
    assert record.final_answer == "ok ? end" and record.tool_calls[0].result == "?"
    write_trajectories(tmp_path / "out.jsonl", [record])
    assert "ok ? end" in (tmp_path / "out.jsonl").read_text(encoding="utf-8")
