"""`gate review`: a human walks the review queue in the terminal, or records one verdict; every
verdict is appended to the reviews file the moment it is given."""

from __future__ import annotations

import datetime
import getpass
import os
import subprocess
from pathlib import Path

import click
from pydantic import ValidationError

from gate import safejson
from gate.case import Case
from gate.config import GateConfig, load_config
from gate.errors import EXIT_PASSED, GateError, did_you_mean
from gate.loader import load_cases
from gate.sanitize import xml_safe
from gate.semantic.asks import QUEUE_FILE
from gate.semantic.document import QueueEntry
from gate.semantic.reviews import Review, append_review, load_reviews
from gate.yamlio import first_problem

KEYS = {"p": "pass", "f": "fail", "s": "skip", "q": "quit"}


def reviewer_name(given: str | None) -> str:
    """``--reviewer``, else $GATE_REVIEWER, else git's user.name, else the login name."""
    if given:
        return given
    if os.environ.get("GATE_REVIEWER"):
        return os.environ["GATE_REVIEWER"]
    try:
        found = subprocess.run(["git", "config", "user.name"], capture_output=True, text=True, timeout=5, check=False)
        if found.stdout.strip():
            return found.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "reviewer"


def read_queue(path: Path) -> list[QueueEntry]:
    """The queue's entries; a line that is not one is a GateError naming it."""
    if not path.is_file():
        raise GateError("review queue not found (`gate judge` writes it)", where=str(path))
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entries.append(QueueEntry.model_validate(safejson.loads(line)))
        except ValidationError as exc:
            raise GateError(f"not a review-queue entry: {first_problem(exc)}", where=f"{path}:{number}") from None
        except ValueError as exc:
            raise GateError(f"not a review-queue entry: {exc}", where=f"{path}:{number}") from None
    return entries


def _paths(config_path: str | None, queue_path: str | None) -> tuple[GateConfig, Path, Path]:
    config = load_config(config_path)
    queue = Path(queue_path) if queue_path else config.resolve(config.out_dir) / QUEUE_FILE
    return config, queue, config.resolve(config.reviews)


def _show(entry: QueueEntry, cases: dict[str, Case], position: str) -> None:
    found = cases.get(entry.case_id)
    constraint = found.constraint(entry.constraint) if found else None
    click.echo("")
    click.secho(f"[{position}] {entry.case_id} · group {entry.group} · run {entry.run} · constraint "
                f"{entry.constraint} — {', '.join(entry.reasons)}", bold=True)
    if found is not None and found.input is not None:
        for message in found.input.for_run(entry.run).messages:
            click.echo(f"  {message.role}: {xml_safe(message.content)}")
    if constraint is not None:
        click.echo(f"  rubric: {xml_safe(constraint.judge or constraint.says or constraint.label)}")
    click.echo(f"  rule: {entry.rule} · judge: {entry.judge} ({entry.votes.pass_} pass · {entry.votes.fail} fail"
               f"{f' · {entry.votes.error} error' if entry.votes.error else ''})")
    for reason in entry.judge_reasons:
        click.echo(f"    judge: {xml_safe(reason)}")
    click.echo("  answer:")
    for line in xml_safe(entry.excerpt).splitlines() or ["(empty)"]:
        click.echo(f"  │ {line}")


def _cases(config: GateConfig) -> dict[str, Case]:
    return load_cases(config.resolve(config.cases.path), config.suites).cases


def walk(config_path: str | None, queue_path: str | None, reviewer: str | None) -> int:
    """Show each unreviewed queue entry and record the verdict given; returns the exit code."""
    config, queue_file, reviews_file = _paths(config_path, queue_path)
    entries = read_queue(queue_file)
    reviews = load_reviews(reviews_file)
    todo = [e for e in entries if reviews.lookup(e.trajectory, e.case_id, e.constraint) is None]
    name = reviewer_name(reviewer)
    cases = _cases(config)
    click.echo(f"{len(todo)} of {len(entries)} queue entries to review (verdicts go to {reviews_file}, as {name})")
    recorded = skipped = 0
    for index, entry in enumerate(todo, 1):
        _show(entry, cases, f"{index}/{len(todo)}")
        key = click.prompt("verdict: [p]ass [f]ail [s]kip [q]uit", type=click.Choice(list(KEYS)), show_choices=False)
        if KEYS[key] == "quit":
            break
        if KEYS[key] == "skip":
            skipped += 1
            continue
        note = click.prompt("note (enter for none)", default="", show_default=False)
        append_review(reviews_file, _review(entry.trajectory, entry.case_id, entry.constraint, KEYS[key], note, name,
                                            rule=entry.rule, judge=entry.judge))
        recorded += 1
    left = len(todo) - recorded - skipped
    click.echo(f"recorded {recorded} verdict(s), skipped {skipped}, {left} left → {reviews_file}")
    return EXIT_PASSED


def _review(trajectory: str, case_id: str, constraint: str, verdict: str, note: str, reviewer: str, *,
            rule: str | None, judge: str | None) -> Review:
    try:
        return Review(trajectory=trajectory, case_id=case_id, constraint=constraint, rule=rule, judge=judge,
                      human=verdict, note=note.strip(), reviewer=reviewer, date=datetime.date.today())
    except ValidationError as exc:
        raise GateError(first_problem(exc)) from None


def record_one(config_path: str | None, queue_path: str | None, reviewer: str | None, *, trajectory: str,
               case_id: str, constraint: str, verdict: str, note: str) -> int:
    """`gate review set`: one verdict for a (trajectory, case, constraint) that exists."""
    config, queue_file, reviews_file = _paths(config_path, queue_path)
    case_set = load_cases(config.resolve(config.cases.path), config.suites)
    case = case_set.cases.get(case_id)
    if case is None:
        raise GateError(f"--case: unknown case {case_id}{did_you_mean(case_id, case_set.cases)}")
    ids = [c.id or c.label for c in case.constraints]
    if constraint not in ids:
        raise GateError(f"--constraint: {case_id} has no constraint {constraint}{did_you_mean(constraint, ids)}")
    entry = None
    if queue_file.is_file():
        entry = next((e for e in read_queue(queue_file) if (e.trajectory, e.case_id, e.constraint)
                      == (trajectory, case_id, constraint)), None)
    review = _review(trajectory, case_id, constraint, verdict, note, reviewer_name(reviewer),
                     rule=entry.rule if entry else None, judge=entry.judge if entry else None)
    append_review(reviews_file, review)
    click.echo(f"recorded: {case_id} {constraint} on {trajectory[:19]}… is {verdict} ({review.reviewer}) → {reviews_file}")
    return EXIT_PASSED
