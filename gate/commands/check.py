"""`gate check`: run the agent on the selected cases, confirm suspicious failures, judge, compare,
decide and write every report; the exit code says what was decided."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path

from gate.cases.loader import load_cases
from gate.cases.parsed_cases import parsed_cases
from gate.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_PASSED, EXIT_UNAVAILABLE
from gate.judging.verdict_cache import verdict_store
from gate.pipeline.confirm import confirm_failures, judge_for
from gate.pipeline.escalate import more_rounds
from gate.pipeline.preflight import preflight
from gate.pipeline.stages import CheckSettings, build_report, import_ahead, reference_bar, write_reports
from gate.process.interrupts import StopRequests, stop_requests
from gate.report.model import GateReport
from gate.runner import RunnerSettings, run_jobs
from gate.runs.jobs import plan
from gate.runs.records import Spool
from gate.scoring.readings import Readings
from gate.semantic.gating import gating_judge, settled_verdicts


def run_check(settings: CheckSettings, stops: StopRequests | None = None) -> tuple[GateReport, dict[str, Path]]:
    """Run the agent, confirm suspicious failures, judge, enforce and write the reports.

    A stop (SIGINT, SIGTERM) at any point ends with the reports of what finished, marked
    interrupted: one while the cases load makes no agent call; one while the reports are written
    has them written again, marked. Once that is settled a stop is too late to change them.
    ``stops``: the command's, when it watched for stops before (its imports, gate.yaml)."""
    if stops is not None:
        return _checked(settings, stops)
    with stop_requests() as own:
        return _checked(settings, own)


def _checked(settings: CheckSettings, stops: StopRequests) -> tuple[GateReport, dict[str, Path]]:
    config = settings.config
    case_set = load_cases(config.resolve(config.cases.path), config.suites, parsed=parsed_cases(config.derived_cache()),
                          examples=gating_judge(config) is not None)  # the judge's prompts quote the examples
    settings, bar_notes = reference_bar(settings, case_set)  # the base's bar, where this change lowers it
    config = settings.config
    ready = preflight(settings, case_set)  # every input refused before any agent call, as `gate validate` does
    base, notes, reviews = ready.base, bar_notes + ready.notes, ready.reviews
    for warning in ready.warnings:
        print(f"gate: warning: {warning}", file=sys.stderr)
    started = time.monotonic()
    # Each trajectory waits on disk once judged (6,000 cases: 16,700 runs), until trajectories.jsonl
    # is written from there.
    with ready.agent, Spool() as spool:
        readings = Readings()
        answers = config.resolve(config.agent.cache) if config.agent.cache is not False else None
        store = verdict_store(answers, config.judging.budget_s)
        # the plan is let go with the run (16,700 jobs at 6,000 cases)
        outcome = run_jobs(plan(ready.selected, config.groups, config.repeats), config.agent, root=config.resolve("."),
                           settings=RunnerSettings(give_up_unreachable=config.decision.outage_on_unreachable,
                                                   judge=judge_for(case_set, config.judging.budget_s, readings, store),
                                                   prepare=import_ahead, keep=spool.keep),
                           stops=stops, inputs=ready.agent)
        trajectories, verdicts, interrupted, cached = confirm_failures(config, case_set, base, outcome, stops,
                                                                       keep=spool.keep)
        if not interrupted and settings.shard is None:  # a shard holds part of a dimension: the merge is judged
            trajectories, verdicts, interrupted, more = more_rounds(config, case_set, base, trajectories, verdicts,
                                                                    stops, keep=spool.keep)
            cached += more
        settled = settled_verdicts(config, case_set, trajectories, verdicts, reviews, stops=stops)
        verdicts, interrupted = settled.verdicts, interrupted or settled.interrupted
        trust = settled.trust if gating_judge(config) is not None else None

        def reported(interrupted: bool) -> GateReport:
            report = build_report(settings, case_set, trajectories, base=base, interrupted=interrupted,
                                  verdicts=verdicts, notes=notes, stops=stops, readings=readings)
            return dataclasses.replace(report, wall_s=time.monotonic() - started, cached=cached, judge_trust=trust)

        report = reported(interrupted)
        paths = write_reports(report, settings.out_dir, trajectories)
        if stops.settle() and not report.interrupted:  # a stop while they were written: written again, marked
            report = reported(True)
            paths = write_reports(report, settings.out_dir, trajectories)
    return report, paths


def exit_code(report: GateReport) -> int:
    if report.interrupted:
        return EXIT_INTERRUPTED
    if report.unavailable:
        return EXIT_UNAVAILABLE
    return EXIT_PASSED if report.passed else EXIT_FAILED
