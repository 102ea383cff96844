"""More rounds of a drifting dimension: made by ``gate check``, replayed wherever a report is built.

:mod:`gate.policy.drift` says which dimensions get them, how many, and when each is decided; this
drives the rounds. The same driver replays them on recorded verdicts (``build_report``, ``gate
merge``), so a report always knows which runs were the fresh ones. They follow the confirm reruns
and never run in a shard (a shard holds part of a dimension; the merged result is judged).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from gate.baseline.store import Baseline
from gate.cases.loader import CaseSet
from gate.config.gate_yaml import GateConfig
from gate.pipeline.confirm import judge_for, judged, rerun_keys
from gate.policy import drift, drift_choice, regressions
from gate.process.interrupts import StopRequests
from gate.results import RunKey
from gate.runs.jobs import Job
from gate.runs.records import Kept
from gate.scoring import metrics as metrics_mod
from gate.scoring.comparison import Comparison, compare
from gate.trajectory import Trajectory
from gate.verdict import RunVerdict

Fetch = Callable[[list[RunKey]], Mapping[RunKey, RunVerdict] | None]
"""The verdicts of a round's runs, or None when they are not all there (interrupted, or never made)."""


def planned_keys(case_set: CaseSet, config: GateConfig, keys: set[RunKey]) -> set[RunKey]:
    """The first round's runs among ``keys``: within each case's planned repeats."""
    return {k for k in keys if k[0] in case_set.cases and k[2] < (config.repeats or case_set.cases[k[0]].repeats)}


def drive(config: GateConfig, case_set: CaseSet, base: Baseline | None, verdicts: Mapping[RunKey, RunVerdict],
          planned: set[RunKey], before: set[RunKey], fetch: Fetch) -> drift.Escalation | None:
    """Choose the dimensions from the first round (``planned``), then run their rounds after every
    run in ``before`` (the first round and its confirm reruns) through ``fetch``; None when no round
    applies (settings, no baseline, an outage)."""
    from gate.pipeline.confirm import _down

    settings = config.decision
    first_verdicts = [verdicts[k] for k in sorted(planned) if k in verdicts]
    if not drift.enabled(settings) or base is None or _down(case_set, first_verdicts, config):
        return None
    first = metrics_mod.compute(case_set.cases, first_verdicts)
    comparison = compare(base, first, case_set.digest)
    # a pair its own test already found regressed fails the gate by itself: more runs would change no verdict
    confirmed = metrics_mod.compute(case_set.cases, [verdicts[k] for k in sorted(before) if k in verdicts])
    regressed = any(d.outcome is regressions.PairOutcome.REGRESSED
                    for d in regressions.decide(confirmed, comparison, alpha=settings.alpha))
    start: dict[drift_choice.Stratum, int] = {}
    for cid, group, run in before:
        start[(cid, group)] = max(start.get((cid, group), 0), run + 1)
    confirm_calls = len(before - planned)
    made: set[RunKey] = set()
    groups = drift_choice.declared(case_set.cases, settings.case_groups)
    pilot = [] if regressed else drift_choice.pilot(first, comparison, settings, len(planned), confirm_calls, groups)
    selection = first
    if pilot:
        keys = [(cid, group, start.get((cid, group), 0)) for cid, group in pilot]
        got = fetch(keys)
        if got is None:
            return None
        made.update(keys)
        selection = metrics_mod.compute(case_set.cases, first_verdicts + [got[k] for k in keys])
        for cid, group in pilot:
            start[(cid, group)] = start.get((cid, group), 0) + 1
    plan = drift.plan(selection, comparison, settings, len(planned), confirm_calls + len(made), groups)
    if regressed:
        plan = dataclasses.replace(plan, chosen=())
    decisions = _legs(plan, comparison, start, fetch, made, settings.power)
    return drift.Escalation(plan, decisions, len(planned), len(set(verdicts) - planned - made), len(pilot),
                            frozenset(made))


def _legs(plan: drift.Plan, comparison: Comparison, start: dict[drift_choice.Stratum, int], fetch: Fetch,
          made: set[RunKey], power: float) -> list[drift.DimensionDrift]:
    """The chosen dimensions' rounds, one dimension after the other, each until it is decided; a
    regressed one ends them (the gate fails already), as does a round not (all) made."""
    decisions: list[drift.DimensionDrift] = []
    remaining = plan.available
    for index in range(len(plan.chosen)):
        leg = plan.leg(index, remaining)
        if leg is None:
            break
        fresh: dict[drift_choice.Stratum, list[RunVerdict]] = {}
        outcome: drift.Outcome | None = None
        for number in range(1, leg.rounds + 1):
            keys = [(cid, group, start.get((cid, group), 0) + number - 1) for cid, group in leg.candidate.strata]
            got = fetch(keys)
            if got is None:  # nothing was looked at past the last complete round
                if number > 1:
                    decisions.append(_decided(leg, comparison, fresh, number - 1, power, "open"))
                return decisions
            made.update(keys)
            remaining -= len(keys)
            for key in keys:
                fresh.setdefault((key[0], key[1]), []).append(got[key])
            decided = _decided(leg, comparison, fresh, number, power)
            outcome = decided.outcome
            if outcome != "open":
                decisions.append(decided)
                break
        if outcome == "regressed":
            break
        for stratum, runs in fresh.items():  # a group shares pairs with a dimension: the next leg's runs come after
            start[stratum] = start.get(stratum, 0) + len(runs)
    return decisions


def _decided(leg: drift.Leg, comparison: Comparison, fresh: Mapping[drift_choice.Stratum, list[RunVerdict]], done: int,
             power: float, outcome: drift.Outcome | None = None) -> drift.DimensionDrift:
    table = drift.rows(leg.candidate, comparison, {s: metrics_mod.count_runs(fresh.get(s, [])) for s in leg.candidate.strata})
    found, p = drift.look(leg, done, table) if done else (None, None)
    return drift.record(leg, table, done, outcome or found or "open", p, power)


def replay(config: GateConfig, case_set: CaseSet, base: Baseline | None,
           verdicts: list[RunVerdict]) -> drift.Escalation | None:
    """The rounds a check made, read back from its verdicts."""
    found = {(v.case_id, v.group, v.run): v for v in verdicts}
    planned = planned_keys(case_set, config, set(found))
    before = planned | (rerun_keys(config, case_set, base, planned, found) & set(found))

    def fetch(keys: list[RunKey]) -> Mapping[RunKey, RunVerdict] | None:
        return {k: found[k] for k in keys} if all(k in found for k in keys) else None

    return drive(config, case_set, base, found, planned, before, fetch)


def more_rounds(config: GateConfig, case_set: CaseSet, base: Baseline | None, trajectories: list[Kept],
                verdicts: list[RunVerdict], stops: StopRequests | None = None,
                keep: Callable[[Trajectory], Kept] | None = None) -> tuple[list[Kept], list[RunVerdict], bool, int]:
    """Make the rounds after the confirm reruns: the trajectories and verdicts with theirs, whether
    a stop interrupted them, and how many answers came from the cache."""
    from gate.runner import RunnerSettings, run_jobs

    budget_s = config.judging.budget_s
    found = {(v.case_id, v.group, v.run): v for v in verdicts}
    trajectories, verdicts = list(trajectories), list(verdicts)
    state = {"interrupted": False, "cached": 0}

    def fetch(keys: list[RunKey]) -> Mapping[RunKey, RunVerdict] | None:
        if stops is not None and stops.requested:
            state["interrupted"] = True
            return None
        jobs = [Job(case_set.cases[cid], group, run) for cid, group, run in keys]
        outcome = run_jobs(jobs, config.agent, root=config.resolve("."),
                           settings=RunnerSettings(give_up_unreachable=config.decision.outage_on_unreachable,
                                                   judge=judge_for(case_set, budget_s), keep=keep), stops=stops)
        trajectories.extend(outcome.trajectories)
        made = judged(case_set, outcome, budget_s)
        verdicts.extend(made)
        state["cached"] += outcome.cache_hits
        got = {(v.case_id, v.group, v.run): v for v in made}
        if outcome.interrupted or any(k not in got for k in keys):
            state["interrupted"] = bool(outcome.interrupted) or state["interrupted"]
            return None
        return got

    planned = planned_keys(case_set, config, set(found))
    drive(config, case_set, base, found, planned, set(found), fetch)
    return trajectories, verdicts, bool(state["interrupted"]), int(state["cached"])
