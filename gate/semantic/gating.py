"""The semantic tier inside `gate check`: human reviews always override their trajectories'
verdicts; the judge's verdicts count only when gate.yaml sets ``judge.gate: true``."""

from __future__ import annotations

from collections.abc import Sequence

from gate.config import GateConfig, JudgeConfig
from gate.interrupts import StopRequests
from gate.loader import CaseSet
from gate.records import Kept
from gate.semantic.reviews import Reviews, apply_reviews
from gate.verdict import RunVerdict


def gating_judge(config: GateConfig) -> JudgeConfig | None:
    """The judge whose verdicts count in `gate check` (``judge.gate: true``), or None."""
    return config.judge if config.judge is not None and config.judge.gate else None


def settled_verdicts(config: GateConfig, case_set: CaseSet, runs: Sequence[Kept],
                     verdicts: list[RunVerdict], reviews: Reviews, *, progress: bool | None = None,
                     stops: StopRequests | None = None) -> tuple[list[RunVerdict], bool]:
    """``verdicts`` with human reviews applied and, under ``judge.gate``, every rubric settled by the
    judge; and whether a stop interrupted the judge (its unjudged runs keep their rule verdicts;
    after a stop already made, the judge is asked nothing)."""
    judge = gating_judge(config)
    if judge is None:
        return apply_reviews(verdicts, runs, reviews), False
    from gate.semantic.asks import asks_for
    from gate.semantic.assemble import judge_runs, settle
    from gate.semantic.engine import ask_all

    trajectories = [run.whole() for run in runs]  # the judge's prompts quote the answers
    asks = asks_for(case_set.cases, trajectories, judge)
    if not asks:
        return apply_reviews(verdicts, trajectories, reviews), False
    answers = ask_all(asks, judge, config.resolve("."), progress=progress, stops=stops)
    judged = judge_runs(case_set.cases, trajectories, asks, settle(asks, answers, judge.samples), reviews,
                        config.judging.budget_s)
    by_run = {(v.case_id, v.group, v.run): v for v in judged.full_verdicts}
    rest = apply_reviews([v for v in verdicts if (v.case_id, v.group, v.run) not in by_run], trajectories, reviews)
    reviewed = {(v.case_id, v.group, v.run): v for v in rest}
    return [by_run.get(key) or reviewed[key] for key in ((v.case_id, v.group, v.run) for v in verdicts)], \
        answers.interrupted
