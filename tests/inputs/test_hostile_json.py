"""Hostile JSON in files the gate reads — a recorded JSONL, a baseline, shard results: exit 2 at file:line.

The same answers that are an agent error when an agent sends them (deep nesting, huge integers,
NaN, OpenAI messages of the wrong shape) are unusable input when they sit in a file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import CASE, RECORD, gate, validate

GOOD = json.dumps(RECORD, ensure_ascii=False)

HOSTILE_LINES = {
    "nested-100000-deep": ('{"case_id": "QC-01", "group": "B", "run": 0, "final_answer": "x", "metadata": '
                           + "[" * 100_000 + "]" * 100_000 + "}",
                           "runs.jsonl:2: not valid JSON (nested deeper than 100 levels at column 178)"),
    "integer-of-3000-digits": ('{"case_id": "QC-01", "group": "B", "run": ' + "1" * 3000 + ', "final_answer": "x"}',
                               "runs.jsonl:2: not valid JSON (an integer of more than 100 digits at column 43)"),
    "nan": ('{"case_id": "QC-01", "group": "B", "run": 0, "final_answer": "x", "metadata": {"cost": NaN}}',
            "runs.jsonl:2: not valid JSON (NaN is not JSON; write null or a number at column 88)"),
    "infinity-as-run": ('{"case_id": "QC-01", "group": "B", "run": Infinity, "final_answer": "x"}',
                        "runs.jsonl:2: not valid JSON (Infinity is not JSON; write null or a number at column 43)"),
    "1e400": ('{"case_id": "QC-01", "group": "B", "run": 0, "final_answer": "x", "metadata": {"p": 1e400}}',
              "runs.jsonl:2: not valid JSON (the number 1e400 is too large for a float at column 85)"),
    "tool-calls-an-object": (json.dumps({"case_id": "QC-01", "group": "B", "run": 0, "messages": [
        {"role": "assistant", "content": "1. a", "tool_calls": {"name": "search"}}]}),
        "runs.jsonl:2: messages[0].tool_calls: must be a list of tool calls, got dict"),
    "function-a-list": (json.dumps({"case_id": "QC-01", "group": "B", "run": 0, "messages": [
        {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "function": ["search", "{}"]}]}]}),
        "runs.jsonl:2: messages[0].tool_calls[0].function: must be an object with a string 'name', got list"),
}


@pytest.mark.parametrize(("line", "message"), HOSTILE_LINES.values(), ids=HOSTILE_LINES.keys())
def test_a_hostile_line_in_a_recorded_jsonl_is_exit_2_at_its_line(line: str, message: str) -> None:
    validate(CASE)
    Path("runs.jsonl").write_text(GOOD + "\n" + line + "\n", encoding="utf-8")
    result = gate("eval", "--cases", "cases", "--trajectories", "runs.jsonl")
    assert (result.exit_code, result.stderr, result.stdout) == (2, f"gate: error: {message}\n", "")


def test_a_hostile_line_in_a_replay_file_is_exit_2_before_any_run() -> None:
    validate(CASE)
    Path("runs.jsonl").write_text(GOOD + "\n" + HOSTILE_LINES["nan"][0] + "\n", encoding="utf-8")
    Path("gate.yaml").write_text("agent: {adapter: replay, trajectories: runs.jsonl}\nout_dir: out\n", encoding="utf-8")
    result = gate("check")
    assert result.exit_code == 2
    assert result.stderr.endswith("runs.jsonl:2: not valid JSON (NaN is not JSON; write null or a number at column 88)\n")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"schema": "gate.baseline/v1",\n "dimensions": {"B3/QC": {"A": NaN}}}',
         "corrupt baseline: not valid JSON (NaN is not JSON; write null or a number, line 2)"),
        ('{"schema": "gate.baseline/v1", "cases": ' + "{\"a\": " * 50_000 + "1" + "}" * 50_000 + "}",
         "corrupt baseline: not valid JSON (nested deeper than 100 levels, line 1)"),
    ],
    ids=["nan-rate", "nested-50000-deep"],
)
def test_a_hostile_baseline_is_exit_2(text: str, message: str) -> None:
    validate(CASE)
    Path("base.json").write_text(text, encoding="utf-8")
    Path("gate.yaml").write_text("agent: {adapter: replay, trajectories: runs.jsonl}\nbaseline: base.json\n",
                                 encoding="utf-8")
    Path("runs.jsonl").write_text(GOOD + "\n", encoding="utf-8")
    result = gate("check", "--out-dir", "out")
    assert result.exit_code == 2, result.output
    assert result.stderr.endswith(f"base.json: {message}\n"), result.stderr


def test_shard_results_holding_infinity_are_exit_2() -> None:
    validate(CASE)
    Path("results.json").write_text('{"schema": "gate.results/v1", "metrics": {"overall": -Infinity}}', encoding="utf-8")
    result = gate("merge", "results.json", "--out-dir", "out")
    assert result.exit_code == 2, result.output
    assert result.stderr == ("gate: error: results.json: not a results.json: -Infinity is not JSON; write null or a"
                             " number: line 1 column 54 (char 53)\n")
