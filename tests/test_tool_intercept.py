"""Simulated tools in the case file: what loads, what is refused with its place, what the agent
request carries."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gate.cases.loader import load_cases
from gate.errors import GateError
from gate.runs.jobs import build_request, plan

EXAMPLE = Path(__file__).resolve().parent / "data" / "toolsim" / "SUP-SIM-01.yaml"


def _write(tmp_path: Path, **changes: object) -> Path:
    case = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    case["input"].update(changes)
    (tmp_path / "SUP-SIM-01.yaml").write_text(yaml.safe_dump(case, sort_keys=False), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("changes", "message"), [
    ({"tool_intercepts": [{"tool": "t", "args": {"id": "re:[0-9"}, "result": "x"}]},
     "input.tool_intercepts[0].args: id: 're:[0-9' is not a regular expression (unterminated character set at position 0)"),
    ({"tool_intercepts": [{"tool": "t", "result": "x", "delay_s": 31}]},
     "input.tool_intercepts[0].delay_s: Input should be less than or equal to 30"),
    ({"tool_intercepts": [{"tool": "t", "result": "x", "match": "exact"}]}, "input.tool_intercepts[0]: match: exact needs args"),
    ({"tool_intercepts": [{"tool": "t", "result": "x", "sets": {"a-b": "1"}}]},
     "input.tool_intercepts[0].sets: state key 'a-b' must be a name (letters, digits, _)"),
    ({"tool_intercepts": [{"tool": "t", "result": "{state.typo}", "sets": {"status": "1"}}], "tool_state": {}},
     "input: tool_intercepts read state ['typo'] that no intercept sets and tool_state does not start"),
], ids=["bad-pattern", "delay-bound", "exact-without-args", "state-key", "state-typo"])
def test_a_bad_simulation_is_refused_at_load_naming_its_place(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    with pytest.raises(GateError) as info:
        load_cases(_write(tmp_path, **changes))
    assert message in str(info.value)
    assert "SUP-SIM-01.yaml" in str(info.value)


def test_a_state_key_set_by_an_intercept_needs_no_start_value(tmp_path: Path) -> None:
    intercepts = [{"tool": "t", "result": "{state.s}", "sets": {"s": "{args.s}"}}]
    assert load_cases(_write(tmp_path, tool_intercepts=intercepts, tool_state={})).cases


def test_the_request_carries_the_simulation_and_an_old_intercept_as_it_always_was(tmp_path: Path) -> None:
    old = {"tool": "search", "result": "r"}
    case = load_cases(_write(tmp_path, tool_intercepts=[old], tool_state={})).cases["SUP-SIM-01"]
    (job,) = plan([case], ("A",))
    request = build_request(job)
    assert request["tool_intercepts"] == [{"tool": "search", "result": "r", "is_error": False}]
    assert "tool_state" not in request

    (job,) = plan(list(load_cases(EXAMPLE.parent).cases.values()), ("A",))
    request = build_request(job)
    assert request["tool_state"] == {"status_7": "open"}
    assert request["tool_intercepts"][0] == {"tool": "update_ticket", "result": '{"id": 7, "status": "{args.status}"}',
                                             "is_error": False, "args": {"id": 7, "status": "re:open|closed"},
                                             "sets": {"status_7": "{args.status}"}}
    assert request["tool_intercepts"][2]["match"] == "exact" and request["tool_intercepts"][2]["delay_s"] == 1.5


def test_the_example_case_validates_with_its_pass_and_fail_examples(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from gate.cli.app import main

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["validate", "--full", "--cases", str(EXAMPLE.parent)], catch_exceptions=False)
    assert (result.exit_code, result.stdout) == (0, "1 cases valid; 2 examples judged as their cases say\n")
