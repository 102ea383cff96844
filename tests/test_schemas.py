"""The published JSON Schemas: generated from the models, current, and strict where the models are."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from gate.cli.app import main
from gate.commands.schemas import NAMES, schema

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", NAMES)
def test_the_committed_schema_is_current(name: str) -> None:
    printed = CliRunner().invoke(main, ["schema", name]).output
    path = ROOT / "schemas" / f"{name}.schema.json"
    if os.environ.get("GATE_UPDATE_GOLDEN"):
        path.write_text(printed, encoding="utf-8")
    assert printed == path.read_text(encoding="utf-8"), f"rerun `gate schema {name} > schemas/{name}.schema.json`"
    jsonschema.Draft202012Validator.check_schema(json.loads(printed))


@functools.lru_cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema(name))  # built once: generating a schema is the slow part


def _errors(name: str, document: Any) -> list[str]:
    return [error.message for error in _validator(name).iter_errors(document)]


def _case() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "cases" / "b3" / "B3-QC-01.yaml").read_text(encoding="utf-8"))


def test_every_case_file_and_gate_yaml_satisfy_their_schemas() -> None:
    for path in sorted((ROOT / "cases").rglob("*.yaml")):
        case = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)  # C: the pure-Python one is 8× slower
        assert _errors("case", case) == [], path
    assert _errors("config", yaml.safe_load((ROOT / "gate.yaml").read_text(encoding="utf-8"))) == []


def test_the_case_schema_knows_each_checker_s_params() -> None:
    case = _case()
    case["constraints"][0] = {"id": "n", "check": "items:count", "params": {"exact": "three", "most": 2}}
    errors = _errors("case", case)
    assert any("'three'" in e for e in errors) and any("'most'" in e for e in errors)
    case["constraints"][0] = {"id": "n", "check": "items:cuont", "params": {}}
    assert _errors("case", case)  # not a registered checker id
    case["constraints"][0] = {"id": "n", "check": "terms:forbidden", "params": {"groups": ["sony"], "scope": "items"}}
    assert _errors("case", case) == []


def test_the_results_schema_reads_a_real_results_file(tmp_path: Path) -> None:
    from gate.results import results_document, results_head
    from gate.verdict import RunVerdict, Status

    head = results_head(cases_digest="sha256:x", metrics={},
                        findings=[{"level": "info", "rule": "no-baseline", "message": "m"}], passed=True)
    document = json.loads(json.dumps(results_document(
        head, [RunVerdict(case_id="c", group="A", run=0, status=Status.PASS)])))
    assert _errors("results", document) == []
    assert _errors("results", {**document, "passed": "yes"})


def test_the_cli_offers_every_schema() -> None:
    from gate.cli.app import SCHEMA_NAMES

    assert SCHEMA_NAMES == NAMES
