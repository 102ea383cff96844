"""Models whose instances share their set of given field names: shared while nothing can change it,
never changed through another instance."""

from __future__ import annotations

import pytest
from pydantic import ConfigDict

from gate.case import Case, Constraint
from gate.model import SharedFieldNames
from gate.verdict import ConstraintVerdict, RunVerdict, Status


def test_verdicts_given_the_same_fields_share_one_set_of_their_names() -> None:
    first = ConstraintVerdict(id="count", check="items:count", status=Status.PASS, detail="3 items")
    second = ConstraintVerdict.model_validate({"id": "brand", "check": "terms:absent", "status": "fail",
                                               "detail": "mentions 索尼"})
    other = ConstraintVerdict(id="count", check="items:count", status=Status.FAIL, detail="4", evidence=("a",))
    assert first.model_fields_set is second.model_fields_set == {"id", "check", "status", "detail"}
    assert other.model_fields_set == {"id", "check", "status", "detail", "evidence"}
    runs = [RunVerdict(case_id=f"B3-QC-0{n}", group="A", run=0, status=Status.PASS, constraints=(first,))
            for n in range(3)]
    assert len({id(run.model_fields_set) for run in runs}) == 1


def test_what_a_report_keeps_per_case_shares_its_field_names_too() -> None:
    # 6,000 cases: two counts, an outcome and the consistency of each, built while every verdict is held
    from gate.scoring.metrics import compute
    from gate.scoring.repeats import FieldConsistency

    runs = [RunVerdict(case_id=f"B3-QC-0{n}", group=group, run=0, status=Status.PASS) for n in range(3) for group in "AB"]
    metrics = compute({f"B3-QC-0{n}": _case(f"B3-QC-0{n}") for n in range(3)}, runs)
    assert len({id(c.model_fields_set) for c in metrics.cases.values()}) == 1
    assert len({id(count.model_fields_set) for c in metrics.cases.values() for count in c.counts.values()}) == 1
    fields = [FieldConsistency(field="item_count", frequency=0.5 + n / 10, mode="3", distinct=2) for n in range(3)]
    assert len({id(f.model_fields_set) for f in fields}) == 1


def _case(case_id: str) -> Case:
    return Case.model_validate({
        "id": case_id, "suite": "B3", "dimension": "QC", "title": case_id, "difficulty": "easy", "scoring": "auto",
        "input": {"messages": [{"role": "user", "content": "3 个"}]},
        "groups": {"A": {"skill_enabled": False}, "B": {"skill_enabled": True}},
        "constraints": [{"id": "c", "check": "items:count", "params": {"exact": 3}}],
        "examples": {"pass": [{"final_answer": "1. a"}], "fail": [{"final_answer": "", "fails": ["c"]}]},
    })


def test_a_copy_with_changes_gets_a_set_of_its_own() -> None:
    first = ConstraintVerdict(id="count", check="items:count", status=Status.PASS, detail="3 items")
    second = ConstraintVerdict(id="n", check="items:count", status=Status.PASS, detail="2 items")
    judged = first.model_copy(update={"source": "judge"})
    assert judged.model_fields_set == {"id", "check", "status", "detail", "source"}
    assert first.model_fields_set == second.model_fields_set == {"id", "check", "status", "detail"}
    assert first.model_dump(exclude_unset=True) == {"id": "count", "check": "items:count", "status": Status.PASS,
                                                    "detail": "3 items"}


def test_loaded_constraints_share_their_sets() -> None:
    given = [Constraint.model_validate({"id": f"c{n}", "check": "items:count", "params": {"exact": n}})
             for n in range(1, 4)]
    assert len({id(c.model_fields_set) for c in given}) == 1


def test_only_a_frozen_model_may_share() -> None:
    with pytest.raises(TypeError, match="only a frozen model"):
        class Mutable(SharedFieldNames):
            model_config = ConfigDict(frozen=False)
            name: str


def test_copies_with_the_same_fields_share_too() -> None:
    first = RunVerdict(case_id="B3-QC-01", group="A", run=0, status=Status.PASS)
    copies = [first.model_copy(update={"run": n, "metadata": {"latency_ms": n}}) for n in range(1, 4)]
    assert len({id(c.model_fields_set) for c in copies}) == 1
    assert copies[0].model_fields_set == first.model_fields_set | {"metadata"}
    assert first.model_fields_set == {"case_id", "group", "run", "status"}
