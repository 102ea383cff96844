"""`gate run --record-tools`: the calls a live agent made, written as replay intercepts that load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gate.cases.loader import load_cases

from .cli import invoke

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "toolsim" / "SUP-SIM-01.yaml"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    case = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    case["input"] = {"messages": case["input"]["messages"]}  # the live agent's tools answer, not intercepts
    case["repeats"] = 2
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "SUP-SIM-01.yaml").write_text(yaml.safe_dump(case, sort_keys=False), encoding="utf-8")
    config = {"agent": {"adapter": "python", "function": "tests.commands.ticket_agent:answer", "cache": False},
              "groups": ["A"], "baseline": "none.json", "out_dir": "out"}
    (tmp_path / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    return tmp_path


def test_the_calls_made_are_recorded_once_each_and_load_back_as_replay(project: Path) -> None:
    code, out, err = invoke("run", "--record-tools", "recorded")
    assert code == 0, err
    assert out.splitlines()[-1] == "recorded the tool calls of 1 case(s) → recorded"
    fragment = yaml.safe_load((project / "recorded" / "SUP-SIM-01.tools.yaml").read_text(encoding="utf-8"))
    assert fragment == {"tool_replay": True, "tool_intercepts": [  # two runs, the same calls: each once
        {"tool": "update_ticket", "args": {"id": 7, "status": "closed", "note": "re:re:\\ call"}, "match": "exact",
         "result": '{"id": 7, "status": "closed"}', "is_error": False},
        {"tool": "get_ticket", "args": {"id": 7}, "match": "exact", "result": '{"id": 7, "status": "closed"}',
         "is_error": False}]}

    case_path = project / "cases" / "SUP-SIM-01.yaml"
    case = yaml.safe_load(case_path.read_text(encoding="utf-8"))
    case["input"].update(fragment)
    case_path.write_text(yaml.safe_dump(case, sort_keys=False), encoding="utf-8")
    assert load_cases(project / "cases").cases["SUP-SIM-01"].input.tool_replay  # type: ignore[union-attr]


def test_an_unwritable_recording_place_is_refused_before_any_agent_call(project: Path) -> None:
    (project / "recorded").write_text("a file, not a directory", encoding="utf-8")
    code, _, err = invoke("run", "--record-tools", "recorded")
    assert code == 2 and "recorded: the report directory cannot be written" in err
    assert not (project / "out").exists()
