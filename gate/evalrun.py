"""`gate eval`: judge exactly the records of a trajectory file and report them."""

from __future__ import annotations

from pathlib import Path

import click

from gate import metrics as metrics_mod
from gate.atomic import write_json
from gate.check import consistency_json, judge
from gate.loader import load_cases
from gate.records import read_trajectories
from gate.report.table import verdict_table
from gate.results import results_document


def run_eval(cases_dir: Path, trajectories: Path, json_out: str | None) -> int:
    """Judge every record; print the table; write results.json if asked. Returns the exit code."""
    case_set = load_cases(cases_dir)
    records = read_trajectories(trajectories, case_set.cases)
    verdicts = judge(case_set.cases, records)
    computed = metrics_mod.compute(case_set.cases, verdicts)
    click.echo(verdict_table(verdicts))
    if json_out:
        document = results_document(
            cases_digest=case_set.digest, verdicts=verdicts, metrics=computed.as_json(),
            findings=[], passed=True,
            extra={"consistency": consistency_json(case_set.cases, records)},
        )
        write_json(json_out, document)
        click.echo(f"results written to {json_out}")
    return 0
