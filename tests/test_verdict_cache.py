"""Verdicts kept beside the answer cache: an unchanged answer to an unchanged case is not judged again."""

from __future__ import annotations

from pathlib import Path

import pytest

from gate.files.jsonstore import flush
from gate.judging import evaluate as evaluate_mod
from gate.judging.evaluate import Judgements
from gate.judging.verdict_cache import VerdictStore, verdict_store
from gate.scoring.readings import Readings
from gate.trajectory import Trajectory
from gate.verdict import RunVerdict
from tests.casefiles import repo_cases

ROOT = Path(__file__).resolve().parents[1]
CASE_SET = repo_cases()
RUNS = [Trajectory(case_id=case_id, group="A", run=run, final_answer=answer, metadata={"latency_ms": run})
        for run, (case_id, answer) in enumerate([
            ("X-SD-01", "1. Bose QC Ultra\n2. Sony WH-1000XM5\n3. AirPods Max"),  # measures consistency
            ("B3-QC-01", "1. Bose\n2. Apple\n3. 华为"), ("B3-QC-01", "1. Bose\n2. Apple")])]


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The runs the checkers judged (not taken from the store)."""
    runs: list[int] = []
    real = evaluate_mod.evaluate
    monkeypatch.setattr(evaluate_mod, "evaluate", lambda case, t, **kw: runs.append(t.run) or real(case, t, **kw))
    return runs


def judge(store: VerdictStore | None, readings: Readings, digests: dict[str, str] | None = None) -> list[RunVerdict]:
    judgements = Judgements(CASE_SET.cases, 5.0, readings, store, CASE_SET.file_digests if digests is None else digests)
    verdicts = [judgements(t) for t in RUNS]
    flush()  # the kept verdicts on disk, as a command leaves them
    return verdicts


def test_a_rerun_takes_every_verdict_and_consistency_field_from_the_store(tmp_path: Path, judged: list[int]) -> None:
    first_fields, second_fields = Readings(), Readings()
    first = judge(VerdictStore(tmp_path, 5.0, "build-1"), first_fields)
    assert judged == [0, 1, 2]
    second = judge(VerdictStore(tmp_path, 5.0, "build-1"), second_fields)
    assert judged == [0, 1, 2]  # nothing judged again
    assert second == first == judge(None, Readings())
    assert second_fields.fields_of(RUNS[0]) == first_fields.fields_of(RUNS[0]) is not None


@pytest.mark.parametrize("changed", ["build", "budget", "case file"])
def test_another_build_budget_or_case_file_is_judged_again(tmp_path: Path, judged: list[int], changed: str) -> None:
    judge(VerdictStore(tmp_path, 5.0, "build-1"), Readings())
    store = VerdictStore(tmp_path, 2.0 if changed == "budget" else 5.0, "build-2" if changed == "build" else "build-1")
    digests = {**CASE_SET.file_digests, "B3-QC-01": "sha256:edited"} if changed == "case file" else None
    judge(store, Readings(), digests)
    again = [1, 2] if changed == "case file" else [0, 1, 2]  # only B3-QC-01's file changed
    assert judged == [0, 1, 2, *again]


def test_a_corrupt_entry_is_judged_again_and_an_error_is_never_kept(tmp_path: Path, judged: list[int]) -> None:
    judge(VerdictStore(tmp_path, 5.0, "b"), Readings())
    for entry in tmp_path.rglob("*.json"):
        entry.write_text('{"schema": "gate.verdict-cache/v1", "status": "pass"', encoding="utf-8")
    judge(VerdictStore(tmp_path, 5.0, "b"), Readings())
    assert judged == [0, 1, 2, 0, 1, 2]
    hostile = Trajectory(case_id="B3-QC-01", group="A", run=9, final_answer="[" * 200_000)
    before = sorted(tmp_path.rglob("*.json"))
    verdict = Judgements(CASE_SET.cases, 0.001, None, VerdictStore(tmp_path, 0.001, "b"), CASE_SET.file_digests)(hostile)
    assert any(c.status.value == "error" for c in verdict.constraints)
    assert sorted(tmp_path.rglob("*.json")) == before  # the budget ran out: no verdict on the answer to keep


def test_no_store_without_an_answer_cache_or_in_ci(tmp_path: Path) -> None:
    assert verdict_store(None, 5.0, {}) is None
    assert verdict_store(tmp_path, 5.0, {"CI": "true"}) is None
    store = verdict_store(tmp_path, 5.0, {})
    assert store is not None
