"""Shared by the input-file tests: a sound case file, a record that passes it, the CLI in a temporary directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from casefiles import qc_case
from click.testing import CliRunner, Result

from gate.cli.app import main

CASE = qc_case(flow_params=False)

RECORD = {"case_id": "QC-01", "group": "A", "run": 0, "final_answer": "1. Bose\n2. Apple\n3. 华为"}


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def gate(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def validate(case_text: str) -> Result:
    """`gate validate` of one case file, cases/QC-01.yaml, holding ``case_text``."""
    Path("cases").mkdir(exist_ok=True)
    Path("cases/QC-01.yaml").write_text(case_text, encoding="utf-8")
    return gate("validate", "--cases", "cases")
