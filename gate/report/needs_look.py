"""The comment's "Needs a look" section: each uncertain constraint with both readings, and how to
settle it. Runs that read alike (a deterministic agent's repeats) are one line."""

from __future__ import annotations

from gate.report.markdown_safe import inline
from gate.report.model import GateReport
from gate.results import sort_verdicts
from gate.verdict import ConstraintVerdict

MAX_SHOWN = 20
"""Uncertain constraints listed; the rest are in results.json."""

_Key = tuple[str, str, str, str]
"""(case, group, constraint, what its readings say)."""


def _runs(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:8]) + (", …" if len(numbers) > 8 else "")
    return f"run{'s' if len(numbers) > 1 else ''} {shown}"


def _what(constraint: ConstraintVerdict) -> str:
    return "\n".join(r.describe() for r in constraint.readings) or constraint.detail


def _entries(report: GateReport) -> dict[_Key, tuple[ConstraintVerdict, list[int]]]:
    found: dict[_Key, tuple[ConstraintVerdict, list[int]]] = {}
    for verdict in sort_verdicts(report.verdicts):
        for constraint in verdict.uncertain():
            key = (verdict.case_id, verdict.group, constraint.id, _what(constraint))
            found.setdefault(key, (constraint, []))[1].append(verdict.run)
    return found


def _never(report: GateReport, case_id: str, constraint_id: str) -> bool:
    rule = report.cases[case_id].constraint(constraint_id) if case_id in report.cases else None
    return rule is not None and rule.zero_tolerance


def needs_a_look_section(report: GateReport) -> list[str]:
    """Every uncertain constraint with its readings, grouped by the runs that read alike."""
    entries = _entries(report)
    if not entries:
        return []
    by_group = {g: m.uncertain for g, m in sorted(report.metrics.overall.items()) if m.uncertain}
    counts = ", ".join(f"{g}: {n}" for g, n in by_group.items())
    runs = (f"{sum(by_group.values())} run(s) uncertain ({counts}), left out of the pass rates and never counted "
            "as passes" if by_group else "No run is uncertain as a whole (each failed on another constraint)")
    lines = [f"### Needs a look ({len(entries)})", "",
             f"{runs}: two readings of the answer give different verdicts for these constraints, and the readers "
             "could not tell which is meant.", ""]
    for (case_id, group, constraint_id, _), (constraint, numbers) in list(entries.items())[:MAX_SHOWN]:
        never = " · **never-rule**" if _never(report, case_id, constraint_id) else ""
        lines.append(f"- **{case_id}** [{group}] {_runs(numbers)} · `{constraint_id}` ({constraint.check}){never}")
        if constraint.readings:
            lines += [f"  - {inline(reading.describe(), 300)}" for reading in constraint.readings]
        else:
            lines.append(f"  - {inline(constraint.detail, 300)}")
    more = len(entries) - MAX_SHOWN
    if more > 0:
        lines.append(f"- … {more} more in results.json")
    lines += ["", "Settle each with `gate review` (it lists these first, with both readings): a human verdict "
              "on that exact trajectory replaces the uncertain one from the next check on."]
    return lines
