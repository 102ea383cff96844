"""What a shard given to `gate merge` must hold: exactly the runs its configuration implies — every
planned run of its cases (shard K/N of the case set the digest names) in every group and repeat,
plus the confirm reruns the decision settings make of them and no other — each with its trajectory
in trajectories.jsonl, matching the digest results.json records. A shard that lost a failing run,
or gained passing ones, would otherwise merge into a gate that passes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from gate.baseline.store import Baseline
from gate.case import Case
from gate.cases.loader import CaseSet
from gate.config.gate_yaml import GateConfig
from gate.errors import GateError
from gate.pipeline.confirm import rerun_keys
from gate.pipeline.preflight import select_cases
from gate.results import ResultsFile, RunKey
from gate.runs.jobs import plan
from gate.trajectory import Trajectory
from gate.verdict import RunVerdict


@dataclass(frozen=True)
class Shard:
    """One shard as given to the merge: its results file, what it says, its trajectories and their verdicts."""

    path: Path
    document: ResultsFile
    records: list[Trajectory]
    verdicts: list[RunVerdict]

    @property
    def split(self) -> tuple[int, int]:
        assert self.document.shard is not None, "only shards' results are merged"
        return self.document.shard.k, self.document.shard.n


def _named(key: RunKey) -> str:
    return f"case {key[0]} group {key[1]} run {key[2]}"


def _first(keys: set[RunKey]) -> str:
    ordered = sorted(keys)
    more = f" (and {len(ordered) - 1} more)" if len(ordered) > 1 else ""
    return _named(ordered[0]) + more


def check_evidence(shard: Shard) -> None:
    """results.json and trajectories.jsonl hold the same runs, each trajectory the one whose digest
    results.json records."""
    where = str(shard.path)
    trajectories: dict[RunKey, Trajectory] = {(t.case_id, t.group, t.run): t for t in shard.records}
    recorded = shard.document.run_keys()
    if recorded - set(trajectories):
        raise GateError(f"{_first(recorded - set(trajectories))}: recorded here, but trajectories.jsonl beside it "
                        "holds no trajectory of it", where=where)
    if set(trajectories) - recorded:
        raise GateError(f"{_first(set(trajectories) - recorded)}: trajectories.jsonl beside it holds this run, "
                        "but results.json does not record it", where=where)
    for run in shard.document.results:
        key = (run.case_id, run.group, run.run)
        if run.trajectory is None:
            raise GateError(f"{_named(key)}: no trajectory digest recorded (results written by an earlier gate): "
                            "run the shard again", where=where)
        found = trajectories[key].digest
        if run.trajectory != found:
            raise GateError(f"{_named(key)}: its trajectory in trajectories.jsonl is not the one recorded here "
                            f"(digest {run.trajectory[:19]}… recorded, {found[:19]}… found)", where=where)


def check_runs(shard: Shard, config: GateConfig, case_set: CaseSet, base: Baseline | None) -> None:
    """The shard holds every run its configuration implies and no other (an interrupted shard may
    lack some: its merge is interrupted, never a pass)."""
    where = str(shard.path)
    k, n = shard.split
    selected = select_cases(config, case_set, (k, n))
    planned = {job.key for job in plan(selected, config.groups, config.repeats)}
    verdicts: Mapping[RunKey, RunVerdict] = {(v.case_id, v.group, v.run): v for v in shard.verdicts}
    reruns = rerun_keys(config, case_set, base, planned, verdicts)
    present = shard.document.run_keys()
    missing = (planned | reruns) - present
    if missing and not shard.document.interrupted:
        key = min(missing)
        why = (f"shard {k}/{n} of this case set runs it" if key in planned else
               "a confirm rerun the decision settings make of a (case, group) failing where the baseline passed")
        raise GateError(f"{_first(missing)} is missing: {why}; a missing run is never a pass", where=where)
    extra = present - planned - reruns
    if extra:
        raise GateError(f"{_first(extra)} is not a run this shard makes: {_why_not(min(extra), shard, config, selected)}",
                        where=where)


def _why_not(key: RunKey, shard: Shard, config: GateConfig, selected: list[Case]) -> str:
    case_id, group, _ = key
    k, n = shard.split
    case = next((c for c in selected if c.id == case_id), None)
    if case is None:
        return f"case {case_id} is not among the cases shard {k}/{n} runs"
    if group not in config.groups or group not in case.groups:
        return f"group {group} is not run for case {case_id}"
    decision = config.decision
    if decision.mode == "point" or not decision.confirm_runs:
        kind = "point mode makes none" if decision.mode == "point" else "decision.confirm_runs is 0"
        return f"it is beyond the planned repeats and no confirm rerun ({kind})"
    return ("it is beyond the planned repeats, and no confirm rerun: the decision settings rerun only a (case, group) "
            f"failing where the baseline passed, at most {decision.confirm_runs} time(s), while its test is open")
