"""`gate baseline update`: write the baseline from fresh runs of every case (``decision.baseline_runs``
of them by default, ``--runs N``), or — explicitly — from a results file (``--results``); say how
noisy it is; refuse to lower the bar, or to record a partial run (:mod:`gate.commands.baseline_partial`),
unless asked.

The baseline then knows each (case, group)'s pass rate rather than one status, and the printout
lists the flaky pairs and how many runs per case would detect a drop of ``decision.effect`` with
``decision.power`` — the numbers to set ``confirm_runs`` and ``baseline_runs`` by. A baseline of
one run per case cannot confirm a regression (one failing run against one passing one is p = 0.5),
so recording from a results file with fewer runs than ``decision.baseline_runs`` warns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from gate.baseline import store as baseline
from gate.baseline.diff import diff
from gate.cases.loader import load_cases
from gate.commands.baseline_partial import Gaps, gaps
from gate.commands.baseline_power import describe_dimensions, dimension_calibration
from gate.commands.merge import read_results
from gate.config.gate_yaml import GateConfig, load_config
from gate.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_PASSED, GateError, did_you_mean
from gate.pipeline.confirm import judge_for, judged
from gate.pipeline.stages import identity, select_cases
from gate.process.interrupts import StopRequests, stop_requests
from gate.results import ResultsFile
from gate.runs.jobs import plan
from gate.scoring import metrics as metrics_mod
from gate.scoring.comparison import from_metrics
from gate.scoring.metrics import Metrics
from gate.scoring.stats import runs_for_power


def record(config: GateConfig, runs: int, stops: StopRequests | None = None,
           ) -> tuple[baseline.Baseline, int, Gaps] | None:
    """The baseline of ``runs`` fresh runs of every selected job, the number of runs made and what
    they lack (agent errors); None when a stop interrupted them (a partial baseline would lie)."""
    from gate.runner import RunnerSettings, run_jobs
    from gate.subject import prepare_analysers

    case_set = load_cases(config.resolve(config.cases.path), config.suites)
    selected = select_cases(config, case_set, None)
    jobs = plan(selected, config.groups, config.repeats, times=runs)
    outcome = run_jobs(jobs, config.agent, root=config.resolve("."),
                       settings=RunnerSettings(give_up_unreachable=config.decision.outage_on_unreachable,
                                               judge=judge_for(case_set, config.judging.budget_s),
                                               prepare=prepare_analysers), stops=stops)
    if outcome.interrupted:
        return None
    verdicts = judged(case_set, outcome, config.judging.budget_s)
    computed = metrics_mod.compute(case_set.cases, verdicts)
    calibration = calibrate(computed, config, runs, first_calls=len(jobs) // max(runs, 1))
    made = from_metrics(computed, cases_digest=case_set.digest, identity=identity(config),
                                     runs_per_case=runs, calibration=calibration)
    lacking = gaps((job.key for job in jobs), (((t.case_id, t.group, t.run), t.error) for t in outcome.trajectories))
    return made, len(outcome.trajectories), lacking


def calibrate(metrics: Metrics, config: GateConfig, runs: int, first_calls: int | None = None) -> dict[str, Any]:
    """Flaky pairs (0 < rate < 1) with the runs each needs for the configured power."""
    settings = config.decision
    flaky, steady, broken = [], 0, 0
    for case_id, outcome in sorted(metrics.cases.items()):
        for group, count in sorted(outcome.counts.items()):
            if not count.judged:
                continue
            if count.passed == count.judged:
                steady += 1
            elif count.passed == 0:
                broken += 1
            else:
                rate = count.passed / count.judged
                flaky.append({"case_id": case_id, "group": group, "passed": count.passed, "runs": count.judged,
                              "runs_needed": runs_for_power(rate, settings.effect, settings.alpha, settings.power)})
    return {"runs_per_case": runs, "alpha": settings.alpha, "power": settings.power, "effect": settings.effect,
            "always_pass": steady, "always_fail": broken, "flaky": flaky,
            "runs_needed_steady": runs_for_power(1.0, settings.effect, settings.alpha, settings.power),
            "dimensions": dimension_calibration(metrics, config, runs, first_calls)}


def describe(calibration: dict[str, Any]) -> str:
    """The printout: counts, each flaky pair, and the runs needed for the configured power."""
    flaky = calibration["flaky"]
    lines = [f"{calibration['always_pass']} (case, group) pairs always pass, {calibration['always_fail']} always fail, "
             f"{len(flaky)} flaky over {calibration['runs_per_case']} runs per case"]
    effect, power = calibration["effect"], calibration["power"]
    needed = calibration["runs_needed_steady"]
    lines.append(f"to detect a drop of {effect * 100:.0f} pts with {power * 100:.0f}% power: "
                 f"{needed if needed is not None else 'more than 200'} runs for a pair that always passes")
    for pair in flaky:
        more = pair["runs_needed"]
        lines.append(f"  flaky {pair['case_id']} ({pair['group']}): {pair['passed']} of {pair['runs']} runs pass — "
                     f"{more if more is not None else 'more than 200'} runs needed")
    lines += describe_dimensions(calibration.get("dimensions", []), power)
    return "\n".join(lines)


def update(config_path: str | None, results_path: str | None, out_path: str | None, runs: int | None,
           accept_regressions: bool, accept_partial: bool = False) -> int:
    """Write the baseline; 1 when it would lower the bar, or come from a partial run, and that was
    not accepted, 130 when a stop came before it was written (nothing written either way).
    ``results_path``: record that results file ("" for the latest, in out_dir) instead of fresh runs."""
    with stop_requests() as stops:
        return _update(config_path, results_path, out_path, runs, accept_regressions, stops, accept_partial)


def _update(config_path: str | None, results_path: str | None, out_path: str | None, runs: int | None,
            accept_regressions: bool, stops: StopRequests, accept_partial: bool = False) -> int:
    config = load_config(config_path)
    target = Path(out_path) if out_path else config.resolve(config.baseline)
    old = baseline.load(target)  # a corrupt one is an error before any agent call
    if results_path is None:
        recorded = record(config, runs or config.decision.baseline_runs, stops)
        if recorded is None:
            return _interrupted()
        made, total, lacking = recorded
        click.echo(describe(made.calibration or {}))
    else:
        if runs is not None:
            raise GateError("--runs records fresh runs; it cannot be combined with --results")
        source = Path(results_path) if results_path else config.resolve(config.out_dir) / "results.json"
        document = read_results(source)
        if document.shard is not None:
            raise GateError("these are one shard's results; merge the shards first (`gate merge`)", where=str(source))
        if document.interrupted and not accept_partial:
            raise GateError("these results are partial (the run was interrupted); rerun `gate check` first, or "
                            "record them with --accept-partial", where=str(source))
        made, total = baseline.from_results(document, str(source)), len(document.results)
        lacking = _lacking(config, document)
        _warn_if_thin(made, config.decision.baseline_runs, source)
    if stops.requested:
        return _interrupted()
    if lacking and not accept_partial:
        click.echo(f"gate: refused: a partial run is no baseline — {'; '.join(lacking.lines())}; rerun, or record "
                   f"it with --accept-partial (nothing written to {target})", err=True)
        return EXIT_FAILED
    if lacking:
        click.echo(f"gate: warning: recorded from a partial run (--accept-partial): {'; '.join(lacking.lines())}",
                   err=True)
    if old is not None and old.accepted:
        made = made.model_copy(update={"accepted": old.accepted})  # acceptances stand until revoked
    if not _may_replace(old, made, accept_regressions, target):
        return EXIT_FAILED
    if stops.settle():  # the last moment a stop keeps the old baseline
        return _interrupted()
    baseline.write(target, made)
    click.echo(f"baseline written to {target} ({total} runs)")
    return EXIT_PASSED


def _lacking(config: GateConfig, document: ResultsFile) -> Gaps:
    """What a results file lacks of the runs gate.yaml plans for its cases."""
    case_set = load_cases(config.resolve(config.cases.path), config.suites)
    planned = (job.key for job in plan(select_cases(config, case_set, None), config.groups, config.repeats))
    return gaps(planned, (((r.case_id, r.group, r.run), r.error) for r in document.results),
                interrupted=document.interrupted)


def _warn_if_thin(made: baseline.Baseline, wanted: int, source: Path) -> None:
    """A baseline from fewer runs than ``decision.baseline_runs`` is said to be thin, with the way out."""
    runs = [count.runs for groups in made.cases.values() for count in groups.values()]
    fewest = min(runs, default=wanted)
    if fewest >= wanted:
        return
    click.echo(f"gate: warning: {source} holds {fewest} run(s) for some (case, group) pairs, fewer than "
               f"decision.baseline_runs ({wanted}): a baseline this thin cannot confirm most regressions (one "
               "failing run against one passing one is p = 0.5) — `gate baseline update` without --results "
               f"records {wanted} fresh runs per case", err=True)


def _interrupted() -> int:
    click.echo("gate: interrupted: no baseline written (a partial one would lie)", err=True)
    return EXIT_INTERRUPTED


def _may_replace(old: baseline.Baseline | None, new: baseline.Baseline, accept: bool, target: Path) -> bool:
    """Print the diff against the baseline being replaced; refuse to lower it unless accepted."""
    if old is None:
        return True
    changes = diff(old, new)
    for line in changes.lines():
        click.echo(f"baseline diff: {line}")
    if changes.lowered and not accept:
        click.echo(f"gate: refused: the new baseline lowers the bar for {len(changes.lowered)} case(s) that passed "
                   f"before ({', '.join(changes.lowered)}); fix them, or record it with --accept-regressions "
                   f"(nothing written to {target})", err=True)
        return False
    return True


def accept(config_path: str | None, case_id: str, constraint_id: str, reason: str | None, revoke: bool,
           out_path: str | None, today: str | None = None) -> int:
    """Record (or revoke) the acceptance of a never-rule's known violation in the baseline."""
    import datetime

    config = load_config(config_path)
    target = Path(out_path) if out_path else config.resolve(config.baseline)
    old = baseline.load(target)
    if old is None:
        raise GateError("no baseline to record the acceptance in: record one first (`gate baseline update`)",
                        where=str(target))
    cases = load_cases(config.resolve(config.cases.path), config.suites).cases
    case = cases.get(case_id)
    if case is None:
        raise GateError(f"unknown case '{case_id}'{did_you_mean(case_id, cases)}")
    rule = case.constraint(constraint_id)
    if rule is None:
        raise GateError(f"case {case_id} has no constraint '{constraint_id}'"
                        f"{did_you_mean(constraint_id, [c.id for c in case.constraints if c.id])}", where=case.path)
    if not rule.zero_tolerance:
        raise GateError(f"{case_id}: constraint '{constraint_id}' is not a never-rule (zero_tolerance: true): its "
                        "failures are weighed as rates and need no acceptance", where=case.path)
    kept = tuple(a for a in old.accepted if (a.case_id, a.constraint) != (case_id, constraint_id))
    if revoke:
        if len(kept) == len(old.accepted):
            raise GateError(f"no acceptance of {case_id} `{constraint_id}` to revoke", where=str(target))
        baseline.write(target, old.model_copy(update={"accepted": kept}))
        click.echo(f"revoked the acceptance of {case_id} `{constraint_id}` in {target}: a violation fails the gate again")
        return EXIT_PASSED
    if not reason or not reason.strip():
        raise GateError("--reason is required: an acceptance says why the violation is tolerated, on the record")
    day = today or datetime.date.today().isoformat()
    entry = baseline.Acceptance(case_id=case_id, constraint=constraint_id, reason=reason.strip(), accepted_on=day)
    baseline.write(target, old.model_copy(update={"accepted": (*kept, entry)}))
    click.echo(f"accepted violations of {case_id} `{constraint_id}` in {target} ({day}: {entry.reason}); every report "
               "lists it until `gate baseline accept --revoke`")
    return EXIT_PASSED
