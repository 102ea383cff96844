"""The terminal verdict table (tabulate)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from gate.memo import ByIdentity
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


_HEADERS = ["case", "group", "run", "status", "rules", "why"]
_ALIGN = ("left", "left", "right", "left", "left", "left")
_CHUNK = 2_000
"""Rows tabulated at a time: tabulate keeps several copies of every cell while it lays a table out."""


def _cells(verdict: RunVerdict) -> list[str]:
    """The status, rules and why of a run: what its constraints, status and error say."""
    judged = [c for c in verdict.constraints if c.status is not Status.SKIPPED]
    passed = sum(c.status is Status.PASS for c in judged)
    return [_status(verdict), f"{passed}/{len(judged)}", _why(verdict)]


def _rows(verdicts: Iterable[RunVerdict]) -> Iterator[list[str]]:
    made: ByIdentity[list[str]] = ByIdentity(_CHUNK)  # repeats share their verdict's constraints
    for v in verdicts:
        yield [v.case_id, v.group, str(v.run), *made.get(v.constraints, _cells, v, (v.status, v.error))]


def verdict_table(verdicts: Iterable[RunVerdict]) -> str:
    """One row per run: case, group, run, status, rule constraints passed, why it failed.

    Laid out a chunk of rows at a time in the memory of one chunk, every chunk with the columns of
    the whole table: each chunk carries a last row of the widest cells, which sets the widths and is
    dropped from the text."""
    import tabulate as tabulating

    def layout(rows: list[list[str]]) -> list[str]:
        # Every cell is text, the run number too: telling tabulate so skips its per-cell number
        # sniffing, most of its time on a long table (and a case id such as "1e5" stays as written).
        return tabulating.tabulate(rows, headers=_HEADERS, tablefmt="simple", disable_numparse=True,
                                   colalign=_ALIGN).split("\n")

    ordered = sort_verdicts(verdicts)
    if not ordered:
        return "\n".join(layout([]))
    # the width tabulate measures a cell by: display columns when wcwidth is installed
    width: Callable[[str], int] = (
        tabulating.wcwidth.wcswidth if tabulating.WIDE_CHARS_MODE else len)  # type: ignore[attr-defined]
    widest = [""] * len(_HEADERS)
    for row in _rows(ordered):
        for column, cell in enumerate(row):
            if width(cell) > width(widest[column]):
                widest[column] = cell
    lines: list[str] = []
    for start in range(0, len(ordered), _CHUNK):
        laid = layout([*_rows(ordered[start:start + _CHUNK]), widest])[:-1]
        lines += laid if start == 0 else laid[2:]  # the header and its rule once
    return "\n".join(lines)
