"""The uncertain constraints of the latest check, for `gate review` to list before the judge's
queue: each with the readings that disagree, one entry per trajectory (repeats that answered alike
are settled by one verdict), read from results.json and the trajectories.jsonl beside it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import click

from gate.case import Case
from gate.commands.merge import read_results
from gate.errors import GateError
from gate.redaction.sanitize import xml_safe
from gate.results import RunRecord
from gate.runs.records import iter_trajectories
from gate.semantic.assemble import EXCERPT_CHARS
from gate.verdict import Reading, Status


@dataclass(frozen=True)
class UncertainItem:
    """One uncertain constraint on one trajectory: what a human verdict settles."""

    trajectory: str
    case_id: str
    group: str
    runs: tuple[int, ...]
    constraint: str
    check: str
    detail: str
    readings: tuple[Reading, ...]
    excerpt: str


def _readings(run: RunRecord, constraint_id: str) -> tuple[str, str, tuple[Reading, ...]]:
    found = next(c for c in run.constraints if c.id == constraint_id)
    readings = tuple(Reading(label=r.label or "?", verdict=r.verdict, why=r.why, chosen=r.chosen)
                     for r in found.readings)
    return found.check, found.detail, readings


def uncertain_items(results: Path, cases: Mapping[str, Case]) -> list[UncertainItem]:
    """Every uncertain constraint of the results at ``results`` (none when there is no such file),
    in case, group and run order."""
    if not results.is_file():
        return []
    document = read_results(results)
    wanted = {(r.case_id, r.group, r.run): r for r in document.results
              if any(c.status is Status.UNCERTAIN for c in r.constraints)}
    if not wanted:
        return []
    beside = results.parent / "trajectories.jsonl"
    if not beside.is_file():
        raise GateError("results.json has uncertain runs, and reviewing them needs the trajectories.jsonl "
                        "written beside it", where=str(beside))
    found: dict[tuple[str, str, str], UncertainItem] = {}
    for trajectory in iter_trajectories(beside, cases, allow_empty=True):
        run = wanted.get((trajectory.case_id, trajectory.group, trajectory.run))
        if run is None:
            continue
        digest = trajectory.digest
        for constraint in (c.id for c in run.constraints if c.status is Status.UNCERTAIN):
            key = (digest, run.case_id, constraint)
            if key in found:  # a repeat that answered alike: one verdict settles both
                found[key] = replace(found[key], runs=(*found[key].runs, run.run))
                continue
            check, detail, readings = _readings(run, constraint)
            found[key] = UncertainItem(digest, run.case_id, run.group, (run.run,), constraint, check, detail,
                                       readings, xml_safe(trajectory.final_answer)[:EXCERPT_CHARS])
    return sorted(found.values(), key=lambda i: (i.case_id, i.group, i.runs))


def show_item(item: UncertainItem, cases: Mapping[str, Case], position: str) -> None:
    """The request, the readings that disagree and the answer, for a human to say which is meant."""
    runs = ", ".join(str(n) for n in item.runs)
    click.echo("")
    click.secho(f"[{position}] {item.case_id} · group {item.group} · run{'s' if len(item.runs) > 1 else ''} {runs} · "
                f"constraint {item.constraint} ({item.check}) — uncertain", bold=True)
    case = cases.get(item.case_id)
    if case is not None and case.input is not None:
        for message in case.input.for_run(item.runs[0]).messages:
            click.echo(f"  {message.role}: {xml_safe(message.content)}")
    click.echo(f"  checker: {xml_safe(item.detail)}")
    click.echo("  readings that give different verdicts (which one is meant?):")
    for number, reading in enumerate(item.readings, 1):
        click.echo(f"    {number}. {xml_safe(reading.describe())}")
    click.echo("  answer:")
    for line in item.excerpt.splitlines() or ["(empty)"]:
        click.echo(f"  │ {line}")
