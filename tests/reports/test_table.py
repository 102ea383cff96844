"""The terminal verdict table `gate eval` and `gate check` print."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from gate.report import table
from gate.report.table import verdict_table
from gate.results import sort_verdicts
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
    header, _, first, second = table.splitlines()
    assert header.split() == ["case", "group", "run", "status", "rules", "why"]
    assert first.split()[:5] == ["a", "A", "2", "PASS", "1/1"]
    assert second.split()[:5] == ["b", "A", "10", "FAIL", "0/1"]
    assert "exactly_3_items: found 2 items, expected 3" in second
    column_end = header.index("run") + len("run")
    assert first[column_end - 1] == "2" and second[column_end - 2:column_end] == "10"


def _whole(runs: list[RunVerdict]) -> str:
    """The table as tabulate lays it out with every row: what the padded rows must equal."""
    return tabulate(list(table._rows(sort_verdicts(runs))), headers=table._HEADERS, tablefmt="simple",
                    disable_numparse=True, colalign=table._ALIGN)


def test_rows_padded_to_the_widest_cells_are_the_table_tabulate_lays_out() -> None:
    runs = [run(case_id, number, status, detail)
            for number, (case_id, status, detail) in enumerate([
                ("B3-QC-01", Status.PASS, ""), ("X-CD-02", Status.FAIL, "列表 2 项，要求 3 项"),
                ("B3-PC-10", Status.FAIL, "found 'Sony' (alias of sony)"), ("a", Status.ERROR, "budget exceeded"),
                ("B3-QC-01", Status.PASS, ""), ("long-case-id-of-the-set", Status.SKIPPED, ""), ("b", Status.PASS, ""),
                ("e", Status.FAIL, "  leading and trailing  "), ("é-combining", Status.FAIL, "🙂 emoji 👍🏽 and ｆｕｌｌ"),
            ])]
    runs.append(RunVerdict(case_id="c", group="B", run=123456, status=Status.ERROR, error="agent timed out after 60 s"))
    assert verdict_table(runs) == _whole(runs)


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


@settings(max_examples=max(10, settings().max_examples * 3 // 5), deadline=None)  # the profile's: 60 under CI
@given(st.lists(st.tuples(st.text(alphabet=" aB3-_中é", min_size=1, max_size=12), st.integers(0, 10**6),
                          st.sampled_from(list(Status)), _TEXT), max_size=12))
def test_any_table_is_the_one_tabulate_lays_out(rows: list[tuple[str, int, Status, str]]) -> None:
    runs = [run(case_id, number, status, detail) for case_id, number, status, detail in rows]
    assert verdict_table(runs) == _whole(runs)


def test_no_runs_is_the_header_alone() -> None:
    assert verdict_table([]).splitlines()[0].split() == ["case", "group", "run", "status", "rules", "why"]
