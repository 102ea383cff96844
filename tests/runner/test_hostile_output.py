"""Agent output that looks like a trajectory but is hostile: an agent error for that run, never exit 3.

Each answer goes end to end through `gate check` — a command agent printing it, or a python
agent returning it — and the run must be recorded as an error naming what was wrong, with every
report written and results.json strict RFC 8259 JSON.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from casefiles import case_yaml
from click.testing import CliRunner

from gate.cli.app import main
from gate.files import safejson

CASE = case_yaml(["{id: count, check: items:count, params: {exact: 1}}"], ["1. a"], [("", ["count"])], prompt="推荐 1 款")

# Prints the file named by its argument, whatever the request: the hostile answer, byte for byte.
PRINTER = "import sys; sys.stdin.read(); sys.stdout.write(open(sys.argv[1], encoding='utf-8').read())"

DEEP = "[" * 100_000 + "]" * 100_000

HOSTILE_STDOUT = {
    "metadata-nested-100000-deep": ('{"final_answer": "1. a", "metadata": {"trace": ' + DEEP + "}}",
                                    "nested deeper than 100 levels at line 1 column 146"),
    "answer-nested-object-deep": ('{"final_answer": "1. a", "tool_calls": [{"name": "s", "args": '
                                  + '{"a": ' * 5000 + "1" + "}" * 5000 + "}]}",
                                  "nested deeper than 100 levels at line 1 column 645"),
    "integer-of-5000-digits": ('{"final_answer": "1. a", "metadata": {"usage": {"total_tokens": '
                               + "9" * 5000 + "}}}", "an integer of more than 100 digits at line 1 column 65"),
    "nan-latency": ('{"final_answer": "1. a",\n "metadata": {"latency_ms": NaN}}',
                    "NaN is not JSON; write null or a number at line 2 column 29"),
    "infinity-in-args": ('{"final_answer": "1. a", "tool_calls": [{"name": "search", "args": {"limit": -Infinity}}]}',
                         "-Infinity is not JSON; write null or a number at line 1 column 78"),
    "overflowing-float": ('{"final_answer": "1. a", "metadata": {"score": 1e999}}',
                          "the number 1e999 is too large for a float at line 1 column 48"),
    "tool-calls-a-string": (json.dumps({"messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": "search_restaurants(city='三亚')"}]}),
        "messages[1].tool_calls: must be a list of tool calls, got str"),
    "tool-calls-a-number": (json.dumps({"messages": [{"role": "assistant", "content": "1. a", "tool_calls": 3}]}),
                            "messages[0].tool_calls: must be a list of tool calls, got int"),
    "function-a-string": (json.dumps({"messages": [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": "search_restaurants"}]}]}),
        "messages[0].tool_calls[0].function: must be an object with a string 'name', got str"),
    "function-name-a-list": (json.dumps({"messages": [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": ["search"], "arguments": "{}"}}]}]}),
        "messages[0].tool_calls[0].function.name: must be a string, got list"),
    "arguments-a-number": (json.dumps({"messages": [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "search", "arguments": 42}}]}]}),
        "messages[0].tool_calls[0].function.arguments: must be a JSON object or a string of one, got int"),
    "content-part-text-a-number": (json.dumps({"messages": [
        {"role": "assistant", "content": [{"type": "text", "text": 42}]}]}),
        "messages[0].content[0].text: must be a string, got int"),
}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "B3-QC-01.yaml").write_text(CASE, encoding="utf-8")
    return tmp_path


def _strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in a report")
    return json.loads(text, parse_constant=refuse)


def _check(project: Path, agent: dict[str, Any], exit_code: int = 4) -> dict[str, Any]:
    """`gate check` with ``agent``; asserts no internal error and every report; the A run's record."""
    config = {"agent": {**agent, "cache": False, "retries": 0}, "groups": ["A"], "baseline": "none.json",
              "out_dir": "out"}
    (project / "gate.yaml").write_text(json.dumps(config), encoding="utf-8")
    result = CliRunner().invoke(main, ["check"], catch_exceptions=False)
    # an agent error in the one run of the group: the agent is unavailable (exit 4), never a crash
    assert result.exit_code == exit_code, result.output
    assert "Traceback" not in result.output
    for name in ("results.json", "junit.xml", "comment.md", "trajectories.jsonl"):
        assert (project / "out" / name).is_file(), name
    document = _strict((project / "out" / "results.json").read_text(encoding="utf-8"))
    for line in (project / "out" / "trajectories.jsonl").read_text(encoding="utf-8").splitlines():
        _strict(line)
    (run,) = document["results"]
    return dict(run)


@pytest.mark.parametrize(("stdout", "message"), HOSTILE_STDOUT.values(), ids=HOSTILE_STDOUT.keys())
def test_a_hostile_answer_on_stdout_is_an_agent_error(project: Path, stdout: str, message: str) -> None:
    (project / "answer.json").write_text(stdout, encoding="utf-8")
    run = _check(project, {"adapter": "command", "command": [sys.executable, "-c", PRINTER, "answer.json"]})
    assert run["status"] == "error"
    assert message in run["error"], run["error"]


HOSTILE_RETURNS = {
    "metadata-a-cycle": ("m = {}\nm['self'] = m\nANSWER = {'final_answer': '1. a', 'metadata': m}",
                         "metadata.self.self.self"),
    "metadata-10000-deep": ("m = {}\nfor _ in range(10_000):\n    m = {'child': m}\n"
                            "ANSWER = {'final_answer': '1. a', 'metadata': m}", ": nested deeper than 100 levels"),
    "metadata-a-billion-shared-lists": ("m = [1]\nfor _ in range(60):\n    m = [m, m]\n"
                                        "ANSWER = {'final_answer': '1. a', 'metadata': {'tree': m}}",
                                        "more than 20000 values"),  # the bound lowered below: see the test
    "metadata-a-datetime": ("import datetime\nANSWER = {'final_answer': '1. a', "
                            "'metadata': {'at': datetime.datetime(2025, 5, 10)}}",
                            "metadata.at: datetime is not a JSON type"),
    "metadata-nan": ("ANSWER = {'final_answer': '1. a', 'metadata': {'score': float('nan')}}",
                     "metadata.score: nan is not a JSON number"),
    "args-a-set": ("ANSWER = {'final_answer': '1. a', 'tool_calls': [{'name': 's', 'args': {'ids': {1, 2}}}]}",
                   "tool_calls[0].args.ids: set is not a JSON type"),
    "huge-integer": ("ANSWER = {'final_answer': '1. a', 'metadata': {'n': 10 ** 20000}}",
                     "metadata.n: an integer of more than 100 digits"),
}


@pytest.mark.parametrize(("module", "message"), HOSTILE_RETURNS.values(), ids=HOSTILE_RETURNS.keys())
def test_a_hostile_value_from_a_python_agent_is_an_agent_error(project: Path, module: str, message: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"hostile_agent_{hashlib.sha256(module.encode()).hexdigest()[:12]}"  # not one cached module for all
    (project / f"{name}.py").write_text(module + "\n\ndef run(request):\n    return ANSWER\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(project))
    # The walk stops at the bound whatever it is; a lower one spares the million steps that cost
    # seconds under coverage; the bound itself is the one constant safejson.MAX_VALUES.
    monkeypatch.setattr(safejson, "MAX_VALUES", 20_000)
    run = _check(project, {"adapter": "python", "function": f"{name}:run"})
    assert run["status"] == "error"
    assert run["error"].startswith("the trajectory is not plain JSON: "), run["error"]
    assert message in run["error"], run["error"]
    assert len(run["error"]) < 400


def test_arguments_that_are_hostile_json_text_are_kept_raw(project: Path) -> None:
    # arguments are model-written text: unparseable or hostile JSON in them is judged, not an error
    answer = {"messages": [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "search", "arguments": DEEP}},
            {"id": "c2", "type": "function", "function": {"name": "search", "arguments": '{"limit": NaN}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "[]"},
        {"role": "assistant", "content": "1. a"}]}
    (project / "answer.json").write_text(json.dumps(answer), encoding="utf-8")
    run = _check(project, {"adapter": "command", "command": [sys.executable, "-c", PRINTER, "answer.json"]},
                 exit_code=0)
    assert run["status"] == "pass", run


SURROGATES = "ANSWER = {'final_answer': '1. a\\ud83d', 'tool_calls': [{'name': 's\\udc00', 'args': {'q\\ud800': ['\\udfff']}}], 'metadata': {'note\\ud800': 'x\\ud800y'}}"


def test_lone_surrogates_from_a_python_agent_are_replaced_and_every_report_written(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "surrogate_agent.py").write_text(SURROGATES + "\n\ndef run(request):\n    return ANSWER\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(project))
    run = _check(project, {"adapter": "python", "function": "surrogate_agent:run"}, exit_code=0)
    assert run["error"] is None and run["status"] == "fail", run  # judged: "1. a?" is no list of one
    (record,) = [json.loads(line) for line in (project / "out" / "trajectories.jsonl").read_text(encoding="utf-8").splitlines()]
    assert record["final_answer"] == "1. a?"
    assert record["tool_calls"][0]["name"] == "s?" and record["tool_calls"][0]["args"] == {"q?": ["?"]}
    assert record["metadata"]["note?"] == "x?y"


def test_lone_surrogates_escaped_in_a_json_answer_are_replaced(project: Path) -> None:
    answer = '{"final_answer": "1. a", "metadata": {"trace\\ud800": ["\\udc00 half an emoji \\ud83d"]}}'
    (project / "answer.json").write_text(answer, encoding="utf-8")
    _check(project, {"adapter": "command", "command": [sys.executable, "-c", PRINTER, "answer.json"]}, exit_code=0)
    (record,) = [json.loads(line) for line in (project / "out" / "trajectories.jsonl").read_text(encoding="utf-8").splitlines()]
    assert record["metadata"]["trace?"] == ["? half an emoji ?"]


def test_lone_surrogates_in_a_replayed_record_are_replaced(project: Path) -> None:
    record = '{"case_id": "B3-QC-01", "group": "A", "run": 0, "final_answer": "1. a", "metadata": {"k\\ud800": "v\\uDC00"}, ' \
             '"tool_calls": [{"name": "s", "args": {"q": "\\ud83d"}}]}\n'
    (project / "runs.jsonl").write_text(record, encoding="utf-8")
    _check(project, {"adapter": "replay", "trajectories": "runs.jsonl"}, exit_code=0)
    (written,) = [json.loads(line) for line in (project / "out" / "trajectories.jsonl").read_text(encoding="utf-8").splitlines()]
    assert written["metadata"]["k?"] == "v?" and written["tool_calls"][0]["args"] == {"q": "?"}
