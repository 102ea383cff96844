"""The stages `gate check`, `gate merge` and `gate eval` share: select the cases, judge the runs,
measure, compare with the baseline, decide, write the reports. Running the agent is the runner's; the
commands put the stages together."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gate.baseline import store as baseline_mod
from gate.case import Case
from gate.cases.loader import CaseSet
from gate.config.gate_yaml import GateConfig
from gate.judging.evaluate import Judgements
from gate.pipeline.preflight import CheckSettings as CheckSettings
from gate.pipeline.preflight import load_baseline as load_baseline
from gate.pipeline.preflight import reference_baseline as reference_baseline
from gate.pipeline.preflight import select_cases as select_cases
from gate.policy.reasons.reference import NoBarAt, RefUnreadable
from gate.policy.thresholds import Finding
from gate.process.budget import DEFAULT_BUDGET_S
from gate.process.interrupts import StopRequests
from gate.report.model import GateReport
from gate.runs.records import Kept
from gate.scoring import metrics as metrics_mod
from gate.scoring.comparison import compare
from gate.scoring.readings import Readings, Run, RunRef
from gate.trajectory import Trajectory
from gate.verdict import RunVerdict, Status

if TYPE_CHECKING:
    from gate.scoring.consistency import ConsistencyReport
    from gate.semantic.reviews import Reviews


REPORTING_MODULES = (
    "gate.policy.consistency", "gate.policy.decide", "gate.policy.outage", "gate.runs.records", "gate.report.comment",
    "gate.report.consistency_md", "gate.report.junit", "gate.report.terminal", "gate.scoring.consistency",
    "junit_xml", "tabulate",
)
"""What deciding and writing the reports import when they first run (the commands that do neither
never pay for them)."""


def import_ahead() -> None:
    """Import what judging the answers and writing the reports will: `gate check`
    does it while its first agent calls are out, instead of while answers or the reports wait."""
    from gate.policy.thresholds import Finding
    from gate.subject import prepare_analysers

    prepare_analysers()
    for name in REPORTING_MODULES:
        importlib.import_module(name)
    Finding.model_rebuild()  # its typed reasons' schema, built on the first finding otherwise


def identity(config: GateConfig) -> dict[str, Any]:
    """What the baseline and a merge must agree on: agent identity and policy-relevant settings."""
    agent = config.agent
    described = {
        "adapter": agent.adapter,
        "target": agent.target,
        "identity": agent.identity,
    }
    settings = {"tags": list(config.cases.tags), "ids": list(config.cases.ids), "groups": list(config.groups),
                "repeats": config.repeats, "thresholds": config.thresholds.model_dump(mode="json"),
                "decision": config.decision.model_dump(mode="json", include={"mode", "alpha", "confirm_runs"})}
    fingerprint = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]
    return {"agent": described, "config": f"sha256:{fingerprint}"}


def judge(cases: dict[str, Case], trajectories: list[Trajectory], budget_s: float | None = DEFAULT_BUDGET_S,
          stops: StopRequests | None = None, readings: Readings | None = None) -> list[RunVerdict]:
    """Each trajectory's verdict, each within the judging budget; a stop request ends the loop
    between trajectories (the verdicts so far are returned). ``readings`` keeps the consistency
    fields of the runs judged."""
    judgements = Judgements(cases, budget_s, readings)
    verdicts = []
    for trajectory in trajectories:
        if stops is not None and stops.requested:
            break
        verdicts.append(judgements(trajectory))
    return verdicts


def judge_stream(cases: dict[str, Case], trajectories: Iterable[Trajectory], budget_s: float | None,
                 stops: StopRequests, readings: Readings, reviews: Reviews) -> tuple[list[RunVerdict], list[RunRef]]:
    """Each trajectory's verdict as the stream yields it, human reviews applied, and a reference to
    each run of a case that measures consistency: nothing of a trajectory is kept once it is
    judged. A stop request ends the stream between trajectories."""
    from gate.semantic.reviews import apply_reviews

    judgements = Judgements(cases, budget_s, readings)
    verdicts: list[RunVerdict] = []
    runs: list[RunRef] = []
    for trajectory in trajectories:
        if stops.requested:
            break
        done_key = trajectory.done_key
        verdict = judgements(trajectory, done_key)
        verdicts += apply_reviews([verdict], [trajectory], reviews) if reviews else [verdict]
        if cases[trajectory.case_id].consistency is not None:
            runs.append(RunRef.of(trajectory, done_key))
    return verdicts, runs


def consistency_report(cases: dict[str, Case], trajectories: Iterable[Run], confidence: float | None = None,
                       budget_s: float | None = DEFAULT_BUDGET_S,
                       readings: Readings | None = None) -> ConsistencyReport | None:
    """The consistency of the repeated cases that ran (None when none did); a model until the
    reports serialise it."""
    from gate.scoring.consistency import compute_all

    report = compute_all(cases, trajectories, confidence=confidence, budget_s=budget_s, readings=readings)
    return report if report.cases else None


def reference_bar(settings: CheckSettings, case_set: CaseSet) -> tuple[CheckSettings, list[Finding]]:
    """The settings to decide with — the base's wherever this change relaxes them, unless a
    maintainer acknowledged it — and a finding per lowering (see :mod:`gate.policy.bar`)."""
    import dataclasses

    from gate.config.gate_yaml import replaced
    from gate.errors import GateError
    from gate.pipeline import base_bar
    from gate.pipeline.baseline_ref import pr_base_sha
    from gate.policy import bar
    from gate.policy.thresholds import Level

    ref = settings.baseline_ref or pr_base_sha(os.environ)
    if ref is None or settings.config_file is None:
        return settings, []
    short = ref[:12]
    try:
        base = base_bar.read(settings.config_file, ref)
    except base_bar.Unreadable as exc:
        return settings, [Finding(level=Level.WARNING, rule="bar-ref",
                                  reason=RefUnreadable(what="bar", ref=short, error=str(exc)))]
    if base is None:
        return settings, [Finding(level=Level.INFO, rule="bar-ref",
                                  reason=NoBarAt(ref=short, file=settings.config_file.name))]
    try:
        selected = select_cases(settings.config, case_set, None)
    except GateError:
        return settings, []  # the preflight says what is wrong with the selection
    head = replaced(settings.config, fail_on=settings.fail_on)  # a --fail-on given to the check counts as set
    lowered = bar.lowerings(base.config, base.cases, head, selected)
    found = bar.findings(lowered, short, acknowledged=settings.accept_lowered_bar)
    if lowered and not settings.accept_lowered_bar:
        strict = bar.effective(head, base.config)
        settings = dataclasses.replace(settings, config=strict, fail_on=strict.fail_on)
    return settings, found


def build_report(settings: CheckSettings, case_set: CaseSet, trajectories: Sequence[Kept], *,
                 base: baseline_mod.Baseline | None, interrupted: bool = False,
                 verdicts: list[RunVerdict] | None = None, notes: list[Finding] | None = None,
                 stops: StopRequests | None = None, readings: Readings | None = None) -> GateReport:
    """Judge trajectories and apply the policy: the whole gate short of running the agent.
    ``readings``: the consistency fields of runs already judged (as ``verdicts`` were)."""
    from gate.pipeline.escalate import replay
    from gate.policy.decide import decide

    config = settings.config
    decisions_cfg = config.decision
    readings = Readings() if readings is None else readings
    if verdicts is None:
        verdicts = judge(case_set.cases, [t.whole() for t in trajectories], config.judging.budget_s, stops, readings)
    computed = metrics_mod.compute(case_set.cases, verdicts)
    comparison = compare(base, computed, case_set.digest, identity(config))
    partial = settings.shard is not None
    # Consistency is measured over the planned repeats: confirm reruns only weigh a regression.
    planned = [t for t in trajectories if t.run < (config.repeats or case_set.cases[t.case_id].repeats)]
    evidence = 1 - decisions_cfg.alpha if decisions_cfg.mode == "confidence" else None
    consistency = consistency_report(case_set.cases, planned, evidence, config.judging.budget_s, readings)
    interrupted = interrupted or (stops is not None and stops.requested)  # a stop while judging or measuring
    power = None if partial else replay(config, case_set, base, verdicts)
    decided = decide(case_set.cases, verdicts, computed, comparison, consistency, thresholds=config.thresholds,
                     settings=decisions_cfg, fail_on=settings.fail_on, partial=partial, interrupted=interrupted,
                     notes=notes, power=power)
    return GateReport(
        cases=case_set.cases, digest=case_set.digest, verdicts=verdicts, metrics=computed,
        comparison=comparison, findings=decided.findings, passed=decided.passed, fail_on=settings.fail_on,
        consistency=consistency, identity=identity(config), shard=settings.shard, interrupted=interrupted,
        decision=decisions_cfg, junit=config.reports.junit, regressions=decided.pairs,
        reruns=count_reruns(case_set.cases, verdicts, config.repeats), unavailable=decided.unavailable,
        dimension_decisions=decided.dimensions, power=None if power is None else power.as_json(),
        context=run_context(os.environ), excerpts=excerpts(trajectories, verdicts),
        digests={(t.case_id, t.group, t.run): t.digest for t in trajectories},
    )


EXCERPT_CHARS = 500


def excerpts(trajectories: Sequence[Kept], verdicts: list[RunVerdict]) -> dict[tuple[str, str, int], str]:
    """The first characters of each failing or uncertain run's answer: what a reviewer reads beside
    the reason or the readings (a spooled run's answer is read back for this)."""
    failing = {(v.case_id, v.group, v.run) for v in verdicts if v.status in (Status.FAIL, Status.UNCERTAIN)}
    return {(t.case_id, t.group, t.run): t.final_answer[:EXCERPT_CHARS]
            for t in trajectories if (t.case_id, t.group, t.run) in failing}


def run_context(env: Mapping[str, str]) -> dict[str, str]:
    """The commit under test (a pull request's head, not its merge commit) and the run's link."""
    from gate.pipeline.baseline_ref import pr_head_sha

    found = {}
    commit = pr_head_sha(env) or env.get("GITHUB_SHA")
    if commit:
        found["commit"] = commit
    if env.get("GITHUB_SERVER_URL") and env.get("GITHUB_REPOSITORY") and env.get("GITHUB_RUN_ID"):
        found["run_url"] = f"{env['GITHUB_SERVER_URL']}/{env['GITHUB_REPOSITORY']}/actions/runs/{env['GITHUB_RUN_ID']}"
    return found


def count_reruns(cases: dict[str, Case], verdicts: list[RunVerdict], repeats: int | None) -> int:
    """Runs beyond each case's planned repeats: the confirm reruns of suspicious cases."""
    return sum(1 for v in verdicts if v.run >= (repeats or cases[v.case_id].repeats))


def write_reports(report: GateReport, out_dir: Path,
                  trajectories: Sequence[Kept] | None = None) -> dict[str, Path]:
    """results.json, junit.xml, comment.md (and trajectories.jsonl) in ``out_dir``, all or none,
    then the step summary."""
    from gate.files.atomic import Text, write_set
    from gate.redaction.secrets import public
    from gate.report import comment, junit
    from gate.runs.records import trajectories_text

    paths = {"results": out_dir / "results.json", "junit": out_dir / "junit.xml", "comment": out_dir / "comment.md"}
    files: dict[Path, Text] = {paths["results"]: report.document_text(), paths["junit"]: junit.render(report),
                               paths["comment"]: comment.render(report)}
    if trajectories is not None:
        files[out_dir / "trajectories.jsonl"] = trajectories_text(trajectories)
    write_set(files)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        try:
            with open(summary, "a", encoding="utf-8") as handle:
                handle.write(public(comment.render(report, with_marker=False)))
        except OSError as exc:  # the job page's extra copy: the reports and the verdict stand without it
            print(f"gate: warning: the step summary was not written to GITHUB_STEP_SUMMARY={summary}: "
                  f"{exc.strerror or exc}", file=sys.stderr)
    return paths
