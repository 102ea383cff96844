"""`gate eval`: judge exactly the records of a trajectory file and report them."""

from __future__ import annotations

from pathlib import Path

import click

from gate.atomic import write_json
from gate.budget import DEFAULT_BUDGET_S
from gate.errors import EXIT_INTERRUPTED
from gate.interrupts import stop_requests
from gate.loader import load_cases
from gate.pipeline import consistency_json, judge
from gate.records import read_trajectories
from gate.report.table import verdict_table
from gate.results import results_document
from gate.scoring import metrics as metrics_mod
from gate.scoring.readings import Readings


def run_eval(cases_dir: Path, trajectories: Path, json_out: str | None,
             budget_s: float | None = DEFAULT_BUDGET_S, reviews_file: Path | None = None) -> int:
    """Judge every record; print the table; write results.json if asked. Returns the exit code:
    0, or 130 when a stop was asked for (what was judged by then is still reported).
    ``reviews_file``: human verdicts that override those of the trajectories they name."""
    from gate.semantic.reviews import Reviews, apply_reviews, load_reviews

    case_set = load_cases(cases_dir)
    records = read_trajectories(trajectories, case_set.cases)
    reviews = load_reviews(reviews_file) if reviews_file is not None else Reviews(Path())
    for warning in reviews.stale(case_set.cases):
        click.echo(f"gate: warning: {warning}", err=True)
    with stop_requests() as stops:
        readings = Readings()
        verdicts = judge(case_set.cases, records, budget_s, stops, readings)
        judged = records[: len(verdicts)]
        verdicts = apply_reviews(verdicts, judged, reviews)
        computed = metrics_mod.compute(case_set.cases, verdicts)
        click.echo(verdict_table(verdicts))
        interrupted = stops.requested
        if json_out:
            extra: dict[str, object] = {"consistency": consistency_json(case_set.cases, judged, budget_s=budget_s, readings=readings)}
            if interrupted:
                extra["interrupted"] = True
            document = results_document(
                cases_digest=case_set.digest, verdicts=verdicts, metrics=computed.as_json(),
                findings=[], passed=not interrupted, extra=extra,
            )
            write_json(json_out, document)
            click.echo(f"results written to {json_out}")
    if interrupted:
        click.echo(f"gate: interrupted after judging {len(verdicts)} of {len(records)} records", err=True)
        return EXIT_INTERRUPTED
    return 0
