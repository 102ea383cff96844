"""JSON Schemas generated from the models: case files, gate.yaml, results.json, and the semantic
tier's judge.json, judge-calibration.json and reviews file.

The case schema types each checker's parameters (an editor completes ``params`` once ``check`` is
chosen); the committed copies under ``gate/data/`` are what the repository's YAML files point at
(``# yaml-language-server: $schema=…``) and what CI validates them with (check-jsonschema).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

DRAFT = "https://json-schema.org/draft/2020-12/schema"
NAMES = ("case", "config", "results", "judge", "calibration", "reviews")


def _rebased(node: Any, prefix: str) -> Any:
    """``node`` with every local ``$ref`` pointing at ``prefix``-named definitions."""
    if isinstance(node, dict):
        return {key: (f"#/$defs/{prefix}{value.removeprefix('#/$defs/')}" if key == "$ref" and isinstance(value, str)
                      else _rebased(value, prefix)) for key, value in node.items()}
    if isinstance(node, list):
        return [_rebased(item, prefix) for item in node]
    return node


def case_schema() -> dict[str, Any]:
    """A case file: the Case model, with ``check`` one of the registered ids and ``params`` typed
    by that checker's own parameter model."""
    from gate.case import Case
    from gate.checkers import REGISTRY

    schema = Case.model_json_schema(by_alias=True)
    defs = schema.setdefault("$defs", {})
    constraint = defs["Constraint"]
    constraint["properties"]["check"] = {"anyOf": [{"enum": sorted(REGISTRY)}, {"type": "null"}],
                                         "description": "A registered checker id (see `gate checkers`)."}
    branches = []
    for check_id, checker in sorted(REGISTRY.items()):
        prefix = "".join(part.title() for part in check_id.replace(":", "_").split("_")) + "_"
        params = _rebased(checker.params.model_json_schema(), prefix)
        for name, definition in params.pop("$defs", {}).items():
            defs[f"{prefix}{name}"] = definition
        params.pop("title", None)
        branches.append({"if": {"properties": {"check": {"const": check_id}}, "required": ["check"]},
                         "then": {"properties": {"params": params}}})
    constraint["allOf"] = branches
    return {"$schema": DRAFT, "title": "agent-gate case file", **schema}


def config_schema() -> dict[str, Any]:
    """gate.yaml."""
    from gate.config.gate_yaml import GateConfig

    return {"$schema": DRAFT, "title": "agent-gate gate.yaml", **GateConfig.model_json_schema(by_alias=True)}


def results_schema() -> dict[str, Any]:
    """results.json as `gate check`, `gate merge` and `gate eval --json` write it."""
    from gate.results import ResultsFile

    return _model_schema("agent-gate results.json", ResultsFile)


def _model_schema(title: str, model: type[BaseModel]) -> dict[str, Any]:
    return {"$schema": DRAFT, "title": title, **model.model_json_schema(by_alias=True)}


def judge_schema() -> dict[str, Any]:
    """judge.json as `gate judge` writes it."""
    from gate.semantic.document import JudgeDocument

    return _model_schema("agent-gate judge.json", JudgeDocument)


def calibration_schema() -> dict[str, Any]:
    """judge-calibration.json as `gate judge --calibrate` writes it."""
    from gate.semantic.document import CalibrationDocument

    return _model_schema("agent-gate judge-calibration.json", CalibrationDocument)


def reviews_schema() -> dict[str, Any]:
    """reviews/reviews.yaml, the human verdicts."""
    from gate.semantic.reviews import ReviewsFile

    return _model_schema("agent-gate reviews file", ReviewsFile)


def schema(name: str) -> dict[str, Any]:
    return {"case": case_schema, "config": config_schema, "results": results_schema, "judge": judge_schema,
            "calibration": calibration_schema, "reviews": reviews_schema}[name]()
