"""`gate validate`: gate.yaml and every case file checked, then everything else `gate check` refuses
before its first agent call (the same preflight: selection, baseline, report directory, reviews,
the agent's files and settings), every problem reported in one run; then each case's checkers
self-tested on its pass and fail examples."""

from __future__ import annotations

from pathlib import Path

import click

from gate.cases.loader import load_cases
from gate.cases.parsed_cases import parsed_cases
from gate.config.gate_yaml import GateConfig, load_config, salvage_config
from gate.errors import EXIT_FAILED, EXIT_PASSED, EXIT_UNUSABLE, GateError
from gate.formats.workflow_commands import error_annotations, error_lines
from gate.judging.selftest import Problem, check_examples
from gate.judging.validated import stamps_at
from gate.pipeline.preflight import CheckSettings, preflight
from gate.semantic.reviews import load_reviews


def run_validate(cases_dir: str | None, config_path: str | None, *, full: bool = False) -> int:
    """Print every problem found; the exit code: 0 all is well, 1 an example misjudged, 2 a bad file.
    The examples of a case whose file passed before, under the same build, are not judged again
    (outside CI), unless ``full``."""
    unusable: list[GateError] = []
    try:
        config = load_config(config_path)
    except GateError as exc:
        unusable += exc.problems
        config = salvage_config(config_path)  # the case files are still worth checking
    case_dir = Path(cases_dir) if cases_dir else config.resolve(config.cases.path)
    try:
        case_set = load_cases(case_dir, config.suites, every_problem=True,
                              parsed=None if full else parsed_cases(config.derived_cache()))
    except GateError as exc:
        unusable += exc.problems
    warnings: list[str] = []
    if not unusable and _the_gates_cases(case_dir, config):
        try:  # what `gate check` refuses before its first agent call, by the same function
            ready = preflight(CheckSettings.of(config), case_set, run=False)
            ready.agent.close()  # no run follows
            warnings = ready.warnings
        except GateError as exc:
            unusable += exc.problems
    else:  # a bad file, or the cases of another directory: of the rest, the reviews file
        try:
            reviews = load_reviews(config.resolve(config.reviews))
            if not unusable:
                warnings = reviews.stale(case_set.cases)
        except GateError as exc:
            unusable.append(exc)
    for warning in warnings:
        click.echo(f"gate: warning: {warning}", err=True)
    if unusable:
        for line in error_lines(unusable):
            click.echo(line, err=True)
        for line in error_annotations(unusable):
            click.echo(line)
        files = {(e.where or "").rsplit(":", 1)[0] for e in unusable}
        if len(unusable) > 1:
            click.echo(f"{len(unusable)} problem(s) in {len(files)} file(s)", err=True)
        return EXIT_UNUSABLE
    stamps = None if full else stamps_at(config.derived_cache())
    problems: list[Problem] = []
    passed: dict[str, str] = {}  # case id → digest of the file whose examples passed
    examples = skipped = 0
    for case in case_set.cases.values():
        digest = case_set.file_digests[case.id]
        if stamps is not None and stamps.unchanged(case.id, digest):
            passed[case.id] = digest
            skipped += 1
            continue
        found = check_examples(case)
        problems += found
        examples += len(case.examples.pass_) + len(case.examples.fail) if case.examples else 0
        if not found:
            passed[case.id] = digest
    if stamps is not None:
        stamps.record(passed)
    for problem in problems:
        click.echo(f"{problem.path}: {problem.case_id}: {problem.message}")
    total = len(case_set.cases)
    if problems:
        click.echo(f"{len(problems)} problem(s) in {len({p.case_id for p in problems})} of {total} cases", err=True)
        return EXIT_FAILED
    unchanged = f"; those of {skipped} unchanged cases passed before (--full judges them again)" if skipped else ""
    click.echo(f"{total} cases valid; {examples} examples judged as their cases say{unchanged}")
    return EXIT_PASSED


def _the_gates_cases(case_dir: Path, config: GateConfig) -> bool:
    """Whether ``case_dir`` holds the cases `gate check` runs under ``config`` (``--cases`` may name
    another directory, whose files are then checked as case files only)."""
    return case_dir.resolve() == config.resolve(config.cases.path).resolve()
