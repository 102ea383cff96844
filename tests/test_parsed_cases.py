"""Case files as YAML parsed them, kept by the digest of their bytes: an unchanged file is not
parsed again, and what comes back is validated like a fresh parse."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from casefiles import case_yaml

from gate.cases.loader import load_cases
from gate.cases.parsed_cases import ParsedCases, parsed_cases
from gate.errors import GateError
from gate.files import yamlio
from gate.files.jsonstore import flush

THREE = '{id: three, check: "items:count", params: {exact: 3}}'


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The case files YAML parsed."""
    parsed: list[str] = []
    real = yamlio.load
    monkeypatch.setattr(yamlio, "load", lambda path, text=None: parsed.append(Path(path).stem) or real(path, text))
    return parsed


def write(root: Path, case_id: str, extra: str = "") -> None:
    (root / f"{case_id}.yaml").write_text(
        case_yaml([THREE], ["1. a\n2. b\n3. c"], [("1. a", ["three"])], case_id=case_id, extra=extra), encoding="utf-8")


def test_an_unchanged_file_is_not_parsed_again(tmp_path: Path, parses: list[str]) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    for case_id in ("QC-01", "QC-02"):
        write(cases, case_id)
    store = ParsedCases(tmp_path / "kept", "build-1")
    first = load_cases(cases, parsed=store)
    assert parses == ["QC-01", "QC-02"]
    again = load_cases(cases, parsed=store)
    assert parses == ["QC-01", "QC-02"]
    assert again.cases == first.cases and again.digest == first.digest
    assert [(c.path, c.line) for c in again.cases.values()] == [(c.path, c.line) for c in first.cases.values()]
    write(cases, "QC-02", extra="notes: edited")
    assert load_cases(cases, parsed=store).cases["QC-02"].notes == "edited"
    assert parses[2:] == ["QC-02"]
    load_cases(cases, parsed=ParsedCases(tmp_path / "kept", "build-2"))  # another build parses again
    assert parses[3:] == ["QC-01", "QC-02"]


def test_what_json_cannot_give_back_and_invalid_files_are_not_kept(tmp_path: Path, parses: list[str]) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    write(cases, "QC-01", extra="notes: [2025-05-10]")  # a list where the case wants text: refused
    store = ParsedCases(tmp_path / "kept", "b")
    for _ in range(2):
        with pytest.raises(GateError, match="notes"):
            load_cases(cases, parsed=store)
    assert parses == ["QC-01", "QC-01"] and not list((tmp_path / "kept").rglob("*.json"))
    store.put(b"x", {1: "a"})  # an integer key would come back a string
    store.put(b"y", {"context": {"day": datetime.date(2025, 5, 10)}})  # a date in a valid case's context
    assert store.get(b"x") is None and store.get(b"y") is None
    store.put(b"z", {"id": "QC-01", "n": 1.0, "ok": True})
    assert store.get(b"z") == {"id": "QC-01", "n": 1.0, "ok": True}


def test_a_corrupt_entry_is_parsed_again_and_ci_reads_none(tmp_path: Path, parses: list[str]) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    write(cases, "QC-01")
    store = ParsedCases(tmp_path / "kept", "b")
    load_cases(cases, parsed=store)
    flush()  # on disk, as a command leaves it
    for entry in (tmp_path / "kept").rglob("*.json"):
        entry.write_text('{"schema": "gate.parsed-case/v1", "build": "b", "data": {"id": "QC-01"', encoding="utf-8")
    assert "QC-01" in load_cases(cases, parsed=store).cases
    assert parses == ["QC-01", "QC-01"]
    assert parsed_cases(tmp_path, {"CI": "true"}) is None
    assert parsed_cases(None, {}) is None  # no gate.yaml: no project cache
    assert parsed_cases(tmp_path, {}) is not None
