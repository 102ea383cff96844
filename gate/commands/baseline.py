"""`gate baseline update --runs N`: record the baseline from N fresh runs and say how noisy it is.

The baseline then knows each (case, group)'s pass rate rather than one status, and the printout
lists the flaky pairs and how many runs per case would detect a drop of ``decision.effect`` with
``decision.power`` — the numbers to set ``confirm_runs`` and the baseline's ``--runs`` by.
"""

from __future__ import annotations

from typing import Any

from gate import baseline as baseline_mod
from gate.config import GateConfig
from gate.confirm import judge_for, judged
from gate.errors import GateError
from gate.jobs import plan
from gate.loader import load_cases
from gate.pipeline import identity, select_cases
from gate.scoring import metrics as metrics_mod
from gate.scoring.comparison import from_metrics
from gate.scoring.metrics import Metrics
from gate.scoring.stats import runs_for_power


def record(config: GateConfig, runs: int) -> tuple[baseline_mod.Baseline, int]:
    """The baseline of ``runs`` fresh runs of every selected job, and the number of runs made."""
    from gate.runner import run_jobs

    case_set = load_cases(config.resolve(config.cases.path), config.suites)
    selected = select_cases(config, case_set, None)
    jobs = plan(selected, config.groups, config.repeats, times=runs)
    outcome = run_jobs(jobs, config.agent, root=config.resolve("."), judge=judge_for(case_set, config.judging.budget_s))
    if outcome.interrupted:
        raise GateError("the runs were interrupted: no baseline written (a partial one would lie)")
    verdicts = judged(case_set, outcome, config.judging.budget_s)
    computed = metrics_mod.compute(case_set.cases, verdicts)
    calibration = calibrate(computed, config, runs)
    made = from_metrics(computed, cases_digest=case_set.digest, identity=identity(config),
                                     runs_per_case=runs, calibration=calibration)
    return made, len(outcome.trajectories)


def calibrate(metrics: Metrics, config: GateConfig, runs: int) -> dict[str, Any]:
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
            "runs_needed_steady": runs_for_power(1.0, settings.effect, settings.alpha, settings.power)}


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
    return "\n".join(lines)
