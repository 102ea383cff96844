"""An agent and a checker for the uncertain-verdict tests, both in process.

The agent answers a numbered list of three picks; for the (case, group) pairs named in ``UNSURE``
(``CASE:GROUP`` entries, comma-separated) it adds a plan before the list, which the checker
``test:two_readings`` cannot tell from the picks: that answer is uncertain, with both readings.
The checker exists only in the tests: :func:`register` adds it to the registry for one test.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from gate.checkers import REGISTRY
from gate.checkers.base import Params, checker
from gate.subject import Subject
from gate.verdict import Outcome, Reading, Status

PICKS = "1. Bose\n2. Apple\n3. 华为"
PLAN = "PLAN\n1. compare prices\n2. check stock\n\n"
CHECK = "test:two_readings"


def answer(request: dict[str, Any]) -> dict[str, Any]:
    unsure = f"{request['case_id']}:{request['group']}" in os.environ.get("UNSURE", "").split(",")
    return {"case_id": request["case_id"], "group": request["group"], "run": request["run"],
            "final_answer": (PLAN if unsure else "") + PICKS, "tool_calls": []}


class ExactParams(Params):
    exact: int


@checker(CHECK, ExactParams, "the numbered picks, unsure when a plan precedes them")
def two_readings(subject: Subject, params: ExactParams) -> Outcome:
    items = len(re.findall(r"^\d+\. ", subject.answer, flags=re.MULTILINE))
    detail = f"{items} items found, expected {params.exact}"
    if not subject.answer.startswith("PLAN"):
        return Outcome.of(items == params.exact, detail)
    picks = items - 2
    readings = (Reading(label=f"{picks} items from the numbered list", verdict=_verdict(picks == params.exact),
                        why="the last list is the picks"),
                Reading(label=f"{items} entries of a plan list and the picks", verdict=_verdict(items == params.exact),
                        why="the plan's entries read as picks"))
    if readings[0].verdict is readings[1].verdict:
        return Outcome.of(picks == params.exact, detail, readings=readings)
    return Outcome.uncertain(f"{picks} or {items} items: a plan may precede the picks", readings=readings)


def _verdict(ok: bool) -> Status:
    return Status.PASS if ok else Status.FAIL


def register(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``test:two_readings`` a checker for the rest of the test."""
    monkeypatch.setitem(REGISTRY, CHECK, two_readings)
