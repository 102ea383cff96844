"""`gate merge` refuses shards that do not belong together."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate.commands.merge import merge_shards, read_results
from gate.config.gate_yaml import GateConfig
from gate.errors import GateError
from gate.pipeline.stages import CheckSettings


def shard(tmp_path: Path, name: str, **fields: object) -> Path:
    document = {"schema": "gate.results/v1", "cases_digest": "sha256:a", "identity": {"config": "x"},
                "shard": {"k": 1, "n": 2}, "results": [], "metrics": {}, "findings": [], "passed": True, **fields}
    path = tmp_path / name / "results.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def settings(tmp_path: Path) -> CheckSettings:
    return CheckSettings(config=GateConfig(), baseline=tmp_path / "b.json", out_dir=tmp_path / "out")


@pytest.mark.parametrize(("second", "message"), [
    ({"shard": {"k": 2, "n": 3}}, "shards of different splits cannot be merged: N = [2, 3]"),
    ({"shard": {"k": 1, "n": 2}}, "shard 1/2 given twice"),
    ({"shard": {"k": 2, "n": 2}, "cases_digest": "sha256:b"}, "the shards ran on different case sets (cases_digest differs)"),
    ({"shard": {"k": 2, "n": 2}, "identity": {"config": "y"}}, "the shards ran with different agents or configs (identity differs)"),
    ({"shard": None}, "not a shard's results (no shard K/N recorded); run `gate check --shard K/N`"),
    ({"shard": {"k": 3, "n": 2}}, "shard 3/2 is not a shard of 2"),
])
def test_mismatched_shards_are_refused(tmp_path: Path, second: dict, message: str) -> None:
    files = [shard(tmp_path, "s1"), shard(tmp_path, "s2", **second)]
    with pytest.raises(GateError) as info:
        merge_shards(files, settings(tmp_path))
    assert message in str(info.value)


@pytest.mark.parametrize(("content", "message"), [
    ("{", "not a results.json: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ('{"schema": "other"}', "not a results.json: schema must be 'gate.results/v1'"),
    ('{"schema": "gate.results/v1", "cases_digest": "x", "passed": true, "metrics": {}, "findings": [], '
     '"results": [{"case_id": "C", "group": "A", "run": -1, "status": "pass"}]}',
     "not a results.json: results[0].run: Input should be greater than or equal to 0"),
    ('{"schema": "gate.results/v1", "cases_digest": "x", "passed": "yes", "metrics": {}, "findings": [], "results": []}',
     "not a results.json: passed: Input should be a valid boolean"),
])
def test_unreadable_results_are_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "results.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(GateError) as info:
        read_results(path)
    assert str(info.value) == f"{path}: {message}"
    with pytest.raises(GateError, match="results file not found"):
        read_results(tmp_path / "missing.json")


def test_the_same_file_twice_is_refused(tmp_path: Path) -> None:
    path = shard(tmp_path, "s1")
    with pytest.raises(GateError, match="shard 1/2 given twice"):
        merge_shards([path, path], settings(tmp_path))
