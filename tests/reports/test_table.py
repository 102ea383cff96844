"""The terminal verdict table `gate eval` and `gate check` print."""

from __future__ import annotations

from gate.report.table import verdict_table
from gate.verdict import ConstraintVerdict, RunVerdict, Status


def run(case_id: str, run_number: int, status: Status, detail: str = "") -> RunVerdict:
    constraint = ConstraintVerdict(id="exactly_3_items", check="items:count", status=status, detail=detail)
    return RunVerdict(case_id=case_id, group="A", run=run_number, status=status, constraints=(constraint,))


def test_case_ids_that_look_like_numbers_are_shown_as_written() -> None:
    table = verdict_table([run("1e5", 0, Status.PASS), run("007", 1, Status.PASS)])
    cases = [line.split()[0] for line in table.splitlines()[2:]]
    assert cases == ["007", "1e5"]  # sorted as text; not 7 and 100000


def test_rows_sorted_with_the_run_number_right_aligned() -> None:
    table = verdict_table([run("b", 10, Status.FAIL, "found 2 items, expected 3"), run("a", 2, Status.PASS)])
    header, rule, first, second = table.splitlines()
    assert header.split() == ["case", "group", "run", "status", "rules", "why"]
    assert first.split()[:5] == ["a", "A", "2", "PASS", "1/1"]
    assert second.split()[:5] == ["b", "A", "10", "FAIL", "0/1"]
    assert "exactly_3_items: found 2 items, expected 3" in second
    column_end = header.index("run") + len("run")
    assert first[column_end - 1] == "2" and second[column_end - 2:column_end] == "10"
