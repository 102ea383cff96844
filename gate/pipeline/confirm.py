"""Confirm reruns: a (case, group) that newly fails is run again until its test decides.

Only suspects cost extra calls: pairs that fail now where the baseline passed, and whose exact test
more runs could still settle (:func:`gate.regressions.still_open`). Each round reruns every open
pair once, concurrently, then decides again; a real regression keeps failing and is confirmed, a
flake passes and clears. At most ``decision.confirm_runs`` rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from gate.baseline.store import Baseline
from gate.cases.loader import CaseSet
from gate.config.gate_yaml import GateConfig
from gate.judging.evaluate import Judgements, evaluate
from gate.judging.verdict_cache import VerdictStore
from gate.policy import regressions
from gate.process.interrupts import StopRequests
from gate.results import RunKey
from gate.runner import RunnerSettings, RunOutcome, run_jobs
from gate.runs.jobs import Job
from gate.runs.records import Kept
from gate.scoring import metrics as metrics_mod
from gate.scoring.comparison import compare
from gate.scoring.readings import Readings
from gate.trajectory import Trajectory
from gate.verdict import RunVerdict


def judge_for(case_set: CaseSet, budget_s: float | None, readings: Readings | None = None,
              store: VerdictStore | None = None) -> Callable[[Trajectory], RunVerdict]:
    """Judge each answer as it arrives (for the progress line), once — a repeat that answered the
    same gets the same verdict — within the judging budget; ``readings`` keeps the consistency
    fields read from the same parse; ``store``: verdicts an earlier run gave the same answers."""
    return Judgements(case_set.cases, budget_s, readings, store, case_set.file_digests)


def judged(case_set: CaseSet, outcome: RunOutcome, budget_s: float | None) -> list[RunVerdict]:
    """The run's verdicts in trajectory order: those judged as they arrived, the rest now."""
    return [outcome.verdicts.get((t.case_id, t.group, t.run)) or evaluate(case_set.cases[t.case_id], t.whole(), budget_s=budget_s)
            for t in outcome.trajectories]


def confirm_failures(config: GateConfig, case_set: CaseSet, base: Baseline | None,
                     outcome: RunOutcome, stops: StopRequests | None = None,
                     keep: Callable[[Trajectory], Kept] | None = None,
                     ) -> tuple[list[Kept], list[RunVerdict], bool, int]:
    """The first run's trajectories and verdicts plus those of the confirm reruns, whether the
    run was interrupted, and how many answers came from the cache. ``keep``: what the reruns keep
    of each trajectory (as the first run did)."""
    cases = case_set.cases
    trajectories = list(outcome.trajectories)
    budget_s = config.judging.budget_s
    verdicts = judged(case_set, outcome, budget_s)
    settings = config.decision
    stopped = outcome.interrupted or (stops is not None and stops.requested)
    if not _confirms(config, base) or stopped:
        return trajectories, verdicts, stopped, outcome.cache_hits
    if _down(case_set, verdicts, config):
        return trajectories, verdicts, False, outcome.cache_hits  # rerunning an agent that is down only costs timeouts
    next_run = _next_runs((t.case_id, t.group, t.run) for t in trajectories)
    cached = outcome.cache_hits
    for done in range(settings.confirm_runs):
        if stops is not None and stops.requested:  # a stop while the last round was judged
            return trajectories, verdicts, True, cached
        keys = _round(config, case_set, base, verdicts, next_run, done)
        if not keys:
            break
        jobs = [Job(cases[cid], group, run) for cid, group, run in keys]
        rerun = run_jobs(jobs, config.agent, root=config.resolve("."),
                         settings=RunnerSettings(give_up_unreachable=config.decision.outage_on_unreachable,
                                                 judge=judge_for(case_set, budget_s), keep=keep), stops=stops)
        trajectories += rerun.trajectories
        verdicts += judged(case_set, rerun, budget_s)
        cached += rerun.cache_hits
        if rerun.interrupted:
            return trajectories, verdicts, True, cached
    return trajectories, verdicts, False, cached


def rerun_keys(config: GateConfig, case_set: CaseSet, base: Baseline | None, planned: set[RunKey],
               verdicts: Mapping[RunKey, RunVerdict]) -> set[RunKey]:
    """The confirm reruns :func:`confirm_failures` makes after the ``planned`` runs gave ``verdicts``
    (its rounds replayed on the verdicts of the reruns themselves): the only runs beyond the plan a
    shard may hold. A round whose runs are not all in ``verdicts`` ends the replay (an interrupted run)."""
    have = [verdicts[key] for key in sorted(planned) if key in verdicts]
    if not _confirms(config, base) or _down(case_set, have, config):
        return set()
    next_run = _next_runs(planned)
    made: set[RunKey] = set()
    for done in range(config.decision.confirm_runs):
        keys = _round(config, case_set, base, have, next_run, done)
        made.update(keys)
        if not keys or any(key not in verdicts for key in keys):
            break
        have += [verdicts[key] for key in keys]
    return made


def _confirms(config: GateConfig, base: Baseline | None) -> bool:
    """Whether the decision settings confirm failures by rerunning them at all."""
    settings = config.decision
    return settings.mode != "point" and bool(settings.confirm_runs) and base is not None


def _down(case_set: CaseSet, verdicts: list[RunVerdict], config: GateConfig) -> bool:
    from gate.policy.outage import unavailable

    return unavailable(metrics_mod.compute(case_set.cases, verdicts), verdicts, config.decision) is not None


def _next_runs(keys: Iterable[RunKey]) -> dict[tuple[str, str], int]:
    """Each (case, group)'s next run index after ``keys``."""
    found: dict[tuple[str, str], int] = {}
    for cid, group, run in keys:
        found[(cid, group)] = max(found.get((cid, group), 0), run + 1)
    return found


def _round(config: GateConfig, case_set: CaseSet, base: Baseline | None, verdicts: list[RunVerdict],
           next_run: dict[tuple[str, str], int], done: int) -> list[RunKey]:
    """The runs of confirm round ``done`` after ``verdicts`` (``next_run`` moves past them)."""
    settings = config.decision
    computed = metrics_mod.compute(case_set.cases, verdicts)
    pending = regressions.still_open(computed, compare(base, computed, case_set.digest), alpha=settings.alpha,
                                     remaining=settings.confirm_runs - done)
    keys = [(cid, group, next_run[(cid, group)]) for cid, group in pending]
    for cid, group in pending:
        next_run[(cid, group)] += 1
    return keys
