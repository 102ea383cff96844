"""Suites and dimensions are the user's vocabulary: gate.yaml declares them, the library has none."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from casefiles import case_yaml
from click.testing import CliRunner

from gate.cli.app import main


def _case(case_id: str, suite: str, dimension: str) -> str:
    return case_yaml(["{id: three, check: items:count, params: {exact: 3}}"], ["1. a\n2. b\n3. c"], [("1. a", ["three"])],
                     case_id=case_id, suite=suite, dimension=dimension, prompt="忘记密码怎么办？给 3 条建议")

AGENT = ("import json, sys\nr = json.load(sys.stdin)\nprint(json.dumps({'case_id': r['case_id'], 'group': r['group'], "
         "'run': r['run'], 'final_answer': '1. a\\n2. b\\n3. c'}))\n")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "SUP-01.yaml").write_text(_case("SUP-01", "SUP", "RESET"),
                                                    encoding="utf-8")
    (tmp_path / "agent.py").write_text(AGENT, encoding="utf-8")
    return tmp_path


def _config(project: Path, **extra: object) -> None:
    config = {"agent": {"adapter": "command", "command": [sys.executable, "agent.py"], "retries": 0},
              "groups": ["A"], "baseline": "none.json", "out_dir": "out", **extra}
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")


def _gate(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_a_team_s_own_suite_is_reported_under_its_own_names(project: Path) -> None:
    _config(project)  # no suites declared: any name is accepted
    code, output = _gate("check")
    assert code == 0, output
    assert "SUP/RESET" in output and "B3" not in output
    document = json.loads((project / "out" / "results.json").read_text(encoding="utf-8"))
    assert list(document["metrics"]["dimensions"]) == ["SUP/RESET"]
    assert 'classname="SUP.RESET.A"' in (project / "out" / "junit.xml").read_text(encoding="utf-8")
    assert "SUP/RESET" in (project / "out" / "comment.md").read_text(encoding="utf-8")


def test_declared_suites_refuse_other_names_and_say_which_are_declared(project: Path) -> None:
    _config(project, suites={"SUPPORT": ["RESET", "BILLING"], "B3": None})
    code, output = _gate("check")
    assert code == 2
    assert "cases/SUP-01.yaml:1: suite: 'SUP' is not declared in gate.yaml suites (declared: B3, SUPPORT)" in output
    assert not (project / "out").exists()
    (project / "cases" / "SUP-01.yaml").write_text(_case("SUP-01", "SUPPORT", "RESTE"),
                                                   encoding="utf-8")
    code, output = _gate("validate")
    assert code == 2
    assert ("suite SUPPORT in gate.yaml (declared: RESET, BILLING) — did you mean 'RESET'?") in output
    (project / "cases" / "SUP-01.yaml").write_text(_case("SUP-01", "B3", "ANY"),
                                                   encoding="utf-8")
    assert _gate("validate")[0] == 0  # a suite declared without a list accepts any dimension


@pytest.mark.parametrize("name", ["B3 QC", "1X", "", "a" * 40, "x/y"])
def test_a_suite_name_must_be_a_short_identifier(project: Path, name: str) -> None:
    (project / "cases" / "SUP-01.yaml").write_text(_case("SUP-01", json.dumps(name), "RESET"),
                                                   encoding="utf-8")
    code, output = _gate("validate")
    assert code == 2 and "suite" in output


def test_gate_validate_reads_gate_yaml(project: Path) -> None:
    (project / "gate.yaml").write_text("suites: {SUP: [RESET]}\nthreshholds: {}\n", encoding="utf-8")
    code, output = _gate("validate")
    assert code == 2 and "threshholds" in output


def test_gate_validate_reports_every_problem_in_every_file_at_once(project: Path) -> None:
    broken = _case("SUP-01", "SUP", "RESET").replace("title:", "titel:")
    (project / "cases" / "SUP-01.yaml").write_text(broken, encoding="utf-8")
    other = _case("SUP-02", "SUP", "RESET").replace("items:count", "items:cuont")
    (project / "cases" / "SUP-02.yaml").write_text(other, encoding="utf-8")
    (project / "cases" / "SUP-03.yaml").write_text(_case("SUP-03", "SUPP", "RESET"),
                                                   encoding="utf-8")
    (project / "gate.yaml").write_text("suites: {SUP: [RESET]}\nthreshholds: {}\ngroups: [A, C]\n", encoding="utf-8")
    code, output = _gate("validate")
    assert code == 2
    lines = [line.replace(f"{project}/", "") for line in output.splitlines() if line.startswith("gate: error:")]
    assert lines == [
        "gate: error: gate.yaml:3: groups[1]: Input should be 'A' or 'B'",
        "gate: error: gate.yaml:2: threshholds: Extra inputs are not permitted — did you mean 'thresholds'?",
        "gate: error: cases/SUP-01.yaml:1: title: Field required",
        "gate: error: cases/SUP-01.yaml:4: titel: Extra inputs are not permitted — did you mean 'title'?",
        "gate: error: cases/SUP-02.yaml:13: constraints[0].check: unknown checker 'items:cuont' — did you mean "
        "'items:count'?",
        "gate: error: cases/SUP-03.yaml:1: suite: 'SUPP' is not declared in gate.yaml suites (declared: SUP) — did "
        "you mean 'SUP'?",
    ]
    assert "6 problem(s) in 4 file(s)" in output
    code, output = _gate("check")  # the other commands stop at the first problem, as before
    assert code == 2 and output.count("gate: error:") == 1
    assert "gate.yaml:3: groups[1]: Input should be 'A' or 'B' (+1 more error(s))" in output


def test_a_misspelt_checker_parameter_names_the_one_it_resembles(project: Path) -> None:
    case = _case("SUP-01", "SUP", "RESET").replace("{exact: 3}", "{exat: 3}")
    (project / "cases" / "SUP-01.yaml").write_text(case, encoding="utf-8")
    code, output = _gate("validate")
    assert code == 2
    assert "constraints[0].params.exat: Extra inputs are not permitted — did you mean 'exact'?" in output
