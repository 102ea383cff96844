"""`gate validate`: gate.yaml, every case file and the reviews file checked, every problem in every
file reported in one run; then each case's checkers self-tested on its pass and fail examples."""

from __future__ import annotations

from pathlib import Path

import click

from gate.config import load_config, salvage_config
from gate.errors import EXIT_FAILED, EXIT_PASSED, EXIT_UNUSABLE, GateError, GateErrors
from gate.loader import load_cases
from gate.selftest import check_examples
from gate.semantic.reviews import load_reviews


def run_validate(cases_dir: str | None, config_path: str | None) -> int:
    """Print every problem found; the exit code: 0 all is well, 1 an example misjudged, 2 a bad file."""
    unusable: list[GateError] = []
    try:
        config = load_config(config_path)
    except GateError as exc:
        unusable += exc.problems if isinstance(exc, GateErrors) else [exc]
        config = salvage_config(config_path)  # the case files are still worth checking
    try:
        case_set = load_cases(Path(cases_dir) if cases_dir else config.resolve(config.cases.path), config.suites,
                              every_problem=True)
    except GateError as exc:
        unusable += exc.problems if isinstance(exc, GateErrors) else [exc]
    try:
        reviews = load_reviews(config.resolve(config.reviews))
        if not unusable:
            for warning in reviews.stale(case_set.cases):
                click.echo(f"gate: warning: {warning}", err=True)
    except GateError as exc:
        unusable.append(exc)
    if unusable:
        for error in unusable:
            click.echo(f"gate: error: {error}", err=True)
        files = {(e.where or "").rsplit(":", 1)[0] for e in unusable}
        if len(unusable) > 1:
            click.echo(f"{len(unusable)} problem(s) in {len(files)} file(s)", err=True)
        return EXIT_UNUSABLE
    problems = [p for case in case_set.cases.values() for p in check_examples(case)]
    for problem in problems:
        click.echo(f"{problem.path}: {problem.case_id}: {problem.message}")
    total = len(case_set.cases)
    examples = sum(
        len(c.examples.pass_) + len(c.examples.fail) for c in case_set.cases.values() if c.examples
    )
    if problems:
        click.echo(f"{len(problems)} problem(s) in {len({p.case_id for p in problems})} of {total} cases", err=True)
        return EXIT_FAILED
    click.echo(f"{total} cases valid; {examples} examples judged as their cases say")
    return EXIT_PASSED
