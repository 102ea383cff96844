"""A UTF-8 byte-order mark at the start of a YAML or JSONL input, as Windows editors write it, is accepted."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import CASE, RECORD, gate, validate

BOM = "\ufeff"


def test_a_bom_is_accepted_at_the_start_of_a_case_file_and_gate_yaml() -> None:
    assert validate(BOM + CASE).exit_code == 0
    Path("gate.yaml").write_text(BOM + "cases: {path: nowhere}\n", encoding="utf-8")
    result = gate("check")
    assert result.stderr.endswith("/nowhere: case directory not found\n"), result.stderr  # the config was read


def test_a_bom_is_accepted_at_the_start_of_a_trajectory_file() -> None:
    validate(CASE)
    Path("runs.jsonl").write_text(BOM + json.dumps(RECORD, ensure_ascii=False) + "\n", encoding="utf-8")
    result = gate("eval", "--cases", "cases", "--trajectories", "runs.jsonl")
    assert result.exit_code == 0, result.output
    assert "PASS" in result.stdout


def test_a_bom_is_accepted_at_the_start_of_a_replay_file() -> None:
    validate(CASE)
    Path("runs.jsonl").write_text(BOM + json.dumps(RECORD, ensure_ascii=False) + "\n"
                                  + json.dumps({**RECORD, "group": "B"}, ensure_ascii=False) + "\n", encoding="utf-8")
    Path("gate.yaml").write_text(BOM + "agent: {adapter: replay, trajectories: runs.jsonl, cache: false}\n"
                                 "baseline: none.json\nout_dir: out\n", encoding="utf-8")
    result = gate("check")
    assert result.exit_code in (0, 1), result.output
    results = json.loads(Path("out/results.json").read_text(encoding="utf-8"))
    assert [r["status"] for r in results["results"]] == ["pass", "pass"]
