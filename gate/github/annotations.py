"""Workflow-command annotations (``::error file=…::…``) for a results.json document.

GitHub shows at most 10 annotations of each kind per step, so the most important come first —
red lines, then newly failing runs the skill is blamed for, newly failing runs, other skill-blamed
runs, other gate-failing findings, the remaining failing runs — each tier by case id. A run that
fails where the baseline failed too (``known-failure``) or a flaky run of a case that passes by
majority is a ``::notice``, not an ``::error``: a passing gate shows no error. An uncertain run (its
readings disagree) is a ``::warning`` naming both readings. What does not fit is counted in one
closing notice.
"""

# No `from __future__ import annotations` here: it would bind the name of this module's public
# function. Every annotation below is valid at run time on Python 3.10.

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gate.formats.workflow_commands import MAX_ANNOTATIONS, command, escape_data, escape_property
from gate.results import ConstraintRecord, FindingRecord, ResultsFile, RunRecord
from gate.verdict import Reading, Status, describe_readings

__all__ = ["annotations", "command", "escape_data", "escape_property"]

MAX_PER_KIND = MAX_ANNOTATIONS
_MAX_MESSAGE = 2000
_FAILING = (Status.FAIL, Status.ERROR)

_NOT_NEW = {"known-failure": "known failure", "passing": "flaky run, the case passes by majority"}


@dataclass(frozen=True)
class _Note:
    kind: str  # error | warning | notice
    rank: int
    key: tuple[str, str, int, str]
    title: str
    message: str
    case_id: str | None
    is_run: bool
    what: str = "failed"
    """What the runs came to, for the title of several merged: failed, uncertain."""


def _newly_failing(results: ResultsFile) -> set[tuple[str, str]]:
    pairs = set(results.baseline.newly_failing) if results.baseline is not None else set()
    pairs |= {(f.case_id, f.group or "") for f in results.findings if f.rule == "regression" and f.case_id}
    return pairs


def _run_note(run: RunRecord, newly: set[tuple[str, str]], blame: Mapping[str, str | None],
              states: Mapping[str, Mapping[str, str]]) -> _Note:
    case_id, group = run.case_id, run.group
    state = states.get(case_id, {}).get(group, "")
    is_new = (case_id, group) in newly
    by_skill = blame.get(case_id) == "skill"
    rank = {(True, True): 1, (True, False): 2, (False, True): 3}.get((is_new, by_skill), 5)
    lines = []
    if run.error:
        lines.append(f"agent error: {run.error}")
    for c in run.constraints:
        if c.status in _FAILING:
            check = f" [{c.check}]" if c.check else ""
            lines.append(f"{c.id or '?'}{check}: {c.detail}".rstrip(": "))
    what = "agent error" if run.status is Status.ERROR else "failed"
    tags = [t for t, on in (("newly failing", is_new), ("attributed to the skill", by_skill)) if on]
    if state in _NOT_NEW and not is_new:
        tags = [_NOT_NEW[state]]
    title = f"{case_id} group {group} run {run.run} {what}" + (f" ({', '.join(tags)})" if tags else "")
    kind = "notice" if state in _NOT_NEW and not is_new else "error"
    return _Note(kind, rank, (case_id, group, run.run, ""), title,
                 "\n".join(lines) or f"status {run.status.value}", case_id or None, True)


def _readings(constraint: ConstraintRecord) -> str:
    readings = tuple(Reading(label=r.label or "?", verdict=r.verdict, why=r.why, chosen=r.chosen)
                     for r in constraint.readings)
    return describe_readings(readings) or constraint.detail


def _uncertain_note(run: RunRecord) -> _Note:
    """A run whose readings disagree: a warning naming them — never a pass, not a failure."""
    lines = [f"{c.id or '?'}{f' [{c.check}]' if c.check else ''}: {_readings(c)}"
             for c in run.constraints if c.status is Status.UNCERTAIN]
    title = f"{run.case_id} group {run.group} run {run.run} uncertain (needs a look: `gate review`)"
    return _Note("warning", 1, (run.case_id, run.group, run.run, ""), title,
                 "\n".join(lines) or "status uncertain", run.case_id or None, True, "uncertain")


def _per_case(notes: list[_Note]) -> list[_Note]:
    """One annotation per case file and kind: a case broken in both groups and its confirm reruns
    is one error, its title counting the runs, its message the reasons without repeats."""
    grouped: dict[tuple[str | None, str], list[_Note]] = {}
    for note in sorted(notes, key=lambda n: n.key):
        grouped.setdefault((note.case_id, note.kind), []).append(note)
    merged = []
    for (case_id, kind), same in grouped.items():
        if len(same) == 1:
            merged.append(same[0])
            continue
        runs = ", ".join(f"{n.key[1]} run {n.key[2]}" for n in same[:8]) + (", …" if len(same) > 8 else "")
        tags = same[0].title.partition(" (")[2]
        title = f"{case_id} {same[0].what} in {len(same)} runs ({runs})" + (f" ({tags}" if tags else "")
        reasons = list(dict.fromkeys(line for n in same for line in n.message.split("\n")))
        merged.append(_Note(kind, min(n.rank for n in same), same[0].key, title, "\n".join(reasons), case_id, True,
                            same[0].what))
    return merged


def _finding_note(f: FindingRecord, failing_cases: set[str], uncertain_cases: set[str]) -> _Note | None:
    level, case_id = f.level, f.case_id or None
    if f.rule == "needs-a-look" and level != "error" and case_id in uncertain_cases:
        return None  # said already by that case's uncertain runs
    if level == "red-line":
        kind, rank = "error", 0
    elif level == "error":
        if case_id in failing_cases:  # said already by that case's failing runs
            return None
        kind, rank = "error", 4
    elif level == "warning":
        kind, rank = "warning", 0
    else:
        return None
    rule = f.rule or "finding"
    where = f.dimension or case_id or ""
    label = "never-rule broken" if rule == "zero-tolerance" else "red line" if level == "red-line" else rule
    title = f"{label}: {where}".rstrip(": ")
    return _Note(kind, rank, (case_id or where, f.group or "", 0, rule), title, f.message or rule, case_id, False)


def _notes(results: ResultsFile) -> list[_Note]:
    newly = _newly_failing(results)
    cases = results.metrics.cases
    blame = {cid: o.attribution for cid, o in cases.items()}
    states = {cid: o.states for cid, o in cases.items()}
    runs = [r for r in results.results if r.status in _FAILING]
    unsure = [r for r in results.results if r.status is Status.UNCERTAIN]
    notes = _per_case([_run_note(r, newly, blame, states) for r in runs] + [_uncertain_note(r) for r in unsure])
    failing_cases = {r.case_id for r in runs}
    for f in results.findings:
        note = _finding_note(f, failing_cases, {r.case_id for r in unsure})
        if note is not None:
            notes.append(note)
    return sorted(notes, key=lambda n: (n.rank, n.key, n.title, n.message))


def _render(note: _Note, case_paths: Mapping[str, tuple[str, int]]) -> str:
    place = case_paths.get(note.case_id) if note.case_id else None
    message = note.message if len(note.message) <= _MAX_MESSAGE else note.message[: _MAX_MESSAGE - 1] + "…"
    return command(note.kind, message, file=place[0] if place else None,
                   line=place[1] if place else None, title=note.title)


def _plural(n: int, word: str) -> str:
    return f"{n} more {word}{'' if n == 1 else 's'}"


def _overflow(dropped: Iterable[_Note]) -> str | None:
    errors = [n for n in dropped if n.kind == "error"]
    warnings = [n for n in dropped if n.kind == "warning"]
    notices = [n for n in dropped if n.kind == "notice"]
    parts = []
    if errors:
        parts.append(_plural(len(errors), "failing run" if all(n.is_run for n in errors) else "error"))
    if warnings:
        parts.append(_plural(len(warnings), "warning"))
    if notices:
        parts.append(_plural(len(notices), "known or flaky failing run"))
    if not parts:
        return None
    return command("notice", f"… and {' and '.join(parts)}; see the job summary", title="agent-gate")


def annotations(results: ResultsFile, case_paths: dict[str, tuple[str, int]], known: str = "notice") -> list[str]:
    """Workflow commands for the failing runs and findings of a results.json document.

    At most ten ``::error``, ten ``::warning`` and ten ``::notice`` lines, most important first,
    then one ``::notice`` counting what was left out. ``case_paths`` maps a case id to its file and
    line; ``known`` is ``none`` to leave known and flaky failures out (they are notices otherwise).
    """
    shown: list[_Note] = []
    dropped: list[_Note] = []
    count = {"error": 0, "warning": 0, "notice": 0}
    notes = _notes(results)
    if known == "none":
        notes = [n for n in notes if not (n.is_run and n.kind == "notice")]
    for note in notes:
        if count[note.kind] < MAX_PER_KIND:
            count[note.kind] += 1
            shown.append(note)
        else:
            dropped.append(note)
    lines = [_render(n, case_paths) for n in shown if n.kind == "error"]
    lines += [_render(n, case_paths) for n in shown if n.kind == "warning"]
    lines += [_render(n, case_paths) for n in shown if n.kind == "notice"]
    notice = _overflow(dropped)
    return [*lines, notice] if notice else lines
