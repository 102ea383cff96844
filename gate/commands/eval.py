"""`gate eval`: judge exactly the records of a trajectory file and report them, with the findings
gate.yaml's thresholds give on what was judged (no baseline: eval compares with nothing)."""

from __future__ import annotations

from pathlib import Path

import click

from gate.cases.loader import load_cases
from gate.cases.parsed_cases import parsed_cases
from gate.config.gate_yaml import GateConfig
from gate.errors import EXIT_INTERRUPTED
from gate.files.atomic import write_text
from gate.pipeline.stages import consistency_report, judge_stream
from gate.policy.decide import decide
from gate.policy.thresholds import verdict_of
from gate.process.budget import DEFAULT_BUDGET_S
from gate.process.interrupts import stop_requests
from gate.redaction.sanitize import one_line
from gate.report.table import verdict_table
from gate.report.wording import finding_json, message_of
from gate.results import results_head, results_text
from gate.runs.records import iter_trajectories
from gate.scoring import metrics as metrics_mod
from gate.scoring.comparison import Comparison
from gate.scoring.readings import Readings


def run_eval(cases_dir: Path, trajectories: Path, json_out: str | None,
             budget_s: float | None = DEFAULT_BUDGET_S, reviews_file: Path | None = None,
             config: GateConfig | None = None) -> int:
    """Judge every record; print the table and the findings; write results.json if asked. Returns
    the exit code: 0 whatever the verdicts, or 130 when a stop was asked for (what was judged by
    then is still reported). ``reviews_file``: human verdicts that override those of the
    trajectories they name. ``config``: whose thresholds, decision settings and suites apply."""
    from gate.semantic.reviews import Reviews, load_reviews

    config = config or GateConfig()
    case_set = load_cases(cases_dir, config.suites, parsed=parsed_cases(config.derived_cache()))
    reviews = load_reviews(reviews_file) if reviews_file is not None else Reviews(Path())
    for warning in reviews.stale(case_set.cases):
        click.echo(f"gate: warning: {warning}", err=True)
    with stop_requests() as stops:
        readings = Readings()
        verdicts, runs = judge_stream(case_set.cases, iter_trajectories(trajectories, case_set.cases), budget_s,
                                      stops, readings, reviews)
        computed = metrics_mod.compute(case_set.cases, verdicts)
        click.echo(verdict_table(verdicts))
        settings = config.decision
        evidence = 1 - settings.alpha if settings.mode == "confidence" else None
        consistency = consistency_report(case_set.cases, runs, evidence, budget_s, readings)
        interrupted = stops.requested
        decided = decide(case_set.cases, verdicts, computed, Comparison(present=False), consistency,
                         thresholds=config.thresholds, settings=settings, fail_on=config.fail_on,
                         interrupted=interrupted)
        findings = [f for f in decided.findings if f.rule != "no-baseline"]  # eval never has one
        for finding in findings:
            click.echo(f"[{finding.level.value}] {one_line(message_of(finding))}")
        if json_out:
            extra: dict[str, object] = {"consistency": consistency.as_json() if consistency else None,
                                        "verdict": verdict_of(findings, config.fail_on, interrupted=interrupted)}
            if interrupted:
                extra["interrupted"] = True
            head = results_head(cases_digest=case_set.digest, metrics=computed.as_json(),
                                findings=[finding_json(f) for f in findings], passed=decided.passed, extra=extra)
            write_text(json_out, results_text(head, verdicts))
            click.echo(f"results written to {json_out}")
    if interrupted:
        # the rest of the stream is left unread: counting it would hold up a stop on a large file
        click.echo(f"gate: interrupted after judging {len(verdicts)} records of {trajectories} "
                   "(the rest was not read)", err=True)
        return EXIT_INTERRUPTED
    return 0
