"""terms:forbidden on disguised spellings: the detail shows the original spelling with its invisible
characters named, the evidence quotes it as written, and the excuses read the canonical form."""

from __future__ import annotations

from typing import Any

from gate.checkers import REGISTRY
from gate.subject import Subject
from gate.trajectory import Trajectory
from gate.verdict import Outcome, Status


def _judged(params: dict[str, Any], answer: str) -> Outcome:
    checker = REGISTRY["terms:forbidden"]
    subject = Subject(Trajectory(case_id="T", group="A", run=0, final_answer=answer))
    return checker(subject, checker.params.model_validate(params))


def test_a_disguised_mention_fails_and_is_shown_as_written() -> None:
    outcome = _judged({"groups": ["sony"]}, "推荐 S\u200eo\x00ny 和 S\u0336o\u0336n\u0336y\u0336 耳机")
    assert outcome.status is Status.FAIL
    assert outcome.detail == ("2 forbidden mention(s): 'S[U+200E]o[U+0000]ny' (Sony) in answer; "
                              "'S\u0336o\u0336n\u0336y\u0336' (Sony) in answer")
    assert outcome.evidence == ("S\u200eo\x00ny", "S\u0336o\u0336n\u0336y\u0336")


def test_an_item_restating_the_filter_is_excused_through_invisible_characters() -> None:
    answer = ("1. **Bose QC Ultra**：\u200b\u200b\u200b\u200b不是索\u200e尼，降噪更强，2999 元\n"
              "2. **AirPods Max**：索\u034f尼之外的好选择，3999 元\n")
    outcome = _judged({"groups": ["sony"], "scope": "items"}, answer)
    assert outcome.status is Status.FAIL
    assert outcome.evidence == ("索\u034f尼",)
