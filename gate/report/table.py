"""The terminal verdict table (tabulate)."""

from __future__ import annotations

from collections.abc import Iterable

from gate.results import sort_verdicts
from gate.sanitize import one_line
from gate.verdict import RunVerdict, Status


def _why(verdict: RunVerdict, width: int = 90) -> str:
    if verdict.error:
        text = f"agent error: {verdict.error}"
    else:
        failing = verdict.failing()
        text = "; ".join(f"{c.id}: {c.detail}" for c in failing)
    return one_line(text, width)  # agent text: no escape sequence reaches the terminal


def _status(verdict: RunVerdict) -> str:
    """PASS, FAIL … — and a pass on rules alone says how many rubrics were left unjudged."""
    if verdict.unjudged and verdict.status is Status.PASS:
        return f"PASS (rules) · {verdict.unjudged} unjudged"
    if verdict.unjudged and verdict.status is Status.SKIPPED:
        return f"UNJUDGED · {verdict.unjudged} rubrics"
    return verdict.status.value.upper()


_ALIGN = ("left", "left", "right", "left", "left", "left")


def verdict_table(verdicts: Iterable[RunVerdict]) -> str:
    """One row per run: case, group, run, status, rule constraints passed, why it failed."""
    from tabulate import tabulate

    rows = []
    for v in sort_verdicts(verdicts):
        judged = [c for c in v.constraints if c.status is not Status.SKIPPED]
        passed = sum(c.status is Status.PASS for c in judged)
        rows.append([v.case_id, v.group, v.run, _status(v), f"{passed}/{len(judged)}", _why(v)])
    # Every cell is text but the run number: telling tabulate so skips its per-cell number sniffing,
    # most of its time on a table of thousands of runs (a case id such as "1e5" stays as written).
    return tabulate(rows, headers=["case", "group", "run", "status", "rules", "why"], tablefmt="simple",
                    disable_numparse=True, colalign=_ALIGN)
