"""The terminal verdict table (tabulate)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from gate.process.memo import ByIdentity
from gate.redaction.sanitize import one_line
from gate.results import sort_verdicts
from gate.verdict import RunVerdict, Status, describe_readings


def _why(verdict: RunVerdict, width: int = 90) -> str:
    if verdict.error:
        text = f"agent error: {verdict.error}"
    else:
        failing = [f"{c.id}: {c.detail}" for c in verdict.failing()]
        unsure = [f"{c.id}: uncertain, {describe_readings(c.readings) or c.detail}" for c in verdict.uncertain()]
        text = "; ".join(failing + unsure)
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
_GAP = "  "
"""What separates two columns in tabulate's "simple" format."""
_REMEMBERED = 2_000
"""Verdicts whose cells are kept for the repeats that share their constraints."""


def _cells(verdict: RunVerdict) -> list[str]:
    """The status, rules and why of a run: what its constraints, status and error say."""
    judged = [c for c in verdict.constraints if c.status is not Status.SKIPPED]
    passed = sum(c.status is Status.PASS for c in judged)
    return [_status(verdict), f"{passed}/{len(judged)}", _why(verdict)]


def _rows(verdicts: Iterable[RunVerdict]) -> Iterator[list[str]]:
    made: ByIdentity[list[str]] = ByIdentity(_REMEMBERED)  # repeats share their verdict's constraints
    for v in verdicts:
        yield [v.case_id, v.group, str(v.run), *made.get(v.constraints, _cells, v, (v.status, v.error))]


def verdict_table(verdicts: Iterable[RunVerdict]) -> str:
    """One row per run: case, group, run, status, rule constraints passed, why it failed.

    tabulate lays out the header above one row of the widest cells, which fixes every column's
    width; each run's row is then its cells padded to those widths as tabulate pads them (cells
    stripped, lines right-trimmed). Laying out every row through tabulate cost most of a long
    `gate eval` (a type sniffed and copies kept of each cell); tests check the two agree."""
    import tabulate as tabulating

    def layout(rows: list[list[str]]) -> list[str]:
        # Every cell is text, the run number too (a case id such as "1e5" stays as written).
        return tabulating.tabulate(rows, headers=_HEADERS, tablefmt="simple", disable_numparse=True,
                                   colalign=_ALIGN).split("\n")

    ordered = sort_verdicts(verdicts)
    if not ordered:
        return "\n".join(layout([]))
    # the width tabulate measures a cell by: display columns when wcwidth is installed
    width: Callable[[str], int] = (
        tabulating.wcwidth.wcswidth if tabulating.WIDE_CHARS_MODE else len)  # type: ignore[attr-defined]
    widest = [""] * len(_HEADERS)
    for row in _rows(ordered):  # twice over the runs, not every row held: a row costs little to make
        for column, cell in enumerate(map(str.strip, row)):
            if width(cell) > width(widest[column]):
                widest[column] = cell
    header, rule, _ = layout([widest])
    widths = [len(dashes) for dashes in rule.split(_GAP)]

    def laid(row: list[str]) -> str:
        cells = []
        for cell, align, column_width in zip(map(str.strip, row), _ALIGN, widths, strict=True):
            pad = " " * (column_width - width(cell))
            cells.append(pad + cell if align == "right" else cell + pad)
        return _GAP.join(cells).rstrip()

    return "\n".join([header, rule, *map(laid, _rows(ordered))])
