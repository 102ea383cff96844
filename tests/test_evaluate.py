"""Combinators, judge rubrics, group-bound constraints and broken checkers, as a run's verdict sees them."""

from __future__ import annotations

from typing import Any

import pytest

from gate.case import Case
from gate.judging.evaluate import evaluate
from gate.trajectory import Trajectory
from gate.verdict import Status
from tests.casefiles import repo_cases

THREE = "1. Bose\n2. Apple\n3. 华为"
ASKS = "只找到 3 款符合条件的，是否需要我放宽预算再找两款？\n\n1. Bose\n2. Apple\n3. 华为"


def case(*constraints: dict[str, Any]) -> Case:
    return Case.model_validate({
        "id": "T-1", "suite": "B3", "dimension": "QC", "title": "t", "difficulty": "easy", "scoring": "auto",
        "input": {"messages": [{"role": "user", "content": "推荐 5 款"}]},
        "groups": {"A": {"skill_enabled": False}, "B": {"skill_enabled": True}},
        "constraints": list(constraints),
        "examples": {"pass": [{"final_answer": "x"}], "fail": [{"final_answer": "y", "fails": ["c"]}]},
    })


def judge(answer: str, *constraints: dict[str, Any], group: str = "A") -> tuple[Status, list[Status]]:
    verdict = evaluate(case(*constraints), Trajectory(case_id="T-1", group=group, run=0, final_answer=answer))
    return verdict.status, [c.status for c in verdict.constraints]


FIVE = {"check": "items:count", "params": {"exact": 5}}
SAYS_SO = {"all_of": [{"check": "text:acknowledges_limit"}, {"check": "text:asks_user"}]}


@pytest.mark.parametrize(("answer", "expected"), [
    (THREE, Status.FAIL),           # 3 items, silent: neither branch
    (ASKS, Status.PASS),            # 3 items, says so and asks
    (THREE.replace("3. 华为", "3. 华为\n4. 索尼\n5. 森海塞尔"), Status.PASS),
])
def test_five_items_or_says_it_cannot_and_asks(answer: str, expected: Status) -> None:
    assert judge(answer, {"id": "c", "any_of": [FIVE, SAYS_SO]})[0] is expected


def test_not_inverts_a_rule_and_passes_undecided_through() -> None:
    assert judge(THREE, {"id": "c", "not": FIVE})[0] is Status.PASS
    assert judge(THREE, {"id": "c", "not": {"check": "items:count", "params": {"exact": 3}}})[0] is Status.FAIL
    assert judge(THREE, {"id": "c", "not": {"judge": "语气自然"}})[0] is Status.SKIPPED


def test_a_branch_only_a_judge_decides_keeps_any_of_undecided() -> None:
    status, constraints = judge(THREE, {"id": "c", "any_of": [FIVE, {"judge": "说明了原因"}]})
    assert constraints == [Status.SKIPPED] and status is Status.SKIPPED


def test_all_of_fails_on_a_failing_rule_even_beside_a_judge() -> None:
    assert judge(THREE, {"id": "c", "all_of": [FIVE, {"judge": "说明了原因"}]})[0] is Status.FAIL
    assert judge(ASKS, {"id": "c", "all_of": [SAYS_SO, {"judge": "说明了原因"}]})[0] is Status.PASS


def test_constraints_bound_to_group_b_are_not_judged_in_a() -> None:
    bound = {"id": "c", "groups": ["B"], **FIVE}
    assert judge(THREE, bound, group="A") == (Status.SKIPPED, [])
    assert judge(THREE, bound, group="B") == (Status.FAIL, [Status.FAIL])


def test_a_failed_agent_call_is_an_error_not_a_verdict() -> None:
    verdict = evaluate(case({"id": "c", **FIVE}), Trajectory(case_id="T-1", group="A", run=0, error="HTTP 503 after 3 retries"))
    assert verdict.status is Status.ERROR and verdict.error == "HTTP 503 after 3 retries" and not verdict.constraints


def test_a_checker_that_crashes_is_an_error_and_does_not_hide_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.checkers import REGISTRY
    from gate.checkers.base import Checker

    def boom(subject: object, params: object) -> None:
        raise RuntimeError("bug")

    broken = REGISTRY["text:asks_user"]
    monkeypatch.setitem(REGISTRY, "text:asks_user", Checker(broken.id, broken.params, boom, broken.summary))  # type: ignore[arg-type]
    status, constraints = judge(THREE, {"id": "c", "check": "text:asks_user"}, {"id": "d", **FIVE})
    assert constraints == [Status.ERROR, Status.FAIL]
    assert status is Status.FAIL  # a decided failure outranks an undecided constraint


def test_a_repeat_that_answered_the_same_is_judged_once_and_keeps_its_own_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.judging import evaluate as evaluate_mod
    from gate.scoring.readings import Readings

    cases = repo_cases().cases
    judged: list[int] = []
    real = evaluate_mod.evaluate
    monkeypatch.setattr(evaluate_mod, "evaluate", lambda case, t, **kw: judged.append(t.run) or real(case, t, **kw))
    case_id = next(c.id for c in cases.values() if c.consistency is not None)
    same = "1. 甲\n2. 乙\n3. 丙"
    runs = [Trajectory(case_id=case_id, group="A", run=run, final_answer=same if run < 3 else same + "\n4. 丁",
                       metadata={"latency_ms": run}) for run in range(4)]
    readings = Readings()
    judgements = evaluate_mod.Judgements(cases, None, readings)
    verdicts = [judgements(t) for t in runs]
    assert judged == [0, 3]  # the two repeats of run 0 are not judged again; the other answer is
    assert [(v.run, v.metadata) for v in verdicts] == [(run, {"latency_ms": run}) for run in range(4)]
    assert verdicts[1].constraints == verdicts[0].constraints
    assert verdicts[1] == real(cases[case_id], runs[1])
    settings = cases[case_id].consistency
    assert settings is not None and readings.of(settings, runs[2], None) == readings.of(settings, runs[0], None)


def test_repeats_that_recorded_the_same_metadata_share_it_and_no_others() -> None:
    from gate.judging import evaluate as evaluate_mod

    judged = case({"id": "c", **FIVE})
    recorded: list[dict[str, Any]] = [{"agent": "a", "skills": []}, {"agent": "a", "skills": []},
                                      {"agent": "a", "skills": [], "n": 1}, {"agent": "a", "skills": [], "n": True},
                                      {"agent": "a", "skills": [], "n": 1.0}, {"agent": "a", "skills": []}]
    judgements = evaluate_mod.Judgements({judged.id: judged}, None)
    verdicts = [judgements(Trajectory(case_id=judged.id, group="A", run=run, final_answer=THREE, metadata=meta))
                for run, meta in enumerate(recorded)]
    assert [v.metadata for v in verdicts] == recorded
    assert [type(v.metadata.get("n")) for v in verdicts] == [type(None), type(None), int, bool, float, type(None)]
    assert verdicts[0].metadata is verdicts[1].metadata is verdicts[5].metadata  # one dict for the runs that recorded the same
    assert len({id(v.metadata) for v in verdicts}) == 4


def test_the_same_answer_in_another_group_or_case_is_parsed_once_and_judged_on_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from gate.judging import evaluate as evaluate_mod
    from gate.text import markdown

    parsed: list[str] = []
    real = markdown.MarkdownDoc.__init__

    def counting(self: markdown.MarkdownDoc, text: str) -> None:
        parsed.append(text)
        real(self, text)

    monkeypatch.setattr(markdown.MarkdownDoc, "__init__", counting)
    five, at_most_two = case({"id": "c", **FIVE}), case({"id": "c", "check": "items:count", "params": {"max": 2}})
    at_most_two = at_most_two.model_copy(update={"id": "T-2"})
    judgements = evaluate_mod.Judgements({"T-1": five, "T-2": at_most_two}, None)
    runs = [Trajectory(case_id=case_id, group=group, run=0, final_answer=THREE)
            for case_id in ("T-1", "T-2") for group in ("A", "B")]
    verdicts = [judgements(t) for t in runs]
    assert parsed == [THREE]  # four runs of two cases, one parse
    assert [v.status for v in verdicts] == [Status.FAIL, Status.FAIL, Status.FAIL, Status.FAIL]
    assert [v.constraints[0].detail for v in verdicts] == [evaluate(c, t).constraints[0].detail
                                                           for c, t in zip([five, five, at_most_two, at_most_two], runs, strict=True)]
    assert judgements(Trajectory(case_id="T-1", group="A", run=1, final_answer=THREE + "\n4. 索尼\n5. 森海塞尔")).status is Status.PASS


def test_the_answers_kept_for_sharing_are_bounded_and_a_huge_one_is_not_kept() -> None:
    from gate.subject import Answers

    answers = Answers(kept=2, longest=10)
    first = answers.of("one")
    assert answers.of("one") is first
    answers.of("two"), answers.of("three")  # "one" is the least recently used: it goes
    assert answers.of("one") is not first
    huge = "x" * 11
    assert answers.of(huge) is not answers.of(huge)
