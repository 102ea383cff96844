"""The semantic tier inside `gate check`: human reviews always override their trajectories'
verdicts; under ``judge.gate: true`` the judge's verdicts count only on the rubrics its current
calibration trusts (gate.semantic.trust) — on the others they are advisory, reported, never counted."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gate.cases.loader import CaseSet
from gate.config.gate_yaml import GateConfig, JudgeConfig
from gate.process.interrupts import StopRequests
from gate.report.judge_trust import RubricTrust, Trust
from gate.runs.records import Kept
from gate.semantic.reviews import Reviews, apply_reviews
from gate.semantic.trust import load_record, trust_of
from gate.verdict import RunVerdict, Status


@dataclass(frozen=True)
class Gated:
    """What the semantic tier made of a check's verdicts."""

    verdicts: list[RunVerdict]
    interrupted: bool = False
    trust: tuple[RubricTrust, ...] = field(default=())


def gating_judge(config: GateConfig) -> JudgeConfig | None:
    """The judge asked in `gate check` (``judge.gate: true``), or None."""
    return config.judge if config.judge is not None and config.judge.gate else None


def settled_verdicts(config: GateConfig, case_set: CaseSet, runs: Sequence[Kept],
                     verdicts: list[RunVerdict], reviews: Reviews, *, progress: bool | None = None,
                     stops: StopRequests | None = None) -> Gated:
    """``verdicts`` with human reviews applied and, under ``judge.gate``, every rubric the calibration
    trusts settled by the judge; each judged rubric's trust; whether a stop interrupted the judge (its
    unjudged runs keep their rule verdicts; after a stop already made, the judge is asked nothing)."""
    judge = gating_judge(config)
    if judge is None:
        return Gated(apply_reviews(verdicts, runs, reviews))
    from gate.semantic.asks import asks_for
    from gate.semantic.assemble import judge_runs, settle
    from gate.semantic.engine import ask_all

    trajectories = [run.whole() for run in runs]  # the judge's prompts quote the answers
    asks = asks_for(case_set.cases, trajectories, judge)
    if not asks:
        return Gated(apply_reviews(verdicts, trajectories, reviews))
    record = load_record(config.resolve(judge.calibration))
    answers = ask_all(asks, judge, config.resolve("."), progress=progress, stops=stops)
    settled = settle(asks, answers, judge.samples)
    trust = {id(ask): trust_of(record, judge, ask.rubric) for ask in asks}
    counted = [(ask, found) for ask, found in zip(asks, settled, strict=True) if trust[id(ask)] == "calibrated"]
    judged = judge_runs(case_set.cases, trajectories, [a for a, _ in counted], [s for _, s in counted], reviews,
                        config.judging.budget_s)
    by_run = {(v.case_id, v.group, v.run): v for v in judged.full_verdicts}
    rest = apply_reviews([v for v in verdicts if (v.case_id, v.group, v.run) not in by_run], trajectories, reviews)
    reviewed = {(v.case_id, v.group, v.run): v for v in rest}
    final = [by_run.get(key) or reviewed[key] for key in ((v.case_id, v.group, v.run) for v in verdicts)]
    tallies: dict[tuple[str, str], list[Status]] = {}
    kinds: dict[tuple[str, str], Trust] = {}
    for ask, found in zip(asks, settled, strict=True):
        key = (ask.rubric.case.id, ask.rubric.key)
        kinds[key] = trust[id(ask)]
        tallies.setdefault(key, []).extend([] if found is None else [found.tally.status])
    lines = tuple(RubricTrust(case_id, rubric, kinds[(case_id, rubric)], statuses.count(Status.PASS),
                              statuses.count(Status.FAIL), statuses.count(Status.ERROR))
                  for (case_id, rubric), statuses in sorted(tallies.items()))
    return Gated(final, answers.interrupted, lines)
