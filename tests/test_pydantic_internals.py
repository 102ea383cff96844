"""The gate's models carry what validation does not give them (a config's directory, a case's file
and line, a constraint's parsed parameters) through methods of their own, never by writing into
pydantic's internals: a pydantic upgrade may move those, and a write there skips every check."""

from __future__ import annotations

import re
from pathlib import Path

from gate.case import Constraint
from gate.cases.loader import load_cases
from gate.config.gate_yaml import GateConfig, load_config, replaced

ROOT = Path(__file__).resolve().parents[1]
INTERNALS = re.compile(r"__pydantic_private__|__pydantic_fields_set__|object\.__setattr__")
ALLOWED = {Path("gate/model.py")}
"""SharedFieldNames shares one field-name set among instances (a memory saving): its one function."""


def test_nothing_outside_the_models_writes_into_pydantic_internals() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}"
             for folder in ("gate", "benchmarks", "examples") for path in sorted((ROOT / folder).rglob("*.py"))
             if path.relative_to(ROOT) not in ALLOWED
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if INTERNALS.search(line)]
    assert not found


def test_a_config_read_from_a_file_keeps_its_place_when_parts_are_replaced(tmp_path: Path) -> None:
    (tmp_path / "gate.yaml").write_text("repeats: 2\nout_dir: reports\n", encoding="utf-8")
    config = load_config(tmp_path / "gate.yaml")
    changed = replaced(config, repeats=1)
    assert (changed.repeats, changed.resolve("reports")) == (1, tmp_path / "reports")
    assert changed.derived_cache() == tmp_path / ".gate-cache"
    assert changed.place(("out_dir",)) == f"{tmp_path / 'gate.yaml'}:2"


def test_a_config_built_in_code_resolves_from_the_root_it_is_given(tmp_path: Path) -> None:
    config = GateConfig.validated({"repeats": 3}, root=tmp_path, read=False)
    assert (config.repeats, config.resolve("cases")) == (3, tmp_path / "cases")
    assert config.derived_cache() is None and config.place(("repeats",)) is None


def test_a_loaded_case_knows_its_file_line_and_parsed_parameters() -> None:
    case = next(c for c in load_cases(ROOT / "cases").cases.values() if any(k.check for k in c.constraints))
    assert case.path.endswith(f"{case.id}.yaml") and case.line >= 1
    rule = next(k for k in case.constraints if k.check)
    assert rule.parsed_params is not None
    assert Constraint.model_validate({"check": rule.check, "params": rule.params}).parsed_params is None
