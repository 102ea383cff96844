"""The uncertain verdict in the contracts: what a checker may return, how constraints, combinators,
runs and (case, group)s combine it, how it is counted, and how the baseline records it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gate.baseline import store as baseline_mod
from gate.case import Case
from gate.judging.evaluate import evaluate
from gate.scoring.comparison import Comparison, from_metrics
from gate.scoring.metrics import attribute, case_status, compute, count_runs
from gate.trajectory import Trajectory
from gate.verdict import Outcome, Reading, RunVerdict, Status, combine
from tests.commands import unsure_agent

PASSES = Reading(label="3 items from the numbered list", verdict=Status.PASS)
FAILS = Reading(label="5 entries of a plan list", verdict=Status.FAIL)
UNSURE = unsure_agent.PLAN + unsure_agent.PICKS
COUNT = {"id": "count", "check": unsure_agent.CHECK, "params": {"exact": 3}}


def test_an_uncertain_outcome_holds_two_readings_that_disagree_and_chooses_none() -> None:
    outcome = Outcome.uncertain("3 or 5 items", readings=(PASSES, FAILS))
    assert outcome.status is Status.UNCERTAIN and outcome.readings == (PASSES, FAILS)
    with pytest.raises(ValueError, match="at least two readings that give different verdicts"):
        Outcome.uncertain("3 items", readings=(PASSES, PASSES.model_copy(update={"label": "3 rows"})))
    with pytest.raises(ValueError, match="rests on no chosen reading"):
        Outcome.uncertain("3 or 5", readings=(PASSES.model_copy(update={"chosen": True}), FAILS))


def test_a_pass_or_a_fail_records_its_chosen_reading_and_the_runner_up() -> None:
    chosen = PASSES.model_copy(update={"chosen": True, "why": "it follows the request"})
    outcome = Outcome.of(True, "3 items", readings=(chosen, FAILS.model_copy(update={"why": "plan lead-in"})))
    assert [r.describe() for r in outcome.readings] == [
        "«3 items from the numbered list» → pass, chosen (it follows the request)",
        "«5 entries of a plan list» → fail (plan lead-in)"]
    with pytest.raises(ValueError, match="the chosen reading must give the outcome's verdict"):
        Outcome.failed("5 items", readings=(chosen, FAILS))


@pytest.mark.parametrize(("statuses", "expected"), [
    ([Status.PASS, Status.UNCERTAIN], Status.UNCERTAIN),
    ([Status.UNCERTAIN, Status.FAIL], Status.FAIL),      # a decided failure: the run cannot pass either way
    ([Status.ERROR, Status.UNCERTAIN], Status.UNCERTAIN),  # a human can settle it; the error still stands after
    ([Status.SKIPPED, Status.UNCERTAIN], Status.UNCERTAIN),
    ([Status.PASS, Status.ERROR], Status.ERROR),
])
def test_a_run_is_uncertain_when_nothing_failed_and_a_constraint_is(statuses: list[Status], expected: Status) -> None:
    assert combine(statuses) is expected


def _case(*constraints: dict[str, Any]) -> Case:
    return Case.model_validate({
        "id": "T-1", "suite": "B3", "dimension": "QC", "title": "t", "difficulty": "easy", "scoring": "auto",
        "input": {"messages": [{"role": "user", "content": "推荐 3 款"}]},
        "groups": {"A": {"skill_enabled": False}}, "constraints": list(constraints),
        "examples": {"pass": [{"final_answer": "x"}], "fail": [{"final_answer": "y", "fails": ["c"]}]}})


def _judge(answer: str, constraint: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> RunVerdict:
    unsure_agent.register(monkeypatch)
    return evaluate(_case({"id": "c", **constraint}), Trajectory(case_id="T-1", group="A", run=0, final_answer=answer))


def test_a_checker_s_readings_reach_the_constraint_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    verdict = _judge(UNSURE, COUNT, monkeypatch)
    (constraint,) = verdict.constraints
    assert verdict.status is constraint.status is Status.UNCERTAIN
    assert [(r.label, r.verdict) for r in constraint.readings] == [
        ("3 items from the numbered list", Status.PASS), ("5 entries of a plan list and the picks", Status.FAIL)]
    assert verdict.uncertain() == [constraint] and verdict.failing() == []


PLAIN = {"check": "markdown:plain_text"}
LIST = {"check": "markdown:list"}


@pytest.mark.parametrize(("constraint", "status", "verdicts"), [
    # all_of: a failure outranks, then uncertain; each reading gives the whole its verdict
    ({"all_of": [{"id": "count", **COUNT}, LIST]}, Status.UNCERTAIN, [Status.PASS, Status.FAIL]),
    ({"all_of": [{"id": "count", **COUNT}, PLAIN]}, Status.FAIL, [Status.FAIL, Status.FAIL]),
    # any_of: a pass outranks, then uncertain
    ({"any_of": [{"id": "count", **COUNT}, PLAIN]}, Status.UNCERTAIN, [Status.PASS, Status.FAIL]),
    ({"any_of": [{"id": "count", **COUNT}, LIST]}, Status.PASS, [Status.PASS, Status.PASS]),
    # not: uncertain stays uncertain, each reading's verdict flipped
    ({"not": COUNT}, Status.UNCERTAIN, [Status.FAIL, Status.PASS]),
])
def test_combinators_combine_uncertain_and_carry_the_readings(constraint: dict[str, Any], status: Status,
                                                              verdicts: list[Status],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (verdict,) = _judge(UNSURE, constraint, monkeypatch).constraints
    assert verdict.status is status
    assert [r.verdict for r in verdict.readings] == verdicts
    prefix = "" if "not" in constraint else "count: "
    assert verdict.readings[0].label == prefix + "3 items from the numbered list"


def test_an_uncertain_whole_carries_only_its_uncertain_parts_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.checkers import REGISTRY
    from gate.checkers.base import Checker

    decided = Outcome.passed("3 items", readings=(PASSES.model_copy(update={"chosen": True}), FAILS))
    monkeypatch.setitem(REGISTRY, "test:decided", Checker("test:decided", unsure_agent.ExactParams,
                                                          lambda subject, params: decided, "decided, with readings"))
    other = {"id": "decided", "check": "test:decided", "params": {"exact": 3}}
    (whole,) = _judge(UNSURE, {"all_of": [{"id": "count", **COUNT}, other]}, monkeypatch).constraints
    assert whole.status is Status.UNCERTAIN
    assert [r.label for r in whole.readings] == ["count: 3 items from the numbered list",
                                                 "count: 5 entries of a plan list and the picks"]
    (passed,) = _judge(unsure_agent.PICKS, {"all_of": [{"id": "count", **COUNT}, other]}, monkeypatch).constraints
    assert passed.status is Status.PASS  # a decided whole keeps every part's readings, the chosen one too
    assert [(r.label, r.verdict, r.chosen) for r in passed.readings] == [
        ("decided: 3 items from the numbered list", Status.PASS, True),
        ("decided: 5 entries of a plan list", Status.FAIL, False)]


def _runs(*statuses: Status) -> list[RunVerdict]:
    return [RunVerdict(case_id="T-1", group="A", run=i, status=s) for i, s in enumerate(statuses)]


@pytest.mark.parametrize(("statuses", "expected"), [
    ((Status.PASS, Status.PASS, Status.UNCERTAIN), Status.PASS),        # a pass whatever the uncertain one is
    ((Status.PASS, Status.UNCERTAIN, Status.UNCERTAIN), Status.UNCERTAIN),  # never a pass because of them
    ((Status.UNCERTAIN,), Status.UNCERTAIN),
    ((Status.FAIL, Status.UNCERTAIN, Status.UNCERTAIN), Status.UNCERTAIN),  # could still pass by majority
    ((Status.FAIL, Status.FAIL, Status.UNCERTAIN), Status.FAIL),        # a failure whatever it is
    ((Status.ERROR, Status.UNCERTAIN), Status.ERROR),
    ((Status.SKIPPED, Status.UNCERTAIN), Status.UNCERTAIN),
])
def test_a_case_group_by_majority_is_decided_only_when_the_uncertain_runs_cannot_change_it(
        statuses: tuple[Status, ...], expected: Status) -> None:
    assert case_status(_runs(*statuses)) is expected


def test_uncertain_runs_are_left_out_of_the_rates_and_counted_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = [*_runs(Status.PASS, Status.FAIL), _judge(UNSURE, COUNT, monkeypatch).model_copy(update={"run": 2})]
    assert count_runs(runs).model_dump() == {"passed": 1, "judged": 2, "uncertain": 1}
    assert count_runs(runs).shown() == "1 of 2 runs, 1 uncertain"
    metrics = compute({"T-1": _case(COUNT)}, runs)
    group = metrics.overall["A"]
    assert (group.runs, group.passed, group.judged, group.uncertain, group.case_pass_rate) == (3, 1, 2, 1, 0.5)
    assert (group.constraints_passed, group.constraints_judged) == (0, 0)  # the three runs here carry none but one
    assert metrics.as_json()["overall"]["A"]["uncertain"] == 1  # type: ignore[index]


def test_no_one_is_blamed_while_group_a_is_uncertain() -> None:
    assert attribute({"A": Status.UNCERTAIN, "B": Status.FAIL}) is None
    assert attribute({"A": Status.PASS, "B": Status.UNCERTAIN}) is None


def test_the_baseline_records_uncertain_runs_and_old_files_still_load(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    runs = [_judge(UNSURE, COUNT, monkeypatch).model_copy(update={"run": i}) for i in range(2)]
    made = from_metrics(compute({"T-1": _case(COUNT)}, runs), cases_digest="sha256:x", identity={})
    path = tmp_path / "main.json"
    baseline_mod.write(path, made)
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["cases"] == {"T-1": {"A": {"passed": 0, "runs": 0, "uncertain": 2}}}
    loaded = baseline_mod.load(path)
    assert loaded is not None and loaded.count("T-1", "A") is not None
    assert loaded.count("T-1", "A").model_dump() == {"passed": 0, "judged": 0, "uncertain": 2}  # type: ignore[union-attr]
    old = {**stored, "cases": {"T-1": {"A": {"passed": 4, "runs": 5}}}}
    path.write_text(json.dumps(old), encoding="utf-8")
    assert baseline_mod.load(path).count("T-1", "A").uncertain == 0  # type: ignore[union-attr]
    path.write_text(json.dumps({**stored, "cases": {"T-1": {"A": {"passed": 0, "runs": 0}}}}), encoding="utf-8")
    with pytest.raises(Exception, match=r"runs must be ≥ 1 \(or uncertain ≥ 1"):
        baseline_mod.load(path)


def test_a_pair_uncertain_now_stands_apart_from_the_known_and_the_new() -> None:
    comparison = Comparison(present=True)
    assert comparison.state("T-1", "A", Status.UNCERTAIN) == "uncertain"


def test_an_example_that_reads_two_ways_fails_validation_naming_the_readings(monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.judging.selftest import check_examples

    unsure_agent.register(monkeypatch)
    case = Case.model_validate({**_case(COUNT).model_dump(by_alias=True, exclude_none=True),
                                "examples": {"pass": [{"final_answer": UNSURE}],
                                             "fail": [{"final_answer": "1. x", "fails": ["count"]}]}})
    (problem,) = check_examples(case)
    assert problem.message == (
        "pass[0]: constraint 'count' is uncertain, expected pass — 3 or 5 items: a plan may precede the picks (read "
        "as «3 items from the numbered list» → pass (the last list is the picks); or as «5 entries of a plan list and "
        "the picks» → fail (the plan's entries read as picks))")


def test_the_verdict_cache_keeps_an_uncertain_verdict_with_its_readings(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.files.jsonstore import flush
    from gate.judging.verdict_cache import VerdictStore

    verdict = _judge(UNSURE, COUNT, monkeypatch)
    VerdictStore(tmp_path, 5.0, "build-1").put("sha256:case", b"done", verdict, None)
    flush()
    stored = VerdictStore(tmp_path, 5.0, "build-1").get("T-1", "sha256:case", "A", b"done")
    assert stored is not None and stored.status is Status.UNCERTAIN
    assert stored.constraints == verdict.constraints  # the readings too
