"""Uncertain runs in the policy: a (case, group) whose runs the readers could not read one way is an
open decision naming both readings (a note when the baseline was uncertain there too), and a
never-rule left uncertain is an error whatever the baseline says."""

from __future__ import annotations

from typing import Any

from gate.baseline.store import Acceptance
from gate.case import Case
from gate.config.decision import DecisionConfig
from gate.policy import uncertain
from gate.policy.thresholds import Level, verdict_of
from gate.report.wording import message_of
from gate.scoring.comparison import Comparison
from gate.verdict import ConstraintVerdict, Reading, RunCount, RunVerdict, Status

READINGS = (Reading(label="3 items from the numbered list", verdict=Status.PASS, why="it follows the request"),
            Reading(label="5 entries of a plan list", verdict=Status.FAIL, why="a plan lead-in may precede it"))
SAYS = ("`count` (run 1): read as «3 items from the numbered list» → pass (it follows the request); or as «5 "
        "entries of a plan list» → fail (a plan lead-in may precede it)")


def case(**rule: Any) -> Case:
    return Case.model_validate({
        "id": "QC-01", "suite": "B3", "dimension": "QC", "title": "t", "difficulty": "easy", "scoring": "auto",
        "groups": {"A": {"skill_enabled": False}, "B": {"skill_enabled": True}},
        "input": {"messages": [{"role": "user", "content": "推荐 3 款"}]},
        "constraints": [{"id": "count", "check": "items:count", "params": {"exact": 3}, **rule},
                        {"id": "plain", "check": "markdown:plain_text"}],
        "examples": {"pass": [{"final_answer": "a"}], "fail": [{"final_answer": "b", "fails": ["count"]}]}})


def run(index: int, count: Status, plain: Status = Status.PASS, group: str = "A") -> RunVerdict:
    readings = READINGS if count is Status.UNCERTAIN else ()
    constraints = (ConstraintVerdict(id="count", check="items:count", status=count, detail="3 or 5 items",
                                     readings=readings),
                   ConstraintVerdict(id="plain", check="markdown:plain_text", status=plain, detail="plain"))
    status = Status.FAIL if Status.FAIL in (count, plain) else count
    return RunVerdict(case_id="QC-01", group=group, run=index, status=status, constraints=constraints)


RUNS = [run(0, Status.PASS), run(1, Status.UNCERTAIN), run(2, Status.UNCERTAIN), run(0, Status.PASS, group="B")]


def baseline(before: RunCount) -> Comparison:
    return Comparison(present=True, counts={"QC-01": {"A": before}})


def test_uncertain_runs_where_the_baseline_read_every_run_are_an_open_decision() -> None:
    (found,) = uncertain.findings({"QC-01": case()}, RUNS, baseline(RunCount(passed=5, judged=5)), DecisionConfig())
    assert (found.level, found.rule, found.outcome, found.case_id, found.group) == (
        Level.WARNING, "needs-a-look", "inconclusive", "QC-01", "A")
    assert message_of(found) == ("QC-01 (A): 2 of 3 runs uncertain, left out of the pass rate and never counted as passes "
                             "(the baseline read all 5 of its runs of this pair); `gate review` settles it — " + SAYS)
    assert verdict_of([found], "error") == "inconclusive"


def test_no_baseline_says_nothing_is_known_and_fail_on_inconclusive_makes_it_fail_the_gate() -> None:
    settings = DecisionConfig(fail_on_inconclusive=True)
    (found,) = uncertain.findings({"QC-01": case()}, RUNS, Comparison(present=False), settings)
    assert (found.level, found.outcome) == (Level.ERROR, "inconclusive")
    assert "(no baseline record of this pair says whether it was read so before)" in message_of(found)
    (new_pair,) = uncertain.findings({"QC-01": case()}, RUNS, Comparison(present=True), DecisionConfig())
    assert new_pair.level is Level.WARNING and "no baseline record of this pair" in message_of(new_pair)


def test_a_baseline_uncertain_there_too_makes_it_a_known_note() -> None:
    before = RunCount(passed=3, judged=4, uncertain=1)
    (found,) = uncertain.findings({"QC-01": case()}, RUNS, baseline(before), DecisionConfig())
    assert (found.level, found.outcome) == (Level.INFO, None)
    assert message_of(found).startswith("known: QC-01 (A): 2 of 3 runs uncertain")
    assert "(the baseline had 1 of its 5 runs of this pair uncertain too)" in message_of(found)
    assert verdict_of([found], "warning") == "passed"


def test_a_run_that_failed_anyway_is_no_uncertain_run() -> None:
    failed = [run(0, Status.UNCERTAIN, plain=Status.FAIL)]
    assert failed[0].status is Status.FAIL
    assert uncertain.findings({"QC-01": case()}, failed, Comparison(present=False), DecisionConfig()) == []


def test_a_never_rule_left_uncertain_is_an_error_even_in_a_run_that_failed() -> None:
    runs = [run(0, Status.PASS), run(1, Status.UNCERTAIN, plain=Status.FAIL)]
    (found,) = uncertain.findings({"QC-01": case(zero_tolerance=True)}, runs,
                                  baseline(RunCount(passed=2, judged=4, uncertain=2)), DecisionConfig())
    assert (found.level, found.rule, found.outcome) == (Level.ERROR, "needs-a-look", None)
    assert message_of(found) == ("QC-01 (A): never-rule `count` uncertain in 1 of 2 runs — a possible violation of a "
                             "never-rule is not waved through; `gate review` settles it — " + SAYS)
    assert verdict_of([found], "error") == "failed"


def test_a_never_rule_is_named_once_and_an_acceptance_on_the_record_makes_it_a_warning() -> None:
    never = case(zero_tolerance=True)
    (found,) = uncertain.findings({"QC-01": never}, RUNS, Comparison(present=False), DecisionConfig())
    assert found.level is Level.ERROR  # no second, pair-level finding for the same constraint
    accepted = Acceptance(case_id="QC-01", constraint="count", reason="plans are fine", accepted_on="2026-12-01")
    (warned,) = uncertain.findings({"QC-01": never}, RUNS, Comparison(present=True, accepted=(accepted,)),
                                   DecisionConfig())
    assert warned.level is Level.WARNING
    assert "a possible case of a violation accepted on 2026-12-01" in message_of(warned)


def test_the_decision_carries_the_finding() -> None:
    from gate.config.gate_yaml import Thresholds
    from gate.policy.decide import decide
    from gate.scoring.metrics import compute

    cases = {"QC-01": case()}
    decided = decide(cases, RUNS, compute(cases, RUNS), Comparison(present=False), None, thresholds=Thresholds(),
                     settings=DecisionConfig(), fail_on="error")
    assert any(f.rule == "needs-a-look" and f.level is Level.WARNING for f in decided.findings)
    assert decided.passed and verdict_of(decided.findings, "error") == "inconclusive"
