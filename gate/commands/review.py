"""`gate review`: a human walks the uncertain constraints of the latest check, then the judge's
review queue, in the terminal, or records one verdict; every verdict is appended to the reviews
file the moment it is given."""

from __future__ import annotations

import datetime
import getpass
import os
import subprocess
from collections.abc import Callable
from functools import partial
from pathlib import Path

import click
from pydantic import ValidationError

from gate.case import Case
from gate.cases.loader import load_cases
from gate.commands.review_uncertain import UncertainItem, show_item, uncertain_items
from gate.config.gate_yaml import GateConfig, load_config
from gate.errors import EXIT_PASSED, GateError, did_you_mean
from gate.files import safejson
from gate.files.yamlio import first_problem
from gate.redaction.sanitize import xml_safe
from gate.semantic.asks import QUEUE_FILE
from gate.semantic.document import QueueEntry
from gate.semantic.reviews import Review, append_review, load_reviews

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


def _results_path(config: GateConfig, results_path: str | None) -> Path:
    return Path(results_path) if results_path else config.resolve(config.out_dir) / "results.json"


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


def walk(config_path: str | None, queue_path: str | None, reviewer: str | None,
         results_path: str | None = None) -> int:
    """Show each unreviewed uncertain constraint of the latest check (first), then each unreviewed
    queue entry, and record the verdict given; returns the exit code."""
    config, queue_file, reviews_file = _paths(config_path, queue_path)
    cases = _cases(config)
    results_file = _results_path(config, results_path)
    uncertain = uncertain_items(results_file, cases)
    # a check's results alone are worth a walk: the queue is the judge's, and may not exist
    no_queue = not queue_path and not queue_file.exists() and results_file.is_file()
    entries = [] if no_queue else read_queue(queue_file)
    reviews = load_reviews(reviews_file)
    unsure = [i for i in uncertain if reviews.lookup(i.trajectory, i.case_id, i.constraint) is None]
    todo = [e for e in entries if reviews.lookup(e.trajectory, e.case_id, e.constraint) is None]
    name = reviewer_name(reviewer)
    first = f"{len(unsure)} of {len(uncertain)} uncertain constraint(s)" if uncertain or no_queue else ""
    queued = ("no review queue (`gate judge` writes one)" if no_queue else
              f"{len(todo)} of {len(entries)} queue entries to review")
    click.echo(f"{first}{' and ' if first else ''}{queued} (verdicts go to {reviews_file}, as {name})")
    steps: list[tuple[UncertainItem | QueueEntry, Callable[[str], None]]] = [
        *((item, partial(show_item, item, cases)) for item in unsure),
        *((entry, partial(_show, entry, cases)) for entry in todo)]
    recorded = skipped = 0
    for index, (step, show) in enumerate(steps, 1):
        show(f"{index}/{len(steps)}")
        key = click.prompt("verdict: [p]ass [f]ail [s]kip [q]uit", type=click.Choice(list(KEYS)), show_choices=False)
        if KEYS[key] == "quit":
            break
        if KEYS[key] == "skip":
            skipped += 1
            continue
        note = click.prompt("note (enter for none)", default="", show_default=False)
        rule, judge = ("uncertain", None) if isinstance(step, UncertainItem) else (step.rule, step.judge)
        append_review(reviews_file, _review(step.trajectory, step.case_id, step.constraint, KEYS[key], note, name,
                                            rule=rule, judge=judge))
        recorded += 1
    left = len(steps) - recorded - skipped
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
               case_id: str, constraint: str, verdict: str, note: str, results_path: str | None = None) -> int:
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
    rule, judge = (entry.rule, entry.judge) if entry else (None, None)
    if entry is None and _was_uncertain(_results_path(config, results_path), case_set.cases,
                                        (trajectory, case_id, constraint)):
        rule = "uncertain"
    review = _review(trajectory, case_id, constraint, verdict, note, reviewer_name(reviewer), rule=rule, judge=judge)
    append_review(reviews_file, review)
    click.echo(f"recorded: {case_id} {constraint} on {trajectory[:19]}… is {verdict} ({review.reviewer}) → {reviews_file}")
    return EXIT_PASSED


def _was_uncertain(results: Path, cases: dict[str, Case], key: tuple[str, str, str]) -> bool:
    """Whether the latest check left this constraint uncertain on this trajectory (what the review
    records as the rule's verdict); results that cannot say leave it unrecorded, not the verdict."""
    try:
        return any((i.trajectory, i.case_id, i.constraint) == key for i in uncertain_items(results, cases))
    except GateError:
        return False
